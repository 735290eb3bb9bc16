#!/usr/bin/env bash
# s38 (family 3, huge file): a 17 GiB sparse training log (over the 16 GiB limit), (a) with
# `headroom thermal` and (b) typed in the chat beside good samples.
# Expect: (a) exit 2 within 3 s, [W] naming the size or limit; (b) the turn is answered within 5 s, no
# crash. Control: the good log gives a verdict.
. "$(dirname "$0")/_lib.sh"; setup_env
good_thermal "$W/t"
truncate -s 17G "$W/t/huge.log" || fail "harness: cannot make a sparse file"
tcall ctl 30 thermal "$W/t/thermal.csv" --train-log "$W/t/train.log"
grep -Eiq "$THERMAL_RX" "$W/ctl.out" || fail "control: the good log gave no verdict (exit $TC_RC)"
tcall big 20 thermal "$W/t/thermal.csv" --train-log "$W/t/huge.log"
is_crash "$TC_RC" "$W/big.out" && fail "(a) crash or hang (exit $TC_RC after ${TC_EL}s)"
[ "$TC_RC" = 2 ] && lt "$TC_EL" 3 || fail "(a) exit $TC_RC after ${TC_EL}s"
grep -Eiq 'GiB|GB|size|limit|too (big|large)' "$W/big.out" || fail "[W] (a) the refusal does not name the size or the limit"
chat o "$W/d" "$T0" "$(steps turn "check $W/t/thermal.csv and $W/t/huge.log for throttling" wait 10 until 'GiB|limit|size|too (big|large)|throttl|thermal event|not enough data|power cap')" '[]' '{}' 30
crash_chat o && fail "(b) crash or hang in the chat (rc $(cat o/rc))"
t=$(m_after o 1); [ -n "$t" ] && lt "$t" 5 || fail "(b) the chat turn was not answered within 5 s (${t:-never})"
pass "(a) ${TC_EL}s; (b) ${t}s"
