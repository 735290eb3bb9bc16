#!/usr/bin/env python3
"""Drive one headroom chat session in pipe mode, one turn at a time.

usage: drive.py --out DIR --bin BIN [--timeout S] [--env K=V]... [--start S]
                [--quiet Q] [--maxwait M] [--final F] -- ARGS...   < SCRIPT

SCRIPT is a small text format read from stdin:
    >>> turn [start=S] [quiet=Q] [maxwait=M]
    text of the turn (sent as the text, then one blank line)
    >>> sh
    bash commands run here, between turns, synchronously
    >>> rawfile PATH
    (sends the bytes of PATH as they are; counts as a turn)
    >>> sleep SECONDS

Output in DIR:
    s0        what arrived before the first turn was sent (the greeting)
    sK        what arrived after turn K was sent and before turn K+1 was sent
              (the last slice also holds what came after stdin was closed)
    all       the whole stdout;  err  the whole stderr;  rc  the exit status
              (124/137: the timeout fired)
    times     one line per turn: K t_send t_first t_last (seconds from start;
              t_first/t_last are -1 when nothing arrived before the next send)
    exit_t    seconds from start to the exit
    t0        the start as epoch seconds (to line up with a fake server's log)
    chunks    one line per stdout read: seconds from start, stdout size after it
The command run is: timeout -k 5 TIMEOUT BIN ARGS...
"""
import os
import select
import subprocess
import sys
import threading
import time


def parse_script(text):
    steps = []
    cur = None
    for line in text.split("\n"):
        if line.startswith(">>> "):
            if cur is not None:
                steps.append(cur)
            parts = line[4:].split()
            kind = parts[0]
            opts = {}
            arg = None
            for p in parts[1:]:
                if "=" in p:
                    k, v = p.split("=", 1)
                    opts[k] = v
                else:
                    arg = p if arg is None else arg + " " + p
            cur = {"kind": kind, "opts": opts, "arg": arg, "body": []}
        else:
            if cur is None:
                if line.strip() == "":
                    continue
                raise SystemExit("drive.py: script text before the first >>> line")
            cur["body"].append(line)
    if cur is not None:
        steps.append(cur)
    for s in steps:
        body = "\n".join(s["body"])
        s["body"] = body.strip("\n")
    return steps


class Collector:
    def __init__(self, stream):
        self.buf = bytearray()
        self.last = None
        self.first_after = None
        self.lock = threading.Lock()
        self.chunks = []
        self.stream = stream
        self.done = False
        self.t = threading.Thread(target=self.run, daemon=True)
        self.t.start()

    def run(self):
        fd = self.stream.fileno()
        while True:
            try:
                b = os.read(fd, 65536)
            except OSError:
                b = b""
            if not b:
                break
            now = time.monotonic()
            with self.lock:
                self.buf += b
                self.last = now
                self.chunks.append((now, len(self.buf)))
        self.done = True

    def size(self):
        with self.lock:
            return len(self.buf)

    def last_time(self):
        with self.lock:
            return self.last


def main():
    argv = sys.argv[1:]
    if "--" not in argv:
        raise SystemExit("drive.py: missing --")
    i = argv.index("--")
    opts, args = argv[:i], argv[i + 1:]
    out = None
    binp = None
    timeout = 60
    env = dict(os.environ)
    dstart, dquiet, dmax, final = 2.0, 0.4, 60.0, 15.0
    j = 0
    while j < len(opts):
        o = opts[j]
        v = opts[j + 1] if j + 1 < len(opts) else None
        if o == "--out":
            out = v
        elif o == "--bin":
            binp = v
        elif o == "--timeout":
            timeout = float(v)
        elif o == "--env":
            k, val = v.split("=", 1)
            env[k] = val
        elif o == "--start":
            dstart = float(v)
        elif o == "--quiet":
            dquiet = float(v)
        elif o == "--maxwait":
            dmax = float(v)
        elif o == "--final":
            final = float(v)
        else:
            raise SystemExit("drive.py: unknown option " + o)
        j += 2
    os.makedirs(out, exist_ok=True)
    steps = parse_script(sys.stdin.read())
    log = open(os.path.join(out, "log"), "w")

    t0 = time.monotonic()
    t0_epoch = time.time()

    def rel(t):
        return -1.0 if t is None else round(t - t0, 3)

    cmd = ["timeout", "-k", "5", str(int(timeout)), binp] + args
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=env)
    so = Collector(p.stdout)
    se = Collector(p.stderr)
    bounds = []  # stdout offsets at each send
    times = []
    stdin_ok = [True]

    in_fd = p.stdin.fileno()
    os.set_blocking(in_fd, False)

    def write_bytes(data, limit=30.0):
        """write all of data within limit seconds (non-blocking, so a reader
        that stopped reading cannot hang the driver)"""
        if not stdin_ok[0]:
            print("write skipped: stdin closed", file=log, flush=True)
            return False
        view = memoryview(data)
        end = time.monotonic() + limit
        while len(view):
            left = end - time.monotonic()
            if left <= 0:
                print("write blocked for %.0fs with %d bytes left; giving up on stdin" % (limit, len(view)),
                      file=log, flush=True)
                stdin_ok[0] = False
                return False
            try:
                _, w, _ = select.select([], [in_fd], [], min(left, 0.2))
            except (OSError, ValueError):
                w = []
            if not w:
                if p.poll() is not None:
                    stdin_ok[0] = False
                    return False
                continue
            try:
                n = os.write(in_fd, view[:65536])
                view = view[n:]
            except BlockingIOError:
                continue
            except OSError as e:
                print("write failed: %r" % e, file=log, flush=True)
                stdin_ok[0] = False
                return False
        return True

    def wait_reply(n0, start, quiet, maxwait, allow_nudge=True):
        """wait for output beyond offset n0; returns (t_first, t_last)."""
        t_send = time.monotonic()
        t_first = None
        nudged = False
        deadline = t_send + start
        while True:
            now = time.monotonic()
            if so.size() > n0:
                t_first = now
                break
            if p.poll() is not None and so.done:
                return None, None
            if now >= deadline:
                if allow_nudge and not nudged:
                    nudged = True
                    print("no reply after %.1fs; sending one extra blank line" % start, file=log, flush=True)
                    write_bytes(b"\n", 5)
                    deadline = now + start
                    continue
                return None, None
            time.sleep(0.02)
        hard = t_send + maxwait
        while True:
            now = time.monotonic()
            lt = so.last_time() or now
            if now - lt >= quiet:
                break
            if now >= hard:
                break
            if p.poll() is not None and so.done:
                break
            time.sleep(0.02)
        return t_first, so.last_time()

    # greeting
    wait_reply(0, 5.0, dquiet, 20.0, allow_nudge=False)
    turn_no = 0
    for st in steps:
        k = st["kind"]
        if k in ("turn", "rawfile"):
            turn_no += 1
            n0 = so.size()
            bounds.append(n0)
            if k == "turn":
                data = (st["body"] + "\n\n").encode("utf-8")
            else:
                with open(st["arg"], "rb") as f:
                    data = f.read()
            ts = time.monotonic()
            print("turn %d sent at %.3f (%d bytes)" % (turn_no, ts - t0, len(data)), file=log, flush=True)
            write_bytes(data, float(st["opts"].get("writelimit", 30)))
            tf, tl = wait_reply(n0, float(st["opts"].get("start", dstart)),
                                float(st["opts"].get("quiet", dquiet)),
                                float(st["opts"].get("maxwait", dmax)))
            times.append((turn_no, rel(ts), rel(tf), rel(tl)))
        elif k == "sh":
            print("sh: " + st["body"].replace("\n", " ; "), file=log, flush=True)
            r = subprocess.run(["bash", "-c", st["body"]], capture_output=True, text=True)
            print("sh rc=%d out=%r err=%r" % (r.returncode, r.stdout[-2000:], r.stderr[-2000:]), file=log, flush=True)
        elif k == "sleep":
            time.sleep(float(st["arg"]))
        else:
            raise SystemExit("drive.py: unknown step " + k)
    # close stdin and wait for the exit
    try:
        p.stdin.close()
    except OSError:
        pass
    try:
        rc = p.wait(timeout=max(final, 1.0))
    except subprocess.TimeoutExpired:
        print("still running %.0fs after stdin closed; waiting for the timeout" % final, file=log, flush=True)
        try:
            rc = p.wait(timeout=timeout + 10)
        except subprocess.TimeoutExpired:
            p.kill()
            rc = p.wait()
    exit_t = time.monotonic() - t0
    so.t.join(5)
    se.t.join(5)
    data = bytes(so.buf)
    edges = [0] + bounds + [len(data)]
    for idx in range(len(edges) - 1):
        with open(os.path.join(out, "s%d" % idx), "wb") as f:
            f.write(data[edges[idx]:edges[idx + 1]])
    with open(os.path.join(out, "all"), "wb") as f:
        f.write(data)
    with open(os.path.join(out, "err"), "wb") as f:
        f.write(bytes(se.buf))
    with open(os.path.join(out, "rc"), "w") as f:
        f.write("%d\n" % rc)
    with open(os.path.join(out, "exit_t"), "w") as f:
        f.write("%.3f\n" % exit_t)
    with open(os.path.join(out, "t0"), "w") as f:
        f.write("%.6f\n" % t0_epoch)
    with open(os.path.join(out, "chunks"), "w") as f:
        for t, end in so.chunks:
            f.write("%.3f %d\n" % (t - t0, end))
    with open(os.path.join(out, "times"), "w") as f:
        for t in times:
            f.write("%d %.3f %.3f %.3f\n" % t)
    log.close()


if __name__ == "__main__":
    main()
