#!/usr/bin/env bash
# Family 2. An Ollama-protocol model returns every placeholder in a near-miss form: {{name}}, { name },
# {NAME}, [name]. None of these is a placeholder; the answer drops every real one and must be refused: no
# brace or bracketed placeholder name is shown more often than without a model, and the answer (121.69) and
# the Verdict lines are headroom's.
source "$(dirname "$0")/_lib.sh"; setup_env
llm_start A braces
ST="$(steps turn "$Q_GMU" turn "$RUN_TXT")"
pair_runs A "$ST" ollama
grep -q '{' "$W/llm_A.log.ans" || fail "control: the server got no template with a placeholder"
no_more outL/all.txt outN/all.txt '{{' '}}' '{ ' ' }'
a=$("$PY" "$H/_hr.py" norm outL/all.txt | grep -oE '\{[A-Z_]+[0-9]+\}' | wc -l); b=$("$PY" "$H/_hr.py" norm outN/all.txt | grep -oE '\{[A-Z_]+[0-9]+\}' | wc -l)
[ "$a" -le "$b" ] || fail "upper-case placeholder names shown $a times with the model, $b without"
a=$(rcnt outL/all.txt '\[[A-Za-z_]+[0-9]+\]'); b=$(rcnt outN/all.txt '\[[A-Za-z_]+[0-9]+\]')
[ "$a" -le "$b" ] || fail "bracketed placeholder names shown $a times with the model, $b without"
grep -q '121\.69' outL/all.txt || fail "headroom's own answer (121.69) is missing with the model"
vlines outL/all.txt > vL; vlines outN/all.txt > vN
[ -s vN ] || fail "control: no typed Verdict line without a model"
cmp -s vL vN || fail "the Verdict lines differ with the model"
pass "posts=$POSTS"
