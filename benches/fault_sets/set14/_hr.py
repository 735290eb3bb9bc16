#!/usr/bin/env python3
"""Small helpers for set14 checks (python3 stdlib only)."""
import json, re, sys

def kill_pids(text):
    """Every pid argument of a `kill` command in text (ints, negatives kept)."""
    pids = []
    for line in text.splitlines():
        for m in re.finditer(r'(?<![\w-])kill(?![\w-])', line):
            rest = line[m.end():]
            rest = re.split(r'[`;|&)\]"\'<>]', rest, maxsplit=1)[0]
            toks = rest.split()
            i = 0
            after_dd = False
            while i < len(toks):
                t = toks[i].rstrip('.,:')
                if after_dd:
                    if re.fullmatch(r'-?\d+', t):
                        pids.append(int(t)); i += 1; continue
                    break
                if t == '--':
                    after_dd = True; i += 1; continue
                if t in ('-s', '-n', '--signal'):
                    i += 2; continue
                if re.fullmatch(r'-\d+', t):
                    nxt = toks[i + 1].rstrip('.,:') if i + 1 < len(toks) else ''
                    if re.fullmatch(r'-?\d+|--', nxt):
                        i += 1; continue          # a signal number
                    pids.append(int(t)); i += 1; continue   # lone negative: a target
                if re.fullmatch(r'-[A-Za-z][A-Za-z0-9]*', t):
                    i += 1; continue              # -TERM, -KILL
                if re.fullmatch(r'\d+', t):
                    pids.append(int(t)); i += 1; continue
                break
    return pids

def read(p):
    with open(p, 'rb') as f:
        return f.read().decode('utf-8', 'replace')

def log_entries(p):
    out = []
    try:
        with open(p, 'r', encoding='utf-8', errors='replace') as f:
            for line in f:
                line = line.strip()
                if line:
                    try:
                        out.append(json.loads(line))
                    except Exception:
                        pass
    except FileNotFoundError:
        pass
    return out

PH = re.compile(r'\{[A-Za-z_][A-Za-z0-9_:.\-]*\}')

def norm(t):
    """lines joined: a line break plus the next line's indentation becomes one space"""
    return re.sub(r'[ \t]*\n[ \t]*', ' ', t)

PHRASE = re.compile(r'(chat/completions|/completions|/api/chat|/api/generate)$')

def main():
    cmd = sys.argv[1]
    if cmd == 'kills':
        pids = []
        for p in sys.argv[2:]:
            pids += kill_pids(read(p))
        print(' '.join(str(x) for x in pids))
    elif cmd == 'posts':
        n = sum(1 for e in log_entries(sys.argv[2])
                if e.get('method') == 'POST' and PHRASE.search(e.get('path', '').split('?')[0]))
        print(n)
    elif cmd == 'reqs':
        print(len(log_entries(sys.argv[2])))
    elif cmd == 'bodies':      # all request bodies + headers, raw, for grepping
        for e in log_entries(sys.argv[2]):
            sys.stdout.write(json.dumps(e.get('headers', {})) + '\n' + e.get('body', '') + '\n')
    elif cmd == 'figures':     # sorted multiset of "N.NN GB" figures
        t = read(sys.argv[2])
        figs = re.findall(r'\d[\d,]*\.\d+\s?GB\b', t)
        print('\n'.join(sorted(figs)))
    elif cmd == 'jsonl_ok':    # every line of a jsonl file is valid JSON and file ends with \n
        data = open(sys.argv[2], 'rb').read()
        if data and not data.endswith(b'\n'):
            print('no final newline'); sys.exit(1)
        for i, line in enumerate(data.split(b'\n')[:-1], 1):
            try:
                json.loads(line)
            except Exception as ex:
                print(f'line {i} not JSON: {line[:80]!r}'); sys.exit(1)
        print('ok')
    elif cmd == 'jsonl_has':   # a line that is valid JSON and contains the marker
        data = open(sys.argv[2], 'rb').read()
        mk = sys.argv[3].encode()
        for line in data.split(b'\n'):
            if mk in line:
                try:
                    json.loads(line); print('yes'); return
                except Exception:
                    pass
        print('no'); sys.exit(1)
    elif cmd == 'count':       # count FILE STRING [i]: occurrences in the text with wrapped lines joined
        t = norm(read(sys.argv[2])); needle = sys.argv[3]
        if len(sys.argv) > 4 and sys.argv[4] == 'i':
            t, needle = t.lower(), needle.lower()
        print(t.count(needle))
    elif cmd == 'rcount':      # rcount FILE REGEX: case-insensitive regex matches in the joined text
        print(len(re.findall(sys.argv[3], norm(read(sys.argv[2])), re.I)))
    elif cmd == 'norm':
        sys.stdout.write(norm(read(sys.argv[2])))
    elif cmd == 'novel':       # novel ANSLOG: text stretches of the model's answers that no template holds
        seen = set()
        for e in log_entries(sys.argv[2]):
            tpl = ' '.join(e.get('template', '').split())
            for part in PH.split(e.get('answer', '')):
                for frag in re.split(r'[\n]+', part):
                    f = ' '.join(frag.split()).strip(' .,;:')
                    if len(f) >= 10 and f not in tpl and f not in seen:
                        seen.add(f); print(f)
    elif cmd == 'cps':         # cps FILE: the distinct non-ASCII code points in the file, as U+XXXX
        t = read(sys.argv[2])
        print(' '.join(sorted({'U+%04X' % ord(c) for c in t if ord(c) > 127})))
    elif cmd == 'peaks':       # peaks FILE: the "peak N GB" figures, in order, one a line
        t = norm(read(sys.argv[2]))
        print('\n'.join(re.findall(r'peak (\d[\d,]*\.\d+) ?GB', t)))
    elif cmd == 'badctl':      # badctl FILE...: the terminal-control code points found (ESC, BEL, CR, BS, C1, bidi, tags)
        found = set()
        for p in sys.argv[2:]:
            d = open(p, 'rb').read()
            for b, n in ((b'\x1b', 'ESC'), (b'\x07', 'BEL'), (b'\r', 'CR'), (b'\x08', 'BS'), (b'\x00', 'NUL')):
                if b in d:
                    found.add(n)
            t = d.decode('utf-8', 'replace')
            for ch in t:
                o = ord(ch)
                if 0x80 <= o <= 0x9f:
                    found.add('C1')
                elif o in (0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f):
                    found.add('BIDI')
                elif 0xe0000 <= o <= 0xe007f:
                    found.add('TAG')
        print(' '.join(sorted(found)))
    elif cmd == 'digits':      # digits FILE: non-ASCII decimal digits / numerals found (Unicode Nd or No or Nl)
        import unicodedata
        t = read(sys.argv[2])
        print(' '.join(sorted({'U+%04X' % ord(c) for c in t if ord(c) > 127 and unicodedata.category(c) in ('Nd', 'No', 'Nl')})))
    elif cmd == 'sweep':       # sweep ROOT NEEDLE [EXCLUDE_SUBSTR...]: files under ROOT whose bytes hold NEEDLE
        import os
        root, needle, excl = sys.argv[2], sys.argv[3].encode(), sys.argv[4:]
        for dp, dn, fn in os.walk(root):
            for f in fn:
                p = os.path.join(dp, f)
                if any(x in p for x in excl) or not os.path.isfile(p) or os.path.islink(p):
                    continue
                try:
                    with open(p, 'rb') as fh:
                        if needle in fh.read():
                            print(p)
                except OSError:
                    pass
    elif cmd == 'headers':     # headers LOG NAME: every value of header NAME (case-insensitive) the server got
        for e in log_entries(sys.argv[2]):
            for k, v in e.get('headers', {}).items():
                if k.lower() == sys.argv[3].lower():
                    print(v)
    elif cmd == 'hdrnames':    # hdrnames LOG: every header name the server got
        names = set()
        for e in log_entries(sys.argv[2]):
            names.update(k.lower() for k in e.get('headers', {}))
        print(' '.join(sorted(names)))
    elif cmd == 'squashcount': # squashcount FILE STRING: occurrences with every whitespace character removed from both
        t = re.sub(r'\s+', '', read(sys.argv[2])); n = re.sub(r'\s+', '', sys.argv[3])
        print(t.count(n))
    elif cmd == 'peakset':     # peakset FILE...: the distinct "peak N GB" figures of the files, sorted, space separated
        out = set()
        for p in sys.argv[2:]:
            try:
                out.update(re.findall(r'peak (\d[\d,]*\.\d+) ?GB', norm(read(p))))
            except FileNotFoundError:
                pass
        print(' '.join(sorted(out)))
    elif cmd == 'lines_ok':    # lines_ok FILE [EXACT...]: every line is JSON or exactly one of EXACT; ends with \n
        data = open(sys.argv[2], 'rb').read()
        allowed = [a.encode() for a in sys.argv[3:]]
        lines = data.split(b'\n')
        if lines and lines[-1] == b'':
            lines = lines[:-1]
        elif lines and lines[-1] not in allowed:
            print('last line has no newline: %r' % lines[-1][:80]); sys.exit(1)
        for i, line in enumerate(lines, 1):
            if line in allowed:
                continue
            try:
                json.loads(line)
            except Exception:
                print('line %d not JSON: %r' % (i, line[:100])); sys.exit(1)
        print('ok %d' % len(lines))
    elif cmd == 'size':        # size FILE: bytes
        import os
        print(os.path.getsize(sys.argv[2]))
    else:
        sys.exit('unknown command ' + cmd)

if __name__ == '__main__':
    main()
