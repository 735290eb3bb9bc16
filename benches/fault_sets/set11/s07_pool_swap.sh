#!/usr/bin/env bash
# Family: meaning-changing model. Two servers share the pool; the model returns the placeholders in
# reverse order, which swaps keep and stop between them. keep/stop per pid is headroom's typed block and
# a reorder is refused: the table rows and the kill command after "yes" stay what headroom decided.
source "$(dirname "$0")/_lib.sh"; setup_env
{ echo "$ps_header"; ps_vllm 41500; ps_vllm_capped 41800 0.15; } > ps.txt
llm_start A swap
ST="$(steps turn "$RUN_TXT" file "$W/ps.txt" turn "yes")"
pair_runs A "$ST"
has_kill outN/all.txt 41500 || fail "control: without a model, yes did not show kill 41500"
for p in 41500 41800; do
  grep -E "(^|[^0-9])$p([^0-9]|$)" outL/all.txt | grep -v -i 'kill' | sort > rL; grep -E "(^|[^0-9])$p([^0-9]|$)" outN/all.txt | grep -v -i 'kill' | sort > rN
  [ -s rN ] || fail "control: pid $p not shown without a model"
  cmp -s rL rN || fail "the lines for pid $p differ with the model: $(head -1 rL)"
done
kL="$(kills outL/all.txt | tr ' ' '\n' | sort -u | tr '\n' ' ')"; kN="$(kills outN/all.txt | tr ' ' '\n' | sort -u | tr '\n' ' ')"
[ "$kL" = "$kN" ] || fail "kill pids differ: with the model [$kL], without [$kN]"
pass "posts=$POSTS; kills [$kN]"
