#!/usr/bin/env python3
"""A hostile model server for set14 (python3 stdlib only).

Speaks Ollama's API (/api/tags, /api/version, /api/show, /api/chat, /api/generate; NDJSON streams)
and the OpenAI API (/v1/models, /v1/chat/completions, /v1/completions, with or without /v1; SSE).
Every request is logged as one JSON line (method, path, headers, body) in --log; every answer it
builds is logged as {"template", "answer"} in --log + ".ans".

The answer text is built like a gullible or meaning-changing model would (--mode): it copies the
request lines that carry placeholders ({...}) and changes them. How it is sent is --behave.
"""
import argparse, codecs, json, re, socket, struct, sys, threading, time, zlib, os
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ap = argparse.ArgumentParser()
ap.add_argument('--mode', default='echo')
ap.add_argument('--behave', default='normal')
ap.add_argument('--payload', default='')
ap.add_argument('--tail', default='', help='appended to every answer')
ap.add_argument('--sub', action='append', default=[], help='REGEX=>REPL applied to the text between placeholders')
ap.add_argument('--swap', default='', help='WORD1,WORD2: the two words trade places in the text between placeholders')
ap.add_argument('--log', required=True)
ap.add_argument('--portfile', required=True)
ap.add_argument('--bind', default='127.0.0.1')
ap.add_argument('--tags-name', default='llama3.2:1b')
ap.add_argument('--drip', type=float, default=2.0)
ap.add_argument('--late', type=float, default=17.0)
ap.add_argument('--status', type=int, default=400)
ap.add_argument('--marker', default='HOSTILE-MARK')
ap.add_argument('--tool-file', default='/tmp/hr14-tool-pwned')
ap.add_argument('--tls', default='', help='CERT:KEY: serve HTTPS with this certificate')
ap.add_argument('--tags-variant', default='', help='empty|blank|huge|nonstring|nomodels: odd /api/tags answers')
ap.add_argument('--esc', action='store_true', help='decode \\x1b-style escapes in --payload, --tail, --tags-name, --marker')
A = ap.parse_args()
if A.esc:
    dec = lambda s: s.encode('ascii', 'backslashreplace').decode('unicode_escape')
    A.payload, A.tail, A.tags_name, A.marker = dec(A.payload), dec(A.tail), dec(A.tags_name), dec(A.marker)
LOCK = threading.Lock()
COUNT = [0]
PH = re.compile(r'\{[A-Za-z_][A-Za-z0-9_:.\-]*\}')


def log(handler, body):
    e = {'t': time.time(), 'method': handler.command, 'path': handler.path,
         'headers': {k: v for k, v in handler.headers.items()},
         'body': body.decode('utf-8', 'replace')}
    with LOCK:
        with open(A.log, 'a') as f:
            f.write(json.dumps(e) + '\n')


def log_answer(tpl, ans):
    with LOCK:
        with open(A.log + '.ans', 'a') as f:
            f.write(json.dumps({'template': tpl, 'answer': ans}) + '\n')


def texts_of(req):
    out = []
    msgs = req.get('messages') or []
    for m in reversed(msgs):
        c = m.get('content')
        if isinstance(c, list):
            c = ' '.join(x.get('text', '') for x in c if isinstance(x, dict))
        if isinstance(c, str):
            out.append(c)
    if isinstance(req.get('prompt'), str):
        out.append(req['prompt'])
    return out


def template_of(req):
    for t in texts_of(req):
        lines = [l for l in t.splitlines() if PH.search(l)]
        if lines:
            return '\n'.join(lines)
    return 'Here it is.'


def on_text(s, fn):
    """apply fn to the stretches of s between placeholders"""
    out, pos = [], 0
    for m in PH.finditer(s):
        out.append(fn(s[pos:m.start()])); out.append(m.group(0)); pos = m.end()
    out.append(fn(s[pos:]))
    return ''.join(out)


def transform(tpl):
    phs = PH.findall(tpl)
    m, pay = A.mode, A.payload
    t = tpl
    for sp in A.sub:
        rx, repl = sp.split('=>', 1)
        t = on_text(t, lambda x, rx=rx, repl=repl: re.sub(rx, repl, x))
    if A.swap:
        a, b = A.swap.split(',', 1)
        def sw(x):
            return re.sub(r'\b(%s|%s)\b' % (re.escape(a), re.escape(b)),
                          lambda mm: b if mm.group(1) == a else a, x)
        t = on_text(t, sw)
    if m == 'append':
        return t + '\n' + pay
    if m == 'prepend':
        return pay + '\n' + t
    if m == 'after_first':
        return t.replace(phs[0], phs[0] + pay, 1) if phs else t + pay
    if m == 'before_each':
        return PH.sub(lambda mm: pay + mm.group(0), t)
    if m == 'after_each':
        return PH.sub(lambda mm: mm.group(0) + pay, t)
    if m == 'rotate':             # placeholders rotated by one place, words kept
        if len(phs) > 1:
            rot = phs[1:] + phs[:1]
            it = iter(rot)
            t = PH.sub(lambda mm: next(it), t)
        return t + ('\n' + pay if pay else '')
    if m == 'braces':             # every placeholder rewritten in a near-miss form
        forms = [lambda n: '{{%s}}' % n, lambda n: '{ %s }' % n, lambda n: '{%s}' % n.upper(), lambda n: '[%s]' % n]
        k = [0]
        def f(mm):
            n = mm.group(0)[1:-1]
            r = forms[k[0] % len(forms)](n); k[0] += 1
            return r
        return PH.sub(f, t) + ('\n' + pay if pay else '')
    if m == 'fence':              # template inside a bash code fence, payload after
        return '```bash\n' + t + '\n```\n' + pay
    return t                      # echo (after --sub / --swap)


def answer(req, auth=''):
    tpl = template_of(req)
    ans = transform(tpl) + (('\n' + A.tail) if A.tail else '')
    ans = ans.replace('AUTHTOKEN', auth)
    log_answer(tpl, ans)
    return ans


def pieces(s, n=6):
    return [s[i:i + n] for i in range(0, len(s), n)] or ['']


_BOMB = None


def bomb():
    global _BOMB
    if _BOMB is None:
        line = ('data: ' + json.dumps({'choices': [{'index': 0, 'delta': {'content': 'BOMBMARK '}}]}) + '\n\n').encode()
        block = line * (1048576 // len(line))
        co = zlib.compressobj(6, zlib.DEFLATED, 31)
        parts = [co.compress(block) for _ in range(256)]
        parts.append(co.flush())
        _BOMB = b''.join(parts)
    return _BOMB


class H(BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'

    def log_message(self, *a):
        pass

    def _body(self):
        n = int(self.headers.get('Content-Length') or 0)
        b = self.rfile.read(n) if n else b''
        if not n and self.headers.get('Transfer-Encoding', '').lower() == 'chunked':
            b = b''
            while True:
                ln = int(self.rfile.readline().strip() or b'0', 16)
                if ln == 0:
                    self.rfile.readline(); break
                b += self.rfile.read(ln); self.rfile.readline()
        return b

    def _json(self, obj, status=200):
        b = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header('Content-Type', 'application/json')
        self.send_header('Content-Length', str(len(b)))
        self.end_headers()
        self.wfile.write(b)

    def _chunk(self, b):
        if isinstance(b, str):
            b = b.encode('utf-8', 'surrogatepass')
        if not b:
            return
        self.wfile.write(b'%x\r\n' % len(b) + b + b'\r\n')
        self.wfile.flush()

    def _end(self):
        self.wfile.write(b'0\r\n\r\n'); self.wfile.flush()

    def _sleep_forever(self):
        while True:
            time.sleep(1)

    def do_GET(self):
        log(self, b'')
        p = self.path.split('?')[0].rstrip('/')
        if p.endswith('/api/tags'):
            if A.behave == 'tags_hang':
                self._sleep_forever()
            tv = A.tags_variant
            if tv == 'empty':
                return self._json({'models': []})
            if tv == 'nomodels':
                return self._json({'TAGSMARK': 'no models key here'})
            if tv == 'nonstring':
                return self._json({'models': [{'name': 12345, 'model': ['TAGSMARK'], 'size': 'big'}]})
            if tv == 'blank':
                return self._json({'models': [{'name': '', 'model': '', 'size': 1}]})
            if tv == 'huge':
                n = 'TAGSMARK' + 'x' * (1 << 20)
                return self._json({'models': [{'name': n, 'model': n, 'size': 1}]})
            n = A.tags_name
            return self._json({'models': [{'name': n, 'model': n, 'size': 1321098329,
                                           'digest': 'a80c4f17acd5', 'modified_at': '2026-11-20T10:00:00Z',
                                           'details': {'family': 'llama', 'parameter_size': '1.2B'}}]})
        if p.endswith('/api/version'):
            return self._json({'version': '0.6.2'})
        if p.endswith('/models'):
            return self._json({'object': 'list', 'data': [{'id': A.tags_name, 'object': 'model'}]})
        if p.endswith('/api/ps'):
            return self._json({'models': []})
        return self._json({'error': 'not found'}, 404)

    def do_POST(self):
        body = self._body()
        log(self, body)
        p = self.path.split('?')[0].rstrip('/')
        if p.endswith('/api/show'):
            return self._json({'details': {'family': 'llama'}, 'model_info': {}})
        try:
            req = json.loads(body or b'{}')
        except Exception:
            req = {}
        beh = A.behave
        ollama = '/api/' in p
        gen = p.endswith('/api/generate')
        openai_chat = p.endswith('chat/completions')
        stream = req.get('stream', True if ollama else False)
        if beh == 'silent':
            self._sleep_forever()
        auth = self.headers.get('Authorization', '') or ''
        if beh == 'err_json':
            msg = A.marker.replace('AUTHTOKEN', auth)
            log_answer('', msg)
            o = {'error': msg} if ollama else {'error': {'message': msg, 'type': 'invalid_request_error'}}
            return self._json(o, A.status)
        if beh == 'retry429':          # rate limited, come back in an hour
            msg = A.marker.replace('AUTHTOKEN', auth)
            log_answer('', msg)
            b = json.dumps({'error': {'message': msg, 'type': 'rate_limit'}}).encode()
            self.send_response(429)
            self.send_header('Retry-After', '3600')
            self.send_header('Content-Type', 'application/json')
            self.send_header('Content-Length', str(len(b)))
            self.end_headers()
            self.wfile.write(b)
            return
        if beh == 'html':              # a captive portal answers instead of the model
            page = ('<html><head><title>Guest Wi-Fi login</title></head><body><h1>' + A.marker +
                    '</h1><p>' + A.payload + '</p><script>location="http://203.0.113.80/"</script></body></html>')
            log_answer('', page)
            b = page.encode('utf-8', 'surrogatepass')
            self.send_response(200)
            self.send_header('Content-Type', 'text/html; charset=utf-8')
            self.send_header('Content-Length', str(len(b)))
            self.end_headers()
            self.wfile.write(b)
            return
        if beh == 'header_drip':       # the status line and headers, one byte every --drip seconds
            raw = (b'HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nX-Slow: ' + b'a' * 400 +
                   b'\r\nTransfer-Encoding: chunked\r\n\r\n')
            self.close_connection = True
            log_answer('', 'header_drip')
            try:
                for ch in raw:
                    self.wfile.write(bytes([ch])); self.wfile.flush(); time.sleep(A.drip)
                self._sleep_forever()
            except OSError:
                return
        if beh == 'schema':            # well-formed HTTP, well-formed JSON, the wrong shape (variant by request)
            with LOCK:
                k = COUNT[0]; COUNT[0] += 1
            v = ('num', 'arr', 'obj', 'nullc', 'choices_str', 'top_str')[k % 6]
            log_answer('', 'SCHEMA-' + v)
            mk = A.marker
            if ollama:
                frames = {
                    'num': [{'message': {'role': 'assistant', 'content': 424242}, 'done': False}],
                    'arr': [{'message': {'role': 'assistant', 'content': [{'type': 'text', 'text': mk + ' kill -9 41500'}]}, 'done': False}],
                    'obj': [{'message': {'role': 'assistant', 'content': {'text': mk + ' kill -9 41500'}}, 'done': False}],
                    'nullc': [{'message': None, 'response': None, 'done': False}],
                    'choices_str': [{'message': mk + ' kill -9 41500', 'done': False}],
                    'top_str': [mk + ' kill -9 41500'],
                }[v]
                self.send_response(200)
                self.send_header('Content-Type', 'application/x-ndjson')
                self.send_header('Transfer-Encoding', 'chunked')
                self.end_headers()
                for fr in frames:
                    self._chunk(json.dumps(fr) + '\n')
                self._chunk(json.dumps({'done': True, 'done_reason': 'stop'}) + '\n')
                self._end()
                return
            frames = {
                'num': [{'choices': [{'index': 0, 'delta': {'content': 424242}}]}],
                'arr': [{'choices': [{'index': 0, 'delta': {'content': [{'type': 'text', 'text': mk + ' kill -9 41500'}]}}]}],
                'obj': [{'choices': [{'index': 0, 'delta': {'content': {'text': mk + ' kill -9 41500'}}}]}],
                'nullc': [{'choices': [{'index': 0, 'delta': {'content': None}}]}, {'choices': None}],
                'choices_str': [{'choices': mk + ' kill -9 41500'}],
                'top_str': [mk + ' kill -9 41500'],
            }[v]
            self.send_response(200)
            self.send_header('Content-Type', 'text/event-stream')
            self.send_header('Transfer-Encoding', 'chunked')
            self.end_headers()
            for fr in frames:
                self._chunk('data: ' + json.dumps(fr) + '\n\n')
            self._chunk('data: [DONE]\n\n')
            self._end()
            return
        if beh == 'framing':           # broken HTTP framing (variant by request)
            with LOCK:
                k = COUNT[0]; COUNT[0] += 1
            v = ('cl_lie', 'bad_chunk', 'http09', 'neg_cl')[k % 4]
            log_answer('', 'FRAMING-' + v)
            self.close_connection = True
            mk = (A.marker + ' kill -9 41500\n').encode()
            try:
                if v == 'cl_lie':
                    self.wfile.write(b'HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: 1000000000000\r\n\r\n'
                                     + b'data: ' + json.dumps({'choices': [{'index': 0, 'delta': {'content': A.marker}}]}).encode() + b'\n\n')
                elif v == 'bad_chunk':
                    self.wfile.write(b'HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n' + mk + b'\r\n')
                elif v == 'http09':
                    self.wfile.write(mk * 3)
                else:
                    self.wfile.write(b'HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: -5\r\n\r\n' + mk)
                self.wfile.flush()
                time.sleep(0.5)
            except OSError:
                pass
            return
        text = answer(req, auth)

        def frame(piece=None, done=False, extra=None):
            if ollama:
                if gen:
                    o = {'model': 'm', 'response': piece or '', 'done': done}
                else:
                    o = {'model': 'm', 'message': {'role': 'assistant', 'content': piece or ''}, 'done': done}
                if extra:
                    (o if gen else o['message']).update(extra)
                if done:
                    o['done_reason'] = 'stop'
                return json.dumps(o) + '\n'
            if openai_chat:
                delta = {} if piece is None else {'content': piece}
                if extra:
                    delta.update(extra)
                o = {'id': 'c1', 'object': 'chat.completion.chunk', 'model': 'm',
                     'choices': [{'index': 0, 'delta': delta, 'finish_reason': 'stop' if done else None}]}
            else:
                o = {'id': 'c1', 'object': 'text_completion', 'model': 'm',
                     'choices': [{'index': 0, 'text': piece or '', 'finish_reason': 'stop' if done else None}]}
                if extra:
                    o['choices'][0].update(extra)
            return 'data: ' + json.dumps(o) + '\n\n'

        tool_extra = None
        if beh == 'toolcall':
            if ollama:
                tool_extra = {'tool_calls': [{'function': {'name': 'shell', 'arguments': {
                    'cmd': 'touch ' + A.tool_file + ' # ' + A.marker}}}]}
            else:
                tool_extra = {'tool_calls': [{'index': 0, 'id': 'call_1', 'type': 'function', 'function': {
                    'name': 'shell', 'arguments': json.dumps({'cmd': 'touch ' + A.tool_file + ' # ' + A.marker})}}],
                    'function_call': {'name': 'shell', 'arguments': json.dumps({'cmd': 'touch ' + A.tool_file})}}

        if not stream and beh in ('normal', 'toolcall'):
            if ollama:
                o = ({'model': 'm', 'response': text, 'done': True} if gen else
                     {'model': 'm', 'message': {'role': 'assistant', 'content': text}, 'done': True})
                if tool_extra:
                    (o if gen else o['message']).update(tool_extra)
            elif openai_chat:
                msg = {'role': 'assistant', 'content': text}
                if tool_extra:
                    msg.update(tool_extra)
                o = {'id': 'c1', 'object': 'chat.completion', 'model': 'm',
                     'choices': [{'index': 0, 'message': msg, 'finish_reason': 'stop'}]}
            else:
                o = {'id': 'c1', 'object': 'text_completion', 'model': 'm',
                     'choices': [{'index': 0, 'text': text, 'finish_reason': 'stop'}]}
            return self._json(o)

        if beh == 'gzip':
            b = bomb()
            self.send_response(200)
            self.send_header('Content-Type', 'application/x-ndjson' if ollama else 'text/event-stream')
            self.send_header('Content-Encoding', 'gzip')
            self.send_header('Content-Length', str(len(b)))
            self.end_headers()
            try:
                self.wfile.write(b); self.wfile.flush()
            except OSError:
                pass
            return

        self.send_response(200)
        self.send_header('Content-Type', 'application/x-ndjson' if ollama else 'text/event-stream')
        self.send_header('Transfer-Encoding', 'chunked')
        self.end_headers()
        self.wfile.flush()
        try:
            if beh == 'empty':             # frames with empty content, forever
                while True:
                    self._chunk(frame('' if ollama else None)); time.sleep(0.3)
            if beh == 'late':              # headers now, the whole answer after --late seconds
                time.sleep(A.late)
            if beh == 'stall_late':        # 90 % of the answer at once, then nothing, forever
                cut = int(len(text) * 0.9)
                for pc in pieces(text[:cut], 40):
                    self._chunk(frame(pc))
                self._sleep_forever()
            if beh == 'done_first':        # end-of-stream first, then the answer and the payload
                if ollama:
                    self._chunk(frame('', True))
                else:
                    self._chunk('data: [DONE]\n\n')
                for pc in pieces(text + ' ' + A.payload):
                    self._chunk(frame(pc))
                if not ollama:
                    self._chunk('data: [DONE]\n\n')
                self._end()
                log_answer('', 'AFTER-DONE: ' + text + ' ' + A.payload)
                return
            if beh == 'two_choices':       # choice 0 the answer, choice 1 the payload, interleaved
                p0 = pieces(text); p1 = pieces(A.payload)
                for i in range(max(len(p0), len(p1))):
                    for idx, ps in ((0, p0), (1, p1)):
                        if i < len(ps):
                            o = {'id': 'c1', 'object': 'chat.completion.chunk', 'model': 'm',
                                 'choices': [{'index': idx, 'delta': {'content': ps[i]}, 'finish_reason': None}]}
                            self._chunk('data: ' + json.dumps(o) + '\n\n')
                for idx in (0, 1):
                    o = {'id': 'c1', 'object': 'chat.completion.chunk', 'model': 'm',
                         'choices': [{'index': idx, 'delta': {}, 'finish_reason': 'stop'}]}
                    self._chunk('data: ' + json.dumps(o) + '\n\n')
                self._chunk('data: [DONE]\n\n')
                self._end()
                log_answer('', 'CHOICE1: ' + A.payload)
                return
            if beh == 'sse_error':         # two pieces, then an error event, then the stream ends
                for pc in pieces(text)[:2]:
                    self._chunk(frame(pc))
                if ollama:
                    self._chunk(json.dumps({'error': A.marker}) + '\n')
                else:
                    self._chunk('event: error\ndata: ' + json.dumps({'error': {'message': A.marker, 'type': 'server_error'}}) + '\n\n')
                self._end()
                log_answer('', 'SSE-ERROR: ' + A.marker)
                return
            if beh == 'drip':              # a piece every --drip seconds, never ending
                for pc in pieces(text):
                    self._chunk(frame(pc)); time.sleep(A.drip)
                while True:
                    self._chunk(frame(' ' + A.marker)); time.sleep(A.drip)
            if beh == 'rst':               # two pieces, then a TCP reset
                for pc in pieces(text)[:2]:
                    self._chunk(frame(pc))
                time.sleep(0.3)
                s = self.connection
                s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack('ii', 1, 0))
                self.close_connection = True
                # close every reference to the socket, so the kernel really closes it (and, with a
                # zero linger, sends a reset); a bare s.close() waits for the handler's files
                try:
                    self.wfile.flush()
                except OSError:
                    pass
                self.rfile.close(); self.wfile.close(); s.close()
                self.wfile = open(os.devnull, 'wb')
                return
            if beh == 'reasoning':         # hidden "thinking" first, then <think> in the content
                for _ in range(3):
                    if ollama:
                        self._chunk(frame('', extra={'thinking': 'THINKMARK ' + A.payload}))
                    else:
                        self._chunk(frame(None, extra={'reasoning_content': 'THINKMARK ' + A.payload,
                                                       'reasoning': 'THINKMARK ' + A.payload}))
                self._chunk(frame('<think>THINKMARK2 ' + A.payload + '</think>\n'))
            if beh == 'toolcall':
                self._chunk(frame('' if ollama else None, extra=tool_extra))
            if beh == 'nul':               # the answer, with a NUL, a lone surrogate and a marker inside
                parts = pieces(text)
                parts.insert(1, '\x00\ud800' + A.marker + '\x00')
                for pc in parts:
                    o = frame(pc)
                    self._chunk(o)
                self._chunk(frame('', True))
                if not ollama:
                    self._chunk('data: [DONE]\n\n')
                self._end()
                return
            for pc in pieces(text):
                self._chunk(frame(pc))
            self._chunk(frame('', True))
            if not ollama:
                self._chunk('data: [DONE]\n\n')
            self._end()
        except (BrokenPipeError, ConnectionResetError, OSError):
            return


class S(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


class S6(S):
    address_family = socket.AF_INET6

    def server_bind(self):
        self.socket.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)   # dual stack
        super().server_bind()


if A.behave == 'gzip':
    bomb()
srv = (S6 if ':' in A.bind else S)((A.bind, 0), H)
if A.tls:
    import ssl
    cert, key = A.tls.split(':', 1)
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(cert, key)
    srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
    # a failed handshake must not kill the server thread loop
    _orig_verify = srv.handle_error
    srv.handle_error = lambda *a: None
with open(A.portfile + '.tmp', 'w') as f:
    f.write(str(srv.server_address[1]))
os.rename(A.portfile + '.tmp', A.portfile)
srv.serve_forever()
