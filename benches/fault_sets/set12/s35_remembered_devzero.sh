#!/usr/bin/env bash
# Family 5. Session 1 types regular thermal samples and a training log and gets a verdict. Between sessions
# the samples path becomes a symlink to /dev/zero and the log a symlink to /dev/urandom (endless devices). The
# restart that remembers both paths starts and answers "is it throttling now?" within 10 s, exits 0, and its
# peak RSS stays under 100 MB: a remembered path is checked like a typed one.
source "$(dirname "$0")/_lib.sh"; setup_env
good_thermal "$W/t"
chat outA "$W/d" "$T0" "$(steps turn "$W/t/thermal.csv and $W/t/train.log" wait 10)"
crash_chat outA && fail "A: crash (rc $(cat outA/rc))"
grep -qiE "$THERMAL_RX" outA/slice_1.txt || fail "control: the regular files gave no thermal verdict"
rm -f "$W/t/thermal.csv" "$W/t/train.log"
ln -s /dev/zero "$W/t/thermal.csv"; ln -s /dev/urandom "$W/t/train.log"
chat outB "$W/d" "$(at 1800)" "$(steps turn "is it throttling now?" wait 8)" '[]' '{}' 25
crash_chat outB && fail "restart hung or crashed on remembered device paths (rc $(cat outB/rc), $(sess_s outB)s)"
[ "$(cat outB/rc)" = 0 ] || fail "restart exits $(cat outB/rc)"
[ -s outB/slice_1.txt ] || fail "no answer after the restart"
lt "$(sess_s outB)" 10 || fail "restart with the remembered device paths took $(sess_s outB)s"
kb=$(peak_kb outB); [ "$kb" -gt 0 ] || fail "harness: no RSS measured"
[ "$kb" -lt 97656 ] || fail "peak RSS $(( kb / 1024 )) MiB reading remembered device paths"
pass "$(sess_s outB)s, $(( kb / 1024 )) MiB"
