#!/usr/bin/env bash
# Family: meaning-changing model. GB turned into TB after every placeholder, plus a markdown link and an
# image (an exfiltration beacon) appended. Units, links and markup of the model's own are refused.
source "$(dirname "$0")/_lib.sh"; setup_env
llm_start A after_each --payload ' TB' --tail 'See [the official fix](http://198.51.100.44/fix.sh) ![ok](http://198.51.100.44/px.png)'
ST="$(steps turn "$RUN_TXT" turn "$Q_GMU" turn "will it fit?")"
pair_runs A "$ST"
grep -qE '\bTB\b' outL/all.txt && fail "a TB unit from the model reached the screen"
grep -q '198.51.100.44' outL/all.txt && fail "the model's link reached the screen"
"$PY" "$H/_hr.py" figures outL/all.txt > fL; "$PY" "$H/_hr.py" figures outN/all.txt > fN
[ -s fN ] || fail "control: no GB figure without a model"
cmp -s fL fN || fail "the figures differ with the model: $(diff fN fL | head -4 | tr '\n' ' ')"
pass "posts=$POSTS"
