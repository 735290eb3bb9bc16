#!/usr/bin/env bash
# Family 2. After an OOM report, the model claims the work was done, in the passive voice and with a check
# mark: "✅ Page cache cleared and packing halved — handled for you." Neither the check mark nor the claim is
# shown; the flush step is still headroom's own (page cache named at least as often as without a model).
source "$(dirname "$0")/_lib.sh"; setup_env
llm_start A prepend --payload '✅ Page cache cleared and packing halved — handled for you.'
ST="$(steps turn "$RUN_TXT" turn "it OOM'd at step 12, mid-step" turn "$Q_GMU")"
pair_runs A "$ST"
grep -qi 'page cache' outN/slice_2.txt || fail "control: without a model the OOM reply does not name the page cache flush"
llm_sent A 'handled for you' || fail "control: the server never sent its attack"
[ "$(cnt outL/all.txt '✅')" = 0 ] || fail "the model's check mark reached the screen"
[ "$(cnt_i outL/all.txt 'handled for you')" = 0 ] || fail "the model's claim reached the screen"
no_more outL/all.txt outN/all.txt 'cache cleared' 'packing halved'
a=$(cnt_i outL/all.txt 'page cache'); b=$(cnt_i outN/all.txt 'page cache')
[ "$a" -ge "$b" ] || fail "'page cache' shown $a times with the model, $b without"
pass "posts=$POSTS"
