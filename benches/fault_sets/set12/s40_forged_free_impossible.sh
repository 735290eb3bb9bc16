#!/usr/bin/env bash
# Family 5. A full fine-tune of Llama 3.1 70B does not fit; the owner's `free -g` (115 available) is saved.
# Between sessions the saved reading is forged so that "available" is 999999 GiB while "total" stays 119 (an
# impossible reading: available > total). On replay every record is read like live input, so the forged
# reading is refused and the restart's "will it fit?" still says "does not fit" (never "fits"). Control:
# the forgery is on disk.
source "$(dirname "$0")/_lib.sh"; setup_env
RUNX="full fine-tune of Llama 3.1 70B, bf16, batch 1, packing 2048"
cat > free.txt <<'P'
               total        used        free      shared  buff/cache   available
Mem:             119           4          80           0          35         115
Swap:             15           0          15
P
chat outA "$W/d" "$T0" "$(steps turn "$RUNX" file "$W/free.txt")"
crash_chat outA && fail "A: crash (rc $(cat outA/rc))"
grep -qi 'does not fit' outA/all.txt || fail "control: the run does not say 'does not fit' in the first session"
"$PY" - "$W/d/transcript.jsonl" > forged.txt <<'PY'
import json, re, sys
p = sys.argv[1]; n = 0
rx = re.compile(r'(Mem:\s+119\s+4\s+80\s+0\s+35\s+)115\b')
def fix(o):
    global n
    if isinstance(o, str):
        s, k = rx.subn(r'\g<1>999999', o); n += k; return s
    if isinstance(o, list):
        return [fix(v) for v in o]
    if isinstance(o, dict):
        out = {}
        for k, v in o.items():
            if 'avail' in k.lower() and isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0:
                out[k] = v * 8695.6; n += 1
            else:
                out[k] = fix(v)
        return out
    return o
lines = open(p, 'rb').read().split(b'\n')
out = []
for l in lines:
    if not l.strip():
        out.append(l); continue
    try:
        out.append(json.dumps(fix(json.loads(l))).encode())
    except Exception:
        out.append(l)
open(p, 'wb').write(b'\n'.join(out))
print(n)
PY
[ "$(cat forged.txt)" -ge 1 ] || fail "control: no saved free reading was found to forge"
chat outB "$W/d" "$(at 600)" "$(steps turn "will it fit?")"
crash_chat outB && fail "restart: crash (rc $(cat outB/rc))"
v=$(grep -oiE 'does not fit|\bfits\b|\btight\b' outB/slice_1.txt | head -1 | tr 'A-Z' 'a-z')
[ -n "$v" ] || fail "the restart's 'will it fit?' gives no verdict word"
[ "$v" = "does not fit" ] || fail "with an impossible forged reading (available 999999 > total 119) the verdict became '$v'"
pass "forged $(cat forged.txt) value(s)"
