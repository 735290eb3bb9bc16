#!/usr/bin/env bash
# s25: an OOM starts the ladder at step 1 (flush). The owner hedges ("I guess?") and then reports another OOM. Step 1
# was never approved nor done, so headroom must not move on to step 2. Control: "yes", then "done, it OOM'd again at
# step 10" moves to step 2. [W] "Step N of the OOM ladder" is the ladder's wording (set13 saw "Step 1 of the OOM
# ladder: flush the page cache between runs"); only the reply to the second OOM report (slices 4-5) is read.
. "$(dirname "$0")/_lib.sh"; setup_env
bg chat outH "$W/dH" "$T0" "$(steps turn "$RUN_TXT" turn "$OOM_TB" turn 'I guess?' turn "it OOM'd again at step 10")"
bg chat outY "$W/dY" "$T0" "$(steps turn "$RUN_TXT" turn "$OOM_TB" turn yes turn "done, it OOM'd again at step 10")"
wait_all
crash_chat outH && fail "crash (rc $(cat outH/rc))"
crash_chat outY && fail "crash in the control"
cat outY/slice_4.txt outY/slice_5.txt 2>/dev/null > y4.txt
S2='step 2 of (the )?(oom )?ladder'
[ "$(rcnt y4.txt "$S2")" -ge 1 ] || fail "control: after yes and a second OOM the ladder did not move to step 2"
cat outH/slice_4.txt outH/slice_5.txt 2>/dev/null > h34.txt
[ -s h34.txt ] || fail "the second OOM report after the hedge got no reply"
[ "$(rcnt h34.txt "$S2")" = 0 ] || fail "after a hedge (no yes) the second OOM moved the ladder to step 2"
[ "$(rcnt h34.txt 'step 1|flush')" -ge 1 ] || fail "after the hedge the ladder's step 1 is not restated"
pass "the hedge left step 1 pending; yes + OOM moved to step 2"
