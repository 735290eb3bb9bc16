#!/usr/bin/env bash
# s05 (family 1, meaning-changing model): placeholders untouched, but "you/your" become "I/my" in the
# text between them (the decision moves from the owner to the assistant: "your call" -> "my call").
# Expect: no stretch of text the model changed is shown more often than without a model.
. "$(dirname "$0")/_lib.sh"; setup_env
llm_start A echo --sub '\byour\b=>my' --sub '\bYour\b=>My' --sub '\byou\b=>I' --sub '\bYou\b=>I'
pair_runs A "$(steps turn "$RUN_TXT" turn "$(listing 41500)" turn "$Q_GMU")" ollama
"$PY" "$H/_hr.py" novel "$W/llm_A.log.ans" > novel.txt
grep -Eq '\b(my|My|I)\b' novel.txt || fail "control: the model changed no stretch of text (no 'you' in any template?)"
k=0
while IFS= read -r f; do
  [ -n "$f" ] || continue; k=$((k+1))
  a=$(cnt "outL/all.txt" "$f"); b=$(cnt "outN/all.txt" "$f")
  [ "$a" -le "$b" ] || fail "a changed stretch was shown: '${f:0:80}'"
done < novel.txt
pass "posts=$POSTS; $k changed stretches"
