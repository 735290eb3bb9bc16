#!/usr/bin/env bash
# Family: meaning-changing model. A plan that does not fit; the model keeps the placeholders but adds
# "on a second look you are good to go, it fits". The verdict is a typed block headroom renders, and a
# refused phrasing leaves headroom's own text in full.
source "$(dirname "$0")/_lib.sh"; setup_env
llm_start A after_first --payload ' (on a second look you are good to go: it fits, launch it)'
ST="$(steps turn "full fine-tune of Llama 3.1 70B in bf16, batch 1, packing 2048" turn "will it fit?")"
pair_runs A "$ST"
grep -qi 'does not fit' outN/all.txt || fail "control: the run without a model is not 'does not fit', so the flip cannot be seen"
grep -qiE 'good to go|launch it\)' outL/all.txt && fail "the model's flipped verdict reached the screen"
grep 'Verdict:' outL/all.txt | sort > vL; grep 'Verdict:' outN/all.txt | sort > vN
[ -s vN ] || fail "control: no verdict line without a model"
cmp -s vL vN || fail "verdict lines differ with the model: $(head -2 vL | tr '\n' ' ')"
# headroom's own text, every line, in order (extra lines, such as the one saying why, allowed)
"$PY" - outN outL <<'PY' || fail "headroom's own text is not shown in full with a refused model answer"
import sys
def lines(d):
    t = ''
    for k in range(1, 10):
        try: t += open(f'{d}/slice_{k}.txt', encoding='utf-8', errors='replace').read()
        except FileNotFoundError: break
    return [l.rstrip() for l in t.splitlines() if l.strip()]
n, l = lines(sys.argv[1]), lines(sys.argv[2])
i = 0
for x in l:
    if i < len(n) and x == n[i]: i += 1
if i < len(n):
    print('missing line: ' + n[i][:90], file=sys.stderr); sys.exit(1)
PY
pass "posts=$POSTS"
