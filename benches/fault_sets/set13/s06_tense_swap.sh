#!/usr/bin/env bash
# s06 (family 1, meaning-changing model): placeholders untouched, but the tense moves: is -> was,
# are -> were, will -> would, binds -> bound ("is running" becomes "was running").
# Expect: no stretch of text the model changed is shown more often than without a model.
. "$(dirname "$0")/_lib.sh"; setup_env
llm_start A echo --sub '\bis\b=>was' --sub '\bare\b=>were' --sub '\bwill\b=>would' --sub '\bbinds\b=>bound' --sub '\bIs\b=>Was'
pair_runs A "$(steps turn "$RUN_TXT" turn "$FREE_G" turn "$(listing 41500)" turn "$Q_GMU")"
"$PY" "$H/_hr.py" novel "$W/llm_A.log.ans" > novel.txt
grep -Eq '\b(was|were|would|bound|Was)\b' novel.txt || fail "control: the model changed no stretch of text"
k=0
while IFS= read -r f; do
  [ -n "$f" ] || continue; k=$((k+1))
  a=$(cnt "outL/all.txt" "$f"); b=$(cnt "outN/all.txt" "$f")
  [ "$a" -le "$b" ] || fail "a stretch in another tense was shown: '${f:0:80}'"
done < novel.txt
pass "posts=$POSTS; $k changed stretches"
