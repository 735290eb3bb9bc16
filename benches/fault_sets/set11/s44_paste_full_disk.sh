#!/usr/bin/env bash
# Family: full disk and kept pastes. A 200 KiB `ps aux` is pasted when the tmpfs has room for ~40 KiB. The
# reply (the pool, pid 41500) is still shown with "This turn is not saved"; and no cut-short copy of the
# paste is left under pastes/ to be reused (pastes are written to a temporary name, synced and renamed).
source "$(dirname "$0")/_lib.sh"; setup_env
mk_tmpfs "$W/m" 1M; newdir "$W/m/d"
"$PY" "$H/_gen.py" bigps "$W/big.txt" rows=1900
ST="$(steps turn "$RUN_TXT" sh "dd if=/dev/zero of=$W/m/.filler bs=4096 count=\$(( (\$(df -k --output=avail $W/m | tail -1) - 40) / 4 )) 2>/dev/null; true" file "$W/big.txt" turn "$Q_GMU")"
chat out "$W/m/d" "$T0" "$ST"
crash_chat out && fail "crash (rc $(cat out/rc))"
around out 2 | grep -q '41500' || fail "the pool reply (pid 41500) was not shown on the full disk"
around out 2 | grep -qi 'not saved' || fail "[W] no 'This turn is not saved' for the paste that could not be kept"
grep -q '121\.69' out/all.txt || fail "the session did not go on"
rm -f "$W/m/.filler"
"$PY" - "$W/big.txt" "$W/m/d/pastes" <<'PY' || fail "a cut-short copy of the paste is kept under pastes/"
import os, sys
big = open(sys.argv[1], 'rb').read()
d = sys.argv[2]
if not os.path.isdir(d):
    sys.exit(0)
for n in os.listdir(d):
    p = os.path.join(d, n)
    if not os.path.isfile(p) or n.startswith('.') or 'tmp' in n.lower():
        continue
    b = open(p, 'rb').read()
    # a clearly cut-short copy: much smaller than the paste, and its start is the paste's start
    if len(b) < len(big) - 1024 and len(b) > 0 and big[:min(len(b), 4096)] == b[:4096]:
        print(n, len(b), file=sys.stderr); sys.exit(1)
PY
"$PY" "$H/_hr.py" jsonl_ok "$W/m/d/transcript.jsonl" >/dev/null || fail "transcript ends inside a record"
pass
