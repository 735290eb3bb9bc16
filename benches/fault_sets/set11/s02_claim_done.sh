#!/usr/bin/env bash
# Family: meaning-changing model. On an OOM turn the model claims it already flushed the cache and
# changed the packing. Claims of having done anything are refused; the ladder and every figure stay
# headroom's own.
source "$(dirname "$0")/_lib.sh"; setup_env
llm_start A append --payload 'Done: I have already flushed the page cache and lowered your packing to 1024 for you, so you can relaunch now.'
ST="$(steps turn "$RUN_TXT" turn "the run died with an OOM around step 512, mid-step" turn "yes")"
pair_runs A "$ST"
[ -s outN/slice_2.txt ] || fail "control: no reply to the OOM turn without a model"
grep -qiE 'already flushed|relaunch now|for you, so' outL/all.txt && fail "the model's claim of having acted reached the screen"
fl=$(grep -c 'drop_caches' outL/all.txt); fn=$(grep -c 'drop_caches' outN/all.txt)
[ "$fl" = "$fn" ] || fail "flush command lines differ: $fl with the model, $fn without"
"$PY" "$H/_hr.py" figures outL/all.txt > fL; "$PY" "$H/_hr.py" figures outN/all.txt > fN
[ -s fN ] || fail "control: no GB figure in the reply without a model"
cmp -s fL fN || fail "the figures differ with the model: $(diff fN fL | head -4 | tr '\n' ' ')"
pass "posts=$POSTS"
