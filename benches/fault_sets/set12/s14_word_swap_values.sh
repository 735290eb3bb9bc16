#!/usr/bin/env bash
# Family 2. Every placeholder stays in place, but the words between them trade meaning: "peak" and "budget"
# swap, "free" becomes "used", "available" becomes "required", "less" becomes "more". No stretch of text the
# model changed is shown more often than without a model (so no word moved to another value reached the
# screen). Control: the model did change some text (a changed stretch exists).
source "$(dirname "$0")/_lib.sh"; setup_env
cat > free.txt <<'P'
               total        used        free      shared  buff/cache   available
Mem:             119           4          80           0          35         115
Swap:             15           0          15
P
llm_start A echo --swap 'peak,budget' --sub '\bfree\b=>used' --sub '\bavailable\b=>required' --sub '\bless\b=>more'
ST="$(steps turn "$RUN_TXT" file "$W/free.txt" turn "will it fit?" turn "$Q_GMU")"
pair_runs A "$ST"
"$PY" "$H/_hr.py" novel "$W/llm_A.log.ans" > novel.txt
[ -s novel.txt ] || fail "control: no template held peak/budget/free/available/less, so the model changed nothing"
while IFS= read -r frag; do
  a=$(cnt_i outL/all.txt "$frag"); b=$(cnt_i outN/all.txt "$frag")
  [ "$a" -le "$b" ] || fail "the model's changed text '$frag' is shown ($a times with the model, $b without)"
done < novel.txt
vlines outL/all.txt > vL; vlines outN/all.txt > vN
cmp -s vL vN || fail "the Verdict lines differ with the model"
pass "posts=$POSTS; $(wc -l < novel.txt) changed stretches"
