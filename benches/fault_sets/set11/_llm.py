#!/usr/bin/env python3
"""A tiny hostile model server for set11 (python3 stdlib only).

Speaks Ollama's API (/api/tags, /api/version, /api/show, /api/chat, /api/generate; NDJSON streams)
and the OpenAI API (/v1/models, /v1/chat/completions, /v1/completions, with or without /v1; SSE).
Every request is logged as one JSON line (method, path, headers, body).

The answer is built like a gullible model would: it copies the lines of the request that carry
placeholders ({...}) and then does what --mode says.
"""
import argparse, json, re, socket, sys, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ap = argparse.ArgumentParser()
ap.add_argument('--mode', default='echo')
ap.add_argument('--payload', default='')
ap.add_argument('--log', required=True)
ap.add_argument('--portfile', required=True)
ap.add_argument('--bind', default='127.0.0.1')
ap.add_argument('--tags-name', default='llama3.2:1b')
ap.add_argument('--redirect-to', default='')
ap.add_argument('--drip', type=float, default=2.0)
ap.add_argument('--marker', default='HOSTILE-MARK')
ap.add_argument('--tail', default='', help='appended to every answer')
ap.add_argument('--esc', action='store_true', help='decode \\x1b-style escapes in --payload, --tail, --tags-name')
A = ap.parse_args()
if A.esc:
    import codecs
    dec = lambda s: codecs.decode(s.encode('latin-1', 'backslashreplace'), 'unicode_escape')
    A.payload, A.tail, A.tags_name = dec(A.payload), dec(A.tail), dec(A.tags_name)
LOCK = threading.Lock()
PH = re.compile(r'\{[A-Za-z_][A-Za-z0-9_:.\-]*\}')

def log(handler, body):
    e = {'t': time.time(), 'method': handler.command, 'path': handler.path,
         'headers': {k: v for k, v in handler.headers.items()},
         'body': body.decode('utf-8', 'replace')}
    with LOCK:
        with open(A.log, 'a') as f:
            f.write(json.dumps(e) + '\n')

def texts_of(req):
    """all text of the request's messages / prompt, last user message first"""
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

def answer(req):
    return answer0(req) + (('\n' + A.tail) if A.tail else '')

def answer0(req):
    tpl = template_of(req)
    phs = PH.findall(tpl)
    m, pay = A.mode, A.payload
    if m == 'append':            # the template, then the payload
        return tpl + '\n' + pay
    if m == 'prepend':
        return pay + '\n' + tpl
    if m == 'after_first':       # payload glued right after the first placeholder
        if phs:
            return tpl.replace(phs[0], phs[0] + pay, 1)
        return tpl + pay
    if m == 'after_each':        # payload after every placeholder (e.g. ' TB')
        return PH.sub(lambda mm: mm.group(0) + pay, tpl)
    if m == 'swap':              # placeholders in reverse order, words kept
        it = iter(list(reversed(phs)))
        return PH.sub(lambda mm: next(it), tpl) + ('\n' + pay if pay else '')
    if m == 'drop_half':         # keep the first half of the placeholders only, then the payload
        keep = phs[:max(1, len(phs) // 2)]
        return ' '.join(keep) + ('\n' + pay if pay else '')
    if m == 'placeholders':      # only the placeholders, in order, then payload
        return ' '.join(phs) + ('\n' + pay if pay else '')
    return tpl                   # echo

def pieces(s, n=6):
    return [s[i:i + n] for i in range(0, len(s), n)] or ['']

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
        if A.mode == 'redirect':
            return self._redirect()
        if p.endswith('/api/tags'):
            n = A.tags_name
            return self._json({'models': [{'name': n, 'model': n, 'size': 1321098329,
                                           'digest': 'a80c4f17acd5', 'modified_at': '2026-11-20T10:00:00Z',
                                           'details': {'family': 'llama', 'parameter_size': '1.2B'}}]})
        if p.endswith('/api/version'):
            return self._json({'version': '0.6.2'})
        if p.endswith('/models'):
            return self._json({'object': 'list', 'data': [{'id': 'm', 'object': 'model'}]})
        if p.endswith('/api/ps'):
            return self._json({'models': []})
        return self._json({'error': 'not found'}, 404)

    def _redirect(self):
        self.send_response(307)
        self.send_header('Location', A.redirect_to + self.path)
        self.send_header('Content-Length', '0')
        self.end_headers()

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
        mode = A.mode
        if mode == 'redirect':
            return self._redirect()
        if mode == 'silent':                 # accept, never answer
            self._sleep_forever()
        if mode == 'error':                  # a hostile error status, reason phrase and body
            b = ('\x1b]0;' + A.marker + '\x07\x1b[2J ' + A.marker + ' upstream exploded: run sudo rm -rf /').encode()
            self.wfile.write(b'HTTP/1.1 503 \x1b]2;' + A.marker.encode() + b'\x07Down\r\n')
            self.send_header('Content-Type', 'text/plain')
            self.send_header('Content-Length', str(len(b)))
            self.end_headers()
            self.wfile.write(b); self.wfile.flush()
            return
        ollama = '/api/' in p
        openai_chat = p.endswith('chat/completions')
        stream = req.get('stream', True if ollama else False)
        text = answer(req)
        if mode == 'garbled':
            b = (b'\x00\xff\xfe{"choices":[{"delta":{"content":"' + A.marker.encode() +
                 b'\x1b]0;' + A.marker.encode() + b'\x07"}]}\xc3\x28 ' + A.marker.encode() + b'\n\n')
            self.send_response(200)
            self.send_header('Content-Type', 'text/event-stream' if not ollama else 'application/x-ndjson')
            self.send_header('Content-Length', str(len(b)))
            self.end_headers()
            self.wfile.write(b); self.wfile.flush()
            return
        def frame(piece, done=False):
            if ollama:
                if p.endswith('/api/generate'):
                    o = {'model': 'm', 'response': piece, 'done': done}
                else:
                    o = {'model': 'm', 'message': {'role': 'assistant', 'content': piece}, 'done': done}
                if done:
                    o['done_reason'] = 'stop'
                return json.dumps(o) + '\n'
            if openai_chat:
                o = {'id': 'c1', 'object': 'chat.completion.chunk', 'model': 'm',
                     'choices': [{'index': 0, 'delta': {'content': piece}, 'finish_reason': 'stop' if done else None}]}
            else:
                o = {'id': 'c1', 'object': 'text_completion', 'model': 'm',
                     'choices': [{'index': 0, 'text': piece, 'finish_reason': 'stop' if done else None}]}
            return 'data: ' + json.dumps(o) + '\n\n'
        if not stream and mode not in ('drip', 'stall', 'endless'):
            if ollama:
                o = ({'model': 'm', 'response': text, 'done': True} if p.endswith('/api/generate') else
                     {'model': 'm', 'message': {'role': 'assistant', 'content': text}, 'done': True})
            elif openai_chat:
                o = {'id': 'c1', 'object': 'chat.completion', 'model': 'm',
                     'choices': [{'index': 0, 'message': {'role': 'assistant', 'content': text}, 'finish_reason': 'stop'}]}
            else:
                o = {'id': 'c1', 'object': 'text_completion', 'model': 'm',
                     'choices': [{'index': 0, 'text': text, 'finish_reason': 'stop'}]}
            return self._json(o)
        self.send_response(200)
        self.send_header('Content-Type', 'application/x-ndjson' if ollama else 'text/event-stream')
        self.send_header('Transfer-Encoding', 'chunked')
        self.end_headers()
        try:
            if mode == 'stall':              # one piece, then nothing, forever
                self._chunk(frame(pieces(text)[0]))
                self._sleep_forever()
            if mode == 'drip':               # a piece every --drip seconds, never ending
                for pc in pieces(text):
                    self._chunk(frame(pc)); time.sleep(A.drip)
                while True:
                    self._chunk(frame(' ' + A.marker)); time.sleep(A.drip)
            if mode == 'endless':            # as fast as it can, never ending
                blob = frame(' ' + A.marker + ' ' + 'x' * 40) * 50
                while True:
                    self._chunk(blob)
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

srv = S((A.bind, 0), H)
with open(A.portfile + '.tmp', 'w') as f:
    f.write(str(srv.server_address[1]))
import os
os.rename(A.portfile + '.tmp', A.portfile)
srv.serve_forever()
