#!/usr/bin/env bash
# Family 2. Three processes share the pool (uncapped vLLM 41500, vLLM capped at 0.1 41600, Ollama 41700). An
# Ollama-protocol model rotates the placeholders by one place (a subtler reorder than a swap), so keep/stop
# words slide onto other processes. The lines naming each pid and the kill pids after "yes" are identical to
# the no-model run. Control: without a model, yes kills 41500.
source "$(dirname "$0")/_lib.sh"; setup_env
{ echo "$ps_header"; ps_vllm 41500; ps_vllm_capped 41600 0.1; ps_ollama 41700; } > ps.txt
llm_start A rotate
ST="$(steps turn "$RUN_TXT" file "$W/ps.txt" turn "yes")"
pair_runs A "$ST" ollama
has_kill outN/all.txt 41500 || fail "control: without a model, yes did not show kill 41500"
for p in 41500 41600 41700; do
  grep -E "(^|[^0-9])$p([^0-9]|$)" outL/all.txt | grep -vi 'kill' | sort > rL
  grep -E "(^|[^0-9])$p([^0-9]|$)" outN/all.txt | grep -vi 'kill' | sort > rN
  [ -s rN ] || fail "control: pid $p not shown without a model"
  cmp -s rL rN || fail "the lines naming pid $p differ with the model: $(diff rL rN | head -3 | tr '\n' ' ')"
done
kL="$(kills outL/all.txt | tr ' ' '\n' | sort -u | tr '\n' ' ')"; kN="$(kills outN/all.txt | tr ' ' '\n' | sort -u | tr '\n' ' ')"
[ "$kL" = "$kN" ] || fail "kill pids differ: with the model [$kL], without [$kN]"
pass "posts=$POSTS; kills [$kN]"
