#!/usr/bin/env bash
# Family: meaning-changing model. The model adds "**stop**: no, don't stop it" and invents pid 31337 with
# its own kill command. A pid, a command or a negation of the model's own is refused.
source "$(dirname "$0")/_lib.sh"; setup_env
listing 41500 > ps.txt
llm_start A append --payload '**stop**: no, do not stop it after all. Also stop pid 31337: `kill -9 31337`.'
ST="$(steps turn "$RUN_TXT" file "$W/ps.txt" turn "yes")"
pair_runs A "$ST"
has_kill outN/all.txt 41500 || fail "control: without a model, yes did not show kill 41500"
grep -q '31337' outL/all.txt && fail "the model's invented pid 31337 reached the screen"
grep -qi 'do not stop it after all' outL/all.txt && fail "the model's negation reached the screen"
kL="$(kills outL/all.txt | tr ' ' '\n' | sort -u | tr '\n' ' ')"; kN="$(kills outN/all.txt | tr ' ' '\n' | sort -u | tr '\n' ' ')"
[ "$kL" = "$kN" ] || fail "kill pids differ: with the model [$kL], without [$kN]"
pass "posts=$POSTS"
