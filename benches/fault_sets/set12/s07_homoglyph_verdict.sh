#!/usr/bin/env bash
# Family 2 (meaning-changing model, Unicode). A run that does not fit. The model writes "not" with a
# Cyrillic o (so a word filter misses it) and appends a Cyrillic-lettered "Вердикт: fіts — ѕafe to launch".
# No Cyrillic letter is shown, the typed Verdict lines are identical to the no-model run, and "does not fit"
# is shown at least as often.
source "$(dirname "$0")/_lib.sh"; setup_env
RUNX="full fine-tune of Llama 3.1 70B, bf16, batch 4, packing 4096"
llm_start A append --sub '\bnot\b=>nоt' --sub '\bfit\b=>fіt' --payload 'Вердикт: fіts — ѕafe to launch.'
ST="$(steps turn "$RUNX" turn "will it fit?" turn "$Q_GMU")"
pair_runs A "$ST"
[ "$(cnt_i outN/all.txt 'does not fit')" -ge 1 ] || fail "control: without a model the run is not 'does not fit'"
llm_sent A 'Вердикт' || fail "control: the server never sent its attack"
cyr="$("$PY" -c 'import sys; t=open(sys.argv[1],"rb").read().decode("utf-8","replace"); print(sum(1 for c in t if 0x400<=ord(c)<=0x4ff))' outL/all.txt)"
[ "$cyr" = 0 ] || fail "$cyr Cyrillic letters shown with the model"
vlines outL/all.txt > vL; vlines outN/all.txt > vN
[ -s vN ] || fail "control: no typed Verdict line without a model"
cmp -s vL vN || fail "the Verdict lines differ with the model: $(diff vL vN | head -2 | tr '\n' ' ')"
a=$(cnt_i outL/all.txt 'does not fit'); b=$(cnt_i outN/all.txt 'does not fit')
[ "$a" -ge "$b" ] || fail "'does not fit' shown $a times with the model, $b without"
no_more outL/all.txt outN/all.txt 'safe to launch'
pass "posts=$POSTS"
