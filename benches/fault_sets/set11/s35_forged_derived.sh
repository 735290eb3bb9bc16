#!/usr/bin/env bash
# Family: forged transcript records. After a plan, every derived figure on disk (JSON floats, and
# "N.NN GB" inside stored text) is replaced with 184467440737095516.15. On replay what is derived is
# recomputed, never trusted from disk: the restart shows the same peak as before and never the forgery.
source "$(dirname "$0")/_lib.sh"; setup_env
chat outA "$W/d" "$T0" "$(steps turn "$RUN_TXT" turn "will it fit?")"
crash_chat outA && fail "A: crash (rc $(cat outA/rc))"
peakA="$(grep -oE 'peak [0-9]+\.[0-9]{2} GB' outA/all.txt | head -1)"
[ -n "$peakA" ] || fail "control: no 'peak N.NN GB' in the first session"
"$PY" - "$W/d/transcript.jsonl" "$RUN_TXT" <<'PY'
import json, re, sys
p, run = sys.argv[1], sys.argv[2]
out = []
for line in open(p, encoding='utf-8'):
    line = line.rstrip('\n')
    if not line:
        continue
    try:
        o = json.loads(line)
    except Exception:
        out.append(line); continue
    def walk(x):
        if isinstance(x, float):
            return '__FORGED__'
        if isinstance(x, str):
            if x == run:
                return x
            return re.sub(r'\d+\.\d\d GB', '184467440737095516.15 GB', x)
        if isinstance(x, list):
            return [walk(v) for v in x]
        if isinstance(x, dict):
            return {k: walk(v) for k, v in x.items()}
        return x
    out.append(json.dumps(walk(o), ensure_ascii=False).replace('"__FORGED__"', '184467440737095516.15'))
open(p, 'w', encoding='utf-8').write('\n'.join(out) + '\n')
PY
grep -q '184467440737095516' "$W/d/transcript.jsonl" || fail "control: nothing derived was found on disk to forge"
chat outB "$W/d" "$(at 600)" "$(steps turn "will it fit?" turn "/status")"
crash_chat outB && fail "B: crash (rc $(cat outB/rc))"
grep -q '184467440737095516' outB/all.txt && fail "a forged figure from disk was shown"
grep -qF "$peakA" outB/all.txt || fail "the restart does not show the recomputed '$peakA'"
pass
