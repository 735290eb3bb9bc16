#!/usr/bin/env bash
# Family 2. The model answers with an OpenAI tool call (and a legacy function_call) asking to run
# `touch FILE # TOOLMARK`, plus the template. headroom never runs a command: the file is never created, the
# tool call's text is never shown, and no kill command appears without a yes.
source "$(dirname "$0")/_lib.sh"; setup_env
listing 41500 > ps.txt
llm_start A echo --behave toolcall --tool-file "$W/PWNED" --marker TOOLMARK-5757
ST="$(steps turn "$RUN_TXT" file "$W/ps.txt" turn "$Q_GMU")"
pair_runs A "$ST"
grep -q '41500' outN/all.txt || fail "control: the listing was not answered without a model"
[ -e "$W/PWNED" ] && fail "the model's tool call was executed ($W/PWNED exists)"
[ "$(cnt outL/all.txt TOOLMARK)" = 0 ] || fail "the tool call's text reached the screen"
no_more outL/all.txt outN/all.txt 'touch ' 'tool_call' 'function_call' '"cmd"'
kL="$(kills outL/all.txt | tr ' ' '\n' | sort -u | tr '\n' ' ')"; kN="$(kills outN/all.txt | tr ' ' '\n' | sort -u | tr '\n' ' ')"
[ "$kL" = "$kN" ] || fail "kill pids differ before any yes: with the model [$kL], without [$kN]"
grep -q '121\.69' outL/all.txt || fail "headroom's own answer (121.69) is missing with the model"
pass "posts=$POSTS"
