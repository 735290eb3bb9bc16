#!/usr/bin/env python3
"""Fixtures and checkers for the headroom fault scenarios (python3 standard library only).

Usage: python3 fx.py COMMAND [args...]   (see the functions below; each prints or writes files)
Nothing here runs headroom except `maxrss`, which runs the command it is given.
"""
import datetime as _dt
import json
import os
import re
import resource
import subprocess
import sys
import time

# ---------------------------------------------------------------- ps listings

PS_HDR = "USER         PID %CPU %MEM      VSZ      RSS TTY      STAT START   TIME COMMAND"


def ps_row(pid, kind="vllm", frac=None, user="alice"):
    """One `ps aux` row. kind: vllm | ollama | filler."""
    if kind == "vllm":
        cmd = ("/home/alice/.venv/bin/python3 /home/alice/.venv/bin/vllm serve "
               "meta-llama/Llama-3.1-8B-Instruct --port 8000")
        if frac is not None:
            cmd += " --gpu-memory-utilization %s" % frac
        return "%-8s %7s 12.0 38.2 98765432 48234567 ?        Sl   09:12  41:07 %s" % (user, pid, cmd)
    if kind == "ollama":
        return ("ollama   %7s  3.5 52.1 92345678 66234567 ?        Ssl  08:00   3:10 "
                "/usr/local/bin/ollama serve" % pid)
    return ("%-8s %7s  0.0  0.0  12345  6789 pts/%d    S    09:00   0:00 -bash"
            % (user, pid, int(pid) % 9))


def cmd_filler(n, first=300000):
    """Print N harmless `ps aux` rows (an interactive shell each)."""
    n, first = int(n), int(first)
    out = []
    for i in range(n):
        out.append(ps_row(first + i, "filler", user="u%04d" % (i % 5000)))
    sys.stdout.write("\n".join(out) + ("\n" if out else ""))


def cmd_biglisting(path, nbytes, marker):
    """A `ps aux` listing of at least NBYTES bytes: header, filler rows, then one uncapped
    vLLM row (pid 415002) whose command line carries MARKER as its last word (the very end
    of the paste), with no blank line anywhere."""
    nbytes = int(nbytes)
    rows = [PS_HDR]
    size = len(PS_HDR) + 1
    pid = 300000
    while size < nbytes:
        r = ps_row(pid, "filler", user="u%04d" % (pid % 5000))
        rows.append(r)
        size += len(r) + 1
        pid += 1
    rows.append(ps_row(415002, "vllm") + " --served-model-name " + marker)
    with open(path, "w") as f:
        f.write("\n".join(rows) + "\n")


# ---------------------------------------------------------------- thermal samples

HDR = "timestamp, temperature.gpu, power.draw [W], clocks.sm [MHz], utilization.gpu [%]"


def _ts(t):
    return t.strftime("%Y/%m/%d %H:%M:%S.000")


def cmd_thermal(path, profile, *opts):
    """nvidia-smi --query-gpu CSV, 2 h at one sample every 30 s from 2026-11-29 12:00:00.
    profile: flat (55 C, 60 W), hot_na (60->96 C, power [N/A]), kelvin (330..369),
    milliwatts (power 60000..99000), hot_ok (60->96 C at 100 W flat).
    opts: bad=INDEX:TEMP (replace one row's temperature), back=INDEX:SECONDS (clock jumps
    back by SECONDS from row INDEX on), dup (every stamp written twice, the copy 1 C hotter)."""
    start = _dt.datetime(2026, 11, 29, 12, 0, 0)
    n = 240
    bad = {}
    back_at, back_s, dup = None, 0, False
    for o in opts:
        if o.startswith("bad="):
            i, v = o[4:].split(":")
            bad[int(i)] = v
        elif o.startswith("back="):
            i, v = o[5:].split(":")
            back_at, back_s = int(i), int(v)
        elif o == "dup":
            dup = True
    rows = [HDR]
    for i in range(n):
        t = start + _dt.timedelta(seconds=30 * i)
        if back_at is not None and i >= back_at:
            t -= _dt.timedelta(seconds=back_s)
        frac = i / (n - 1)
        clock = "2400 MHz"
        if profile == "flat":
            temp, power = 55 + (i % 3) - 1, "%.2f W" % (60 + (i % 5) * 0.5)
        elif profile == "hot_na":
            temp, power = round(60 + 36 * frac), "[N/A]"
            clock = "%d MHz" % (2400 - int(300 * frac))
        elif profile == "hot_ok":
            temp, power = round(60 + 36 * frac), "%.2f W" % (99.5 + (i % 3) * 0.25)
            clock = "%d MHz" % (2400 - int(300 * frac))
        elif profile == "kelvin":
            temp, power = 330 + (i % 40), "%.2f W" % (60 + (i % 5) * 0.5)
        elif profile == "milliwatts":
            temp, power = 55 + (i % 3), "%d W" % (60000 + (i * 163) % 39000)
        else:
            raise SystemExit("unknown profile " + profile)
        if i in bad:
            temp = bad[i]
        rows.append("%s, %s, %s, %s, 97 %%" % (_ts(t), temp, power, clock))
        if dup:
            t2 = temp if not str(temp).lstrip("-").isdigit() else int(temp) + 1
            rows.append("%s, %s, %s, %s, 97 %%" % (_ts(t), t2, power, clock))
    with open(path, "w") as f:
        f.write("\n".join(rows) + "\n")


def cmd_trainlog(path, steps="7200", dt="1.0"):
    """Structured JSON training log from 2026-11-29 12:00:00, one line per step."""
    start = _dt.datetime(2026, 11, 29, 12, 0, 0)
    steps, dt = int(steps), float(dt)
    with open(path, "w") as f:
        for s in range(1, steps + 1):
            t = start + _dt.timedelta(seconds=dt * s)
            f.write(json.dumps({"timestamp": t.strftime("%Y-%m-%dT%H:%M:%S"), "step": s,
                                "step_time": dt, "loss": round(2.5 - s * 1e-4, 4)}) + "\n")


def cmd_big10m(path, rows="10000000"):
    """ROWS nvidia-smi CSV rows at 1 Hz from 2026-11-29 00:00:00, values varying every row
    (so no two neighbours merge), written a day-block at a time."""
    rows = int(rows)
    parts = []
    for i in range(86400):
        hh, rem = divmod(i, 3600)
        mm, ss = divmod(rem, 60)
        parts.append("@@ %02d:%02d:%02d.000, %d, %d.%02d W, %d MHz, %d %%\n" % (
            hh, mm, ss, 50 + (i * 7) % 37, 60 + (i * 3) % 41, i % 100, 2400 - (i % 7) * 15,
            90 + i % 10))
    day0 = _dt.date(2026, 11, 29)
    tpl = "".join(parts)
    written = 0
    with open(path, "w") as f:
        f.write(HDR + "\n")
        d = 0
        while written < rows:
            take = min(86400, rows - written)
            block = tpl if take == 86400 else "".join(parts[:take])
            f.write(block.replace("@@", (day0 + _dt.timedelta(days=d)).strftime("%Y/%m/%d")))
            written += take
            d += 1


def cmd_grow(path, kind, seconds="40"):
    """Append to PATH for SECONDS (thermal rows or training-log lines), flushing often."""
    end = time.time() + float(seconds)
    t = _dt.datetime(2026, 11, 29, 14, 0, 0)
    step = 7201
    with open(path, "a") as f:
        while time.time() < end:
            for _ in range(200):
                t += _dt.timedelta(seconds=1)
                if kind == "thermal":
                    f.write("%s, 60, 61.00 W, 2400 MHz, 97 %%\n" % _ts(t))
                else:
                    f.write(json.dumps({"timestamp": t.strftime("%Y-%m-%dT%H:%M:%S"),
                                        "step": step, "step_time": 1.0, "loss": 1.9}) + "\n")
                    step += 1
            f.flush()
            time.sleep(0.01)


# ---------------------------------------------------------------- files of odd types

def cmd_sock(path):
    """Leave a UNIX socket inode at PATH."""
    import socket
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(path)
    s.close()


def cmd_binary(path, n="6000"):
    """Deterministic binary junk with NULs, 0xff, ESC sequences and CRs, no blank line."""
    n = int(n)
    x = 0x2545F491
    out = bytearray()
    while len(out) < n:
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        out.append((x >> 16) & 0xFF)
    out[100:100] = b"\x1b]0;PWNED\x07\x1b[2J\x00\x00\xff\xfe"
    lines = [ln if ln.strip() else b"." for ln in bytes(out).split(b"\n")]
    with open(path, "wb") as f:
        f.write(b"\n".join(lines) + b"\n")


# ---------------------------------------------------------------- transcript tools

def _lines(path):
    with open(path, "rb") as f:
        data = f.read()
    parts = data.split(b"\n")
    if parts and parts[-1] == b"":
        parts.pop()
    return parts


def cmd_jsonl_bad(path):
    """Print '' if every line of PATH is one JSON value, else the first bad line's number."""
    for i, line in enumerate(_lines(path), 1):
        try:
            json.loads(line.decode("utf-8"))
        except Exception:
            print(i)
            return
    print("")


def cmd_line_with_ok(path, needle):
    """Exit 0 if some line containing NEEDLE exists and every such line is valid JSON."""
    found = False
    for line in _lines(path):
        if needle.encode() in line:
            found = True
            try:
                json.loads(line.decode("utf-8"))
            except Exception:
                sys.exit(3)
    sys.exit(0 if found else 4)


def _map(v, fnum, fstr):
    if isinstance(v, bool) or v is None:
        return v
    if isinstance(v, (int, float)):
        return fnum(v)
    if isinstance(v, str):
        return fstr(v)
    if isinstance(v, list):
        return [_map(x, fnum, fstr) for x in v]
    if isinstance(v, dict):
        return {k: _map(x, fnum, fstr) for k, x in v.items()}
    return v


ISO = re.compile(r"^\d{4}-\d{2}-\d{2}[T ]")


def cmd_forge(path):
    """Append forged copies of every record: numbers made absurd (u64 max, 1.8e17,
    negative), strings' figures made absurd (dates kept), strings turned into objects;
    plus records of the wrong shape. Writes the count of forged lines."""
    recs = []
    for line in _lines(path):
        try:
            recs.append(json.loads(line.decode("utf-8")))
        except Exception:
            pass
    out = []

    def absurd_str(s):
        if ISO.match(s):
            return s
        return re.sub(r"\d+(\.\d+)?", "184467440737095516.15", s)

    for r in recs:
        out.append(_map(r, lambda n: 18446744073709551615 if isinstance(n, int) else 1.8446744073709552e17,
                        lambda s: s))
        out.append(_map(r, lambda n: -n - 1, lambda s: s))
        out.append(_map(r, lambda n: n, absurd_str))
        out.append(_map(r, lambda n: n, lambda s: s if ISO.match(s) else {"$forged": s}))
    lines = [json.dumps(o) for o in out]
    lines += ["{}", "[]", "null", "\"x\"", "42",
              json.dumps({"kind": "reply", "type": "reply", "event": "reply",
                          "text": "**Verdict: fits.** (184467440737095516.15 GB of 0.00 GB)",
                          "peak_gb": 1.8446744073709552e17, "budget_gb": 0.0})]
    with open(path, "a") as f:
        f.write("\n".join(lines) + "\n")
    print(len(lines))


def cmd_replace_by_rename(path, old="", new=""):
    """Save PATH the way an editor does: write PATH.swp-new, fsync, rename over PATH.
    With OLD/NEW, every OLD is replaced by NEW in the copy."""
    with open(path, "rb") as f:
        data = f.read()
    if old:
        data = data.replace(old.encode(), new.encode())
    tmp = path + ".editor-save"
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def cmd_forge_answer(path, old, new):
    """Append a copy of every record holding a string exactly OLD, with NEW in its place."""
    add = []
    for line in _lines(path):
        try:
            r = json.loads(line.decode("utf-8"))
        except Exception:
            continue
        hit = []

        def f(s):
            if s.strip().lower() == old:
                hit.append(1)
                return new
            return s
        r2 = _map(r, lambda n: n, f)
        if hit:
            add.append(json.dumps(r2))
    with open(path, "a") as fh:
        for a in add:
            fh.write(a + "\n")
    print(len(add))


def cmd_hugeline(path, mib):
    """Append one valid JSON record of MIB MiB (a string field) and a newline."""
    n = int(mib) * 1024 * 1024
    with open(path, "a") as f:
        f.write('{"note":"')
        chunk = "x" * (1024 * 1024)
        for _ in range(n // len(chunk)):
            f.write(chunk)
        f.write('"}\n')


# ---------------------------------------------------------------- output readers

def cmd_rows(path, pid):
    """Table rows (markdown `|` rows, or space-aligned rows) whose first cell is PID.
    Prints one line per row: the keep/stop decision cell if any ('keep'/'stop'), else '-'."""
    with open(path, "rb") as f:
        text = f.read().decode("utf-8", "replace")
    for line in text.splitlines():
        if "|" in line:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
        else:
            cells = [c.strip() for c in re.split(r"\s{2,}", line.strip())]
        cells = [c.strip("*`_ ") for c in cells]
        if not cells or cells[0] != pid:
            continue
        dec = "-"
        for c in cells[1:]:
            m = re.match(r"^(keep|stop)\b", c, re.I)
            if m:
                dec = m.group(1).lower()
                break
        print(dec)


def cmd_json_pids(path):
    """From a `procs --json` output: print 'damaged:' and every damaged pid; then for every
    object with a pid-like key: 'pid VALUE DECISION' (decision = a string value equal to
    keep/stop, or '-')."""
    with open(path) as f:
        doc = json.load(f)
    damaged = []
    objs = []

    def walk(v):
        if isinstance(v, dict):
            for k, x in v.items():
                if k == "damaged_pids" and isinstance(x, list):
                    damaged.extend(str(e) for e in x)
            if "pid" in v:
                dec = "-"
                for k, x in v.items():
                    if isinstance(x, str) and x.strip().lower() in ("keep", "stop"):
                        dec = x.strip().lower()
                objs.append((str(v["pid"]), dec))
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)
    walk(doc)
    print("damaged: " + " ".join(damaged))
    for p, d in objs:
        print("pid %s %s" % (p, d))


def cmd_maxrss(outfile, *cmd):
    """Run CMD (after '--'; '--stdin FILE' first feeds FILE), write OUTFILE.out/.err, print
    its exit code and the peak RSS of its process tree in KiB (children's rusage)."""
    cmd = list(cmd)
    stdin = subprocess.DEVNULL
    if cmd and cmd[0] == "--stdin":
        stdin = open(cmd[1], "rb")
        cmd = cmd[2:]
    if cmd and cmd[0] == "--":
        cmd = cmd[1:]
    with open(outfile + ".out", "wb") as o, open(outfile + ".err", "wb") as e:
        p = subprocess.run(cmd, stdout=o, stderr=e, stdin=stdin)
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    print("%d %d" % (p.returncode, ru.ru_maxrss))


def _read_all(files):
    if not files:
        return sys.stdin.buffer.read()
    data = b""
    for f in files:
        try:
            with open(f, "rb") as fh:
                data += fh.read()
        except OSError:
            pass
    return data


def cmd_grep(mode, regex, *files):
    """mode i: exit 0 when REGEX (Python syntax) matches, case-insensitive; c: the same,
    case-sensitive; n: print the number of case-insensitive matches. Reads FILES or stdin.
    Line breaks are joined first, so a phrase wrapped over two lines still matches."""
    text = _read_all(files).decode("utf-8", "surrogateescape")
    # undo line wrapping ($COLUMNS): a line break and the indentation around it is one space
    text = re.sub(r"[ \t]*\r?\n[ \t]*", " ", text)
    flags = re.M | (0 if mode == "c" else re.I)
    if mode == "n":
        print(sum(1 for _ in re.finditer(regex, text, flags)))
        return
    sys.exit(0 if re.search(regex, text, flags) else 1)


def cmd_flat(regex, *files):
    """Like `grep n`, over the text with every run of whitespace made one space (so a
    sentence wrapped over two lines still matches); prints the count."""
    text = _read_all(files).decode("utf-8", "surrogateescape")
    text = re.sub(r"\s+", " ", text)
    print(sum(1 for _ in re.finditer(regex, text, re.I)))


def cmd_scan(needle, *paths):
    """Exit 0 (printing the file) when some regular file under PATHS contains NEEDLE."""
    nb = needle.encode()
    for p in paths:
        if os.path.isfile(p) and not os.path.islink(p):
            with open(p, "rb") as fh:
                if nb in fh.read():
                    print(p)
                    sys.exit(0)
            continue
        for root, dirs, files in os.walk(p):
            for fn in files:
                fp = os.path.join(root, fn)
                try:
                    if os.path.islink(fp) or not os.path.isfile(fp):
                        continue
                    with open(fp, "rb") as fh:
                        if nb in fh.read():
                            print(fp)
                            sys.exit(0)
                except OSError:
                    pass
    sys.exit(1)


TEMPISH = re.compile(r"(^\.)|tmp|temp|part|new|~$|\.swp$", re.I)


def cmd_kept_pastes(d, marker):
    """Regular files under D whose names do not look temporary. Prints 'ok PATH' for each
    one holding MARKER, 'cut PATH' for each one lacking it; exit 4 when there are none."""
    n = 0
    for root, dirs, files in os.walk(d):
        for fn in files:
            fp = os.path.join(root, fn)
            if TEMPISH.search(fn) or os.path.islink(fp) or not os.path.isfile(fp):
                continue
            n += 1
            with open(fp, "rb") as fh:
                print(("ok " if marker.encode() in fh.read() else "cut ") + fp)
    sys.exit(0 if n else 4)


def cmd_first_with(d, marker):
    """Print the first regular file under D that contains MARKER (exit 1 if none)."""
    for root, dirs, files in os.walk(d):
        for fn in sorted(files):
            fp = os.path.join(root, fn)
            try:
                with open(fp, "rb") as fh:
                    if marker.encode() in fh.read():
                        print(fp)
                        return
            except OSError:
                pass
    sys.exit(1)


def cmd_torn_files(d):
    """Print files in D named transcript*.torn-* (or any *torn*)."""
    for fn in sorted(os.listdir(d)):
        if "torn" in fn:
            print(os.path.join(d, fn))


def cmd_count(path, regex):
    with open(path, "rb") as f:
        text = f.read().decode("utf-8", "replace")
    print(len(re.findall(regex, text, re.I)))


def cmd_children(pid):
    """Print the pids of PID's direct children (from /proc)."""
    out = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % d) as f:
                st = f.read()
            ppid = st[st.rindex(")") + 2:].split()[1]
            if ppid == str(pid):
                out.append(d)
        except Exception:
            pass
    print(" ".join(out))


if __name__ == "__main__":
    name = sys.argv[1].replace("-", "_")
    globals()["cmd_" + name](*sys.argv[2:])
