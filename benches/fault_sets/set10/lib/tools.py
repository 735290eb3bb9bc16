#!/usr/bin/env python3
"""Small checks used by the scenario scripts.  Each prints its answer on stdout.

  kills FILE...            pid arguments of every `kill` command shown (one a line)
  count STR FILE...        case-insensitive count of STR in the files together
  countre REGEX FILE...    case-insensitive count of REGEX matches
  bytecount HEX FILE...    count of a raw byte sequence (hex) in the files
  ctlbytes FILE...         count of ESC, BEL, CSI/OSC C1 (U+0080..U+009F) bytes
  jsonl FILE               "ok" when every line is JSON and the file ends in \n
                           (an empty file is ok); else each problem, exit 1
  linejson FILE STR        "ok" when at least one line holds STR and every such
                           line parses as JSON; else the problem, exit 1
  added BASE NEW           lines of NEW that BASE lacks (multiset, spaces folded)
  pidlines PID[,PID] FILE  sorted lines (spaces folded) holding one of the pids
  rows PID FILE            table rows (| a | b |) whose first cell is PID: the cells
  nums FILE...             every decimal figure (N.N), in order
  firstbyte DIR            seconds from the start of a driven session to its first output
  llm LOG withph           number of responses made from a template holding a placeholder
  jsonkey KEY FILE         every value stored under KEY anywhere in the JSON
  peaks FILE...            every "peak N.NN GB" figure, in order
  gbfigs FILE...           every "N.NN GB"/"N GB" figure, in order
  budgets FILE...          every "N.NN GB budget" figure, in order
  order FILE STR...        the STRs in the order of their first occurrence
  llm LOG posts            number of phrasing (POST) requests
  llm LOG reqs STR         number of requests whose body or headers hold STR
  llm LOG offered STR      number of responses that carried STR (content or sent)
  llm LOG auth STR         number of requests whose Authorization header holds STR
  llm LOG timing           per POST: id t_req t_end seconds last_sent-rel how bytes bodylen
  llm LOG paths            method and path of each request
  turnlat DIR K STR [LOG]  for turn K of a driven session: seconds from sending it
                           to the arrival of STR after it (-1: never), and how many
                           phrasing requests LOG saw in that time: "LAT POSTS"
"""
import os
import json
import re
import sys


def read(files):
    out = b""
    for f in files:
        try:
            with open(f, "rb") as fh:
                out += fh.read() + b"\n"
        except OSError:
            pass
    return out


def text(files):
    return read(files).decode("utf-8", "replace")


KILL = re.compile(r"(?<![\w-])kill((?:[ \t]+[^\s`;|&()]+)+)")


def kill_pids(t):
    pids = []
    for m in KILL.finditer(t):
        args = [a.strip("`'\",.:*") for a in m.group(1).split()]
        dd = False
        sig = False
        here = []
        i = 0
        while i < len(args):
            a = args[i]
            if not dd and a == "--":
                dd = True
            elif not dd and a in ("-s", "-n"):
                i += 1
                sig = True
            elif not dd and not sig and not here and re.fullmatch(r"-[A-Za-z][A-Za-z0-9+]*|-\d+", a):
                sig = True  # the first dash argument is the signal, as the shell reads it
            elif re.fullmatch(r"-?\d+", a):
                here.append(int(a))
            else:
                break
            i += 1
        pids += here
    return pids


def norm(l):
    return " ".join(l.split())


def walk(o, key, out):
    if isinstance(o, dict):
        for k, v in o.items():
            if k == key:
                out.append(v)
            walk(v, key, out)
    elif isinstance(o, list):
        for v in o:
            walk(v, key, out)


def llm_records(path):
    recs = []
    try:
        with open(path) as f:
            for l in f:
                try:
                    recs.append(json.loads(l))
                except ValueError:
                    pass
    except OSError:
        pass
    return recs


def main():
    a = sys.argv[1:]
    cmd = a[0]
    if cmd == "kills":
        for p in kill_pids(text(a[1:])):
            print(p)
    elif cmd == "count":
        print(text(a[2:]).lower().count(a[1].lower()))
    elif cmd == "countre":
        print(len(re.findall(a[1], text(a[2:]), re.I)))
    elif cmd == "bytecount":
        print(read(a[2:]).count(bytes.fromhex(a[1])))
    elif cmd == "ctlbytes":
        t = read(a[1:]).decode("utf-8", "surrogateescape")
        n = sum(1 for ch in t if ch in "\x1b\x07" or "\x80" <= ch <= "\x9f" or ch == "\udc9b")
        print(n)
    elif cmd == "jsonl":
        try:
            b = open(a[1], "rb").read()
        except OSError as e:
            print("unreadable: %s" % e)
            sys.exit(1)
        probs = []
        if b and not b.endswith(b"\n"):
            probs.append("does not end with a newline (last %d bytes: %r)" % (min(60, len(b)), b[-60:]))
        for i, l in enumerate(b.split(b"\n")):
            if not l.strip():
                continue
            try:
                json.loads(l.decode("utf-8"))
            except (ValueError, UnicodeDecodeError):
                probs.append("line %d is not JSON: %r" % (i + 1, l[:80]))
        if probs:
            print("; ".join(probs[:4]))
            sys.exit(1)
        print("ok")
    elif cmd == "linejson":
        try:
            b = open(a[1], "rb").read().decode("utf-8", "replace")
        except OSError as e:
            print("unreadable: %s" % e)
            sys.exit(1)
        hits = [l for l in b.split("\n") if a[2] in l]
        if not hits:
            print("no line holds %r" % a[2])
            sys.exit(1)
        for l in hits:
            try:
                json.loads(l)
            except ValueError:
                print("a line holding %r is not JSON: %r" % (a[2], l[:100]))
                sys.exit(1)
        print("ok")
    elif cmd == "added":
        base = [norm(l) for l in text([a[1]]).split("\n") if l.strip()]
        new = [norm(l) for l in text([a[2]]).split("\n") if l.strip()]
        from collections import Counter
        c = Counter(base)
        for l in new:
            if c[l] > 0:
                c[l] -= 1
            else:
                print(l)
    elif cmd == "pidlines":
        pids = a[1].split(",")
        rx = re.compile(r"(?<!\d)(%s)(?!\d)" % "|".join(map(re.escape, pids)))
        ls = sorted(norm(l) for l in text([a[2]]).split("\n") if rx.search(l))
        for l in ls:
            print(l)
    elif cmd == "rows":
        pid = a[1]
        for l in text([a[2]]).split("\n"):
            s = l.strip()
            if s.startswith("|") and s.count("|") >= 3:
                cells = [c.strip() for c in s.strip("|").split("|")]
                if cells and re.fullmatch(r"\**`?%s`?\**" % re.escape(pid), cells[0]):
                    print(" || ".join(cells))
    elif cmd == "jsonkey":
        try:
            o = json.loads(open(a[2]).read())
        except (OSError, ValueError) as e:
            print("NOJSON %s" % e)
            sys.exit(1)
        out = []
        walk(o, a[1], out)
        for v in out:
            print(json.dumps(v))
    elif cmd == "peaks":
        for m in re.finditer(r"peak\s+(\d[\d,]*\.\d+)\s*GB", text(a[1:]), re.I):
            print(m.group(1))
    elif cmd == "budgets":
        for m in re.finditer(r"(\d[\d,]*(?:\.\d+)?)\s*GB\s+budget", text(a[1:]), re.I):
            print(m.group(1).replace(",", ""))
    elif cmd == "gbfigs":
        for m in re.finditer(r"(?<![\w.])(\d[\d,]*(?:\.\d+)?)\s*GB\b", text(a[1:])):
            print(m.group(1).replace(",", ""))
    elif cmd == "nums":
        for m in re.finditer(r"(?<![\w.])(\d+\.\d+)(?![\w.]*\d)", text(a[1:])):
            print(m.group(1))
    elif cmd == "firstbyte":
        try:
            l = open(os.path.join(a[1], "chunks")).readline().split()
            print(l[0] if l else "-1")
        except OSError:
            print("-1")
    elif cmd == "order":
        t = text([a[1]])
        pos = [(t.find(s), s) for s in a[2:] if t.find(s) >= 0]
        print(" ".join(s for _, s in sorted(pos)))
    elif cmd == "llm":
        recs = llm_records(a[1])
        sub = a[2]
        if sub == "posts":
            print(sum(1 for r in recs if r.get("ev") == "req" and r.get("method") == "POST"))
        elif sub == "reqs":
            s = a[3]
            print(sum(1 for r in recs if r.get("ev") == "req" and
                      (s in r.get("body", "") or s in json.dumps(r.get("headers", {})))))
        elif sub == "offered":
            s = a[3].lower()
            ids = set()
            for r in recs:
                if r.get("ev") in ("resp", "sent") and s in (r.get("content") or r.get("text") or "").lower():
                    ids.add(r.get("id"))
            print(len(ids))
        elif sub == "auth":
            s = a[3]
            print(sum(1 for r in recs if r.get("ev") == "req" and s in r.get("headers", {}).get("authorization", "")))
        elif sub == "timing":
            reqs = {r["id"]: r for r in recs if r.get("ev") == "req" and r.get("method") == "POST"}
            ends = {r["id"]: r for r in recs if r.get("ev") == "end"}
            for i, r in sorted(reqs.items()):
                e = ends.get(i)
                if e is None:
                    print("%d %.3f -1 -1 -1 open 0 %d" % (i, r["t"], len(r.get("body", ""))))
                    continue
                ls = e.get("last_sent")
                print("%d %.3f %.3f %.3f %.3f %s %d %d" % (
                    i, r["t"], e["t"], e["t"] - r["t"], (e["t"] - ls) if ls else -1,
                    e.get("how"), e.get("bytes", 0), len(r.get("body", ""))))
        elif sub == "withph":
            print(sum(1 for r in recs if r.get("ev") == "resp" and "{" in (r.get("template") or "")))
        elif sub == "paths":
            for r in recs:
                if r.get("ev") == "req":
                    print(r.get("method"), r.get("path"))
    elif cmd == "turnlat":
        try:
            turnlat(a)
        except (OSError, ValueError, IndexError):
            print("-1 0")
    else:
        raise SystemExit("tools.py: unknown command " + cmd)


def turnlat(a):
    if True:
        d, k, needle = a[1], int(a[2]), a[3].encode()
        logp = a[4] if len(a) > 4 else None
        off = 0
        for i in range(k):
            try:
                off += os.path.getsize(os.path.join(d, "s%d" % i))
            except OSError:
                pass
        allb = open(os.path.join(d, "all"), "rb").read()
        tsend = None
        for l in open(os.path.join(d, "times")):
            f = l.split()
            if int(f[0]) == k:
                tsend = float(f[1])
        pos = allb.find(needle, off)
        if tsend is None or pos < 0:
            print("-1 0")
            return
        endb = pos + len(needle)
        tarr = None
        for l in open(os.path.join(d, "chunks")):
            t, e = l.split()
            if int(e) >= endb:
                tarr = float(t)
                break
        if tarr is None:
            print("-1 0")
            return
        posts = 0
        if logp:
            t0 = float(open(os.path.join(d, "t0")).read())
            for r in llm_records(logp):
                if r.get("ev") == "req" and r.get("method") == "POST":
                    rt = r["t"] - t0
                    if tsend - 0.5 <= rt <= tarr:
                        posts += 1
        print("%.3f %d" % (tarr - tsend, posts))


if __name__ == "__main__":
    main()
