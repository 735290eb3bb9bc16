#!/usr/bin/env bash
# Family: FIFOs / sockets typed in the chat, and a remembered path that became a FIFO. The samples file is
# swapped for a FIFO with no writer; typing the paths again is refused in the same turn (not a hang),
# a socket after a role word likewise, the session goes on, and a restart that remembers the path starts
# and answers at once.
source "$(dirname "$0")/_lib.sh"; setup_env
good_thermal "$W/t"; mksock "$W/t/s.sock"
ST="$(steps turn "$W/t/thermal.csv and $W/t/train.log" wait 10 \
  sh "rm -f $W/t/thermal.csv && mkfifo $W/t/thermal.csv" \
  turn "here they are again: $W/t/thermal.csv and $W/t/train.log" \
  turn "the sampler log is at $W/t/s.sock" \
  turn "$RUN_TXT")"
s=$(now_s)
chat outA "$W/d" "$T0" "$ST"
elA=$(elapsed "$s" "$(now_s)")
crash_chat outA && fail "A: hang or crash (rc $(cat outA/rc), ${elA}s)"
grep -qiE "$THERMAL_RX" outA/slice_1.txt || fail "control: the regular files gave no thermal verdict"
[ -s outA/slice_2.txt ] || fail "no reply in the turn that typed the FIFO's path"
grep -qiE 'fifo|named pipe' outA/slice_2.txt || fail "[W] the FIFO is not explained in the turn that names it"
[ -s outA/slice_3.txt ] || fail "no reply in the turn that typed the socket's path"
grep -qi verdict outA/slice_4.txt || fail "the session did not go on after the FIFO (no verdict for the run)"
lt "$elA" 20 || fail "session A took ${elA}s"
s=$(now_s)
chat outB "$W/d" "$(at 1800)" "$(steps turn "so, is it throttling?")"
elB=$(elapsed "$s" "$(now_s)")
crash_chat outB && fail "restart hung or crashed on the remembered FIFO (rc $(cat outB/rc), ${elB}s)"
[ "$(cat outB/rc)" = 0 ] || fail "restart exits $(cat outB/rc)"
[ -s outB/slice_1.txt ] || fail "no answer after the restart"
lt "$elB" 10 || fail "restart with the remembered FIFO took ${elB}s"
pass "A ${elA}s, B ${elB}s"
