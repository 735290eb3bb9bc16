#!/usr/bin/env bash
# s47 (family 4, absurd values in the chat): after the run's verdict, the owner types
# "actually batch 99999999999999999999", "packing -4", "lora rank 0", "batch NaN", then "will it fit?".
# Expect: no crash, exit 0; the final "will it fit?" shows the same first peak figure as the first one
# (every absurd value refused, the old value kept: "packing -4" is not packing 4); [W] a refusal names
# a limit. Control: the first "will it fit?" shows a peak figure.
. "$(dirname "$0")/_lib.sh"; setup_env
chat o "$W/d" "$T0" "$(steps turn "$RUN_TXT" turn 'will it fit?' turn 'actually batch 99999999999999999999' turn 'packing -4' turn 'lora rank 0' turn 'batch NaN' turn 'will it fit?')"
crash_chat o && fail "crash (rc $(cat o/rc))"
[ "$(cat o/rc)" = 0 ] || fail "exit $(cat o/rc)"
p1="$(peaks o/slice_2.txt | head -1)"; p2="$(peaks o/slice_7.txt | head -1)"
[ -n "$p1" ] || fail "control: the first 'will it fit?' shows no peak figure"
[ "$p2" = "$p1" ] || fail "the run changed: peak $p1 GB before the absurd values, '${p2:-none}' after"
cat o/slice_3.txt o/slice_4.txt o/slice_5.txt o/slice_6.txt | grep -Eiq '65,536|65536|4,194,304|4194304|limit|between|at most|at least|must be' || fail "[W] no refusal names a limit"
pass "peak $p1 GB kept"
