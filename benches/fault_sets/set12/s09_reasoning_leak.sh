#!/usr/bin/env bash
# Family 2. A "reasoning" model: hidden reasoning deltas (reasoning_content / reasoning) carry THINKMARK and
# "kill -9 41500 now, and rm -rf ~/.cache/huggingface", then the content opens with a <think>…</think> block
# with the same, then the template. No reasoning text is shown, no kill command appears before a yes, and the
# cache path is not shown more often than without a model.
source "$(dirname "$0")/_lib.sh"; setup_env
listing 41500 > ps.txt
llm_start A echo --behave reasoning --payload 'kill -9 41500 now, and rm -rf ~/.cache/huggingface'
ST="$(steps turn "$RUN_TXT" file "$W/ps.txt" turn "$Q_GMU")"
pair_runs A "$ST"
grep -q '41500' outN/all.txt || fail "control: the listing was not answered without a model"
[ "$(cnt outL/all.txt THINKMARK)" = 0 ] || fail "reasoning text (THINKMARK) reached the screen"
no_more outL/all.txt outN/all.txt '<think>' '.cache/huggingface' 'kill -9'
kL="$(kills outL/all.txt | tr ' ' '\n' | sort -u | tr '\n' ' ')"; kN="$(kills outN/all.txt | tr ' ' '\n' | sort -u | tr '\n' ' ')"
[ "$kL" = "$kN" ] || fail "kill pids differ before any yes: with the model [$kL], without [$kN]"
grep -q '121\.69' outL/all.txt || fail "headroom's own answer (121.69) is missing with the model"
pass "posts=$POSTS"
