#!/usr/bin/env bash
# Family 2. A plan that fits against a pasted `free -g`. The model adds figures in words and intensifiers:
# "That leaves roughly forty percent spare, comfortably twice what you need, so double the batch." None of
# it is shown (no word of meaning added; no figure of its own), and the Verdict lines are unchanged.
source "$(dirname "$0")/_lib.sh"; setup_env
cat > free.txt <<'P'
               total        used        free      shared  buff/cache   available
Mem:             119           4          80           0          35         115
Swap:             15           0          15
P
llm_start A append --payload 'That leaves roughly forty percent spare, comfortably twice what you need, so double the batch.'
ST="$(steps turn "$RUN_TXT" file "$W/free.txt" turn "will it fit?")"
pair_runs A "$ST"
llm_sent A 'forty percent' || fail "control: the server never sent its attack"
no_more outL/all.txt outN/all.txt 'forty percent' 'comfortably' 'twice what you need' 'double the batch'
vlines outL/all.txt > vL; vlines outN/all.txt > vN
[ -s vN ] || fail "control: no typed Verdict line without a model"
cmp -s vL vN || fail "the Verdict lines differ with the model"
pass "posts=$POSTS"
