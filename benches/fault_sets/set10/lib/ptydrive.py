#!/usr/bin/env python3
"""Drive headroom in a pseudo-terminal (100 x 40).

usage: ptydrive.py --out DIR --bin BIN [--timeout S] [--env K=V]... -- ARGS... < SCRIPT
The command is: timeout --foreground S BIN ARGS...
SCRIPT steps (one a line):
    type TEXT          type TEXT and Enter; if nothing comes back within 1.5 s,
                       press Enter once more (a turn may wait for an empty line)
    ctrlc NAME         press Ctrl-C and note the moment as NAME
    sleep S
    mark NAME          note this moment and the output size as NAME
    expect NAME S STR  wait up to S s for STR to show after the last mark;
                       note NAME with the moment it showed (or -1)
    alive NAME         note NAME as 1 when headroom still runs, else 0
    eof                press Ctrl-D
Writes DIR/all (raw output), DIR/events ("NAME SECONDS" from the start, -1 when
never), DIR/rc (124: the timeout fired).
"""
import fcntl
import os
import pty
import select
import signal
import struct
import sys
import termios
import time


def main():
    argv = sys.argv[1:]
    i = argv.index("--")
    opts, args = argv[:i], argv[i + 1:]
    out = binp = None
    timeout = 60
    env = dict(os.environ)
    j = 0
    while j < len(opts):
        o, v = opts[j], opts[j + 1]
        if o == "--out":
            out = v
        elif o == "--bin":
            binp = v
        elif o == "--timeout":
            timeout = int(float(v))
        elif o == "--env":
            k, val = v.split("=", 1)
            env[k] = val
        j += 2
    os.makedirs(out, exist_ok=True)
    env.setdefault("TERM", "xterm-256color")
    steps = [l.rstrip("\n") for l in sys.stdin if l.strip()]
    pid, fd = pty.fork()
    if pid == 0:
        os.execvpe("timeout", ["timeout", "--foreground", str(timeout), binp] + args, env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 100, 0, 0))
    t0 = time.time()
    buf = bytearray()
    events = []
    markpos = [0]
    status = [None]

    def pump(wait):
        end = time.time() + wait
        while True:
            left = end - time.time()
            if left <= 0:
                return
            r, _, _ = select.select([fd], [], [], min(left, 0.05))
            if r:
                try:
                    d = os.read(fd, 65536)
                except OSError:
                    d = b""
                if not d:
                    time.sleep(min(left, 0.05))
                    continue
                buf.extend(d)

    def send(b):
        try:
            os.write(fd, b)
        except OSError:
            pass

    pump(1.5)
    for st in steps:
        parts = st.split(" ", 1)
        k = parts[0]
        rest = parts[1] if len(parts) > 1 else ""
        if k == "type":
            n0 = len(buf)
            send(rest.encode() + b"\r")
            pump(1.5)
            if len(buf) - n0 < len(rest) + 40:
                send(b"\r")
                pump(0.3)
        elif k == "ctrlc":
            send(b"\x03")
            events.append((rest or "ctrlc", time.time() - t0))
        elif k == "sleep":
            pump(float(rest))
        elif k == "mark":
            markpos[0] = len(buf)
            events.append((rest, time.time() - t0))
        elif k == "expect":
            name, secs, needle = rest.split(" ", 2)
            end = time.time() + float(secs)
            got = -1.0
            while time.time() < end:
                if bytes(buf).find(needle.encode(), markpos[0]) >= 0:
                    got = time.time() - t0
                    break
                pump(0.05)
            events.append((name, got))
        elif k == "alive":
            wp, st = os.waitpid(pid, os.WNOHANG)
            if wp:
                status[0] = st
            events.append((rest or "alive", 0.0 if wp else 1.0))
        elif k == "eof":
            send(b"\x04")
    # wait for the exit
    end = time.time() + 15
    while status[0] is None and time.time() < end:
        wp, st = os.waitpid(pid, os.WNOHANG)
        if wp:
            status[0] = st
            break
        pump(0.1)
    if status[0] is None:
        os.kill(pid, signal.SIGKILL)
        _, st = os.waitpid(pid, 0)
        status[0] = st
        rc = 124
    else:
        st = status[0]
        rc = os.WEXITSTATUS(st) if os.WIFEXITED(st) else 128 + os.WTERMSIG(st)
    events.append(("exit", time.time() - t0))
    with open(os.path.join(out, "all"), "wb") as f:
        f.write(bytes(buf))
    with open(os.path.join(out, "events"), "w") as f:
        for n, t in events:
            f.write("%s %.3f\n" % (n, t))
    with open(os.path.join(out, "rc"), "w") as f:
        f.write("%d\n" % rc)


if __name__ == "__main__":
    main()
