#!/usr/bin/env python3
"""Run a command and report its peak RSS (the largest of its descendants).

usage: measure.py OUTPREFIX (--gen ROWS | --file PATH | --none) -- CMD...
Writes OUTPREFIX.out / .err, and prints "RC MAXRSS_KIB SECONDS".  With --gen
the CSV rows are produced in this process (gen.py big) and written to the
command's stdin, so the generator's own memory is not counted.
"""
import os
import resource
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen  # noqa: E402


def main():
    a = sys.argv[1:]
    i = a.index("--")
    opts, cmd = a[:i], a[i + 1:]
    prefix = opts[0]
    src = opts[1]
    stdin = subprocess.DEVNULL
    if src == "--file":
        stdin = open(opts[2], "rb")
    elif src == "--gen":
        stdin = subprocess.PIPE
    t = time.time()
    with open(prefix + ".out", "wb") as o, open(prefix + ".err", "wb") as e:
        p = subprocess.Popen(cmd, stdin=stdin, stdout=o, stderr=e)
        if src == "--gen":
            rows = int(opts[2])

            def feed():
                try:
                    gen.big(["-", str(rows)], p.stdin)
                except (BrokenPipeError, OSError):
                    pass
                try:
                    p.stdin.close()
                except OSError:
                    pass
            th = threading.Thread(target=feed, daemon=True)
            th.start()
        rc = p.wait()
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    print("%d %d %.2f" % (rc, ru.ru_maxrss, time.time() - t))


if __name__ == "__main__":
    main()
