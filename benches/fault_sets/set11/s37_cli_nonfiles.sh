#!/usr/bin/env bash
# Family: FIFOs / devices / sockets given as paths on the command line. Only regular files, checked by
# type before and after a non-blocking open: a FIFO (no writer ever comes), a socket, /dev/urandom,
# /dev/zero, a directory and a symlink loop are refused in milliseconds with exit 2, across `thermal`
# (samples and --train-log), `plan --free/--config` and `procs`.
source "$(dirname "$0")/_lib.sh"; setup_env
newdir "$W/oneshot"; good_thermal "$W/t"
mkfifo "$W/t/fifo.csv" "$W/t/fifo.log" "$W/t/fifo.txt"; mksock "$W/t/sock.csv"; mkdir "$W/t/cfgdir"
ln -s "$W/t/loop2" "$W/t/loop1"; ln -s "$W/t/loop1" "$W/t/loop2"
tcall ctl 30 thermal "$W/t/thermal.csv" --train-log "$W/t/train.log"
is_crash $TC_RC "$W/ctl.out" && fail "control: crash on good thermal inputs (rc $TC_RC)"
grep -qiE "$THERMAL_RX" "$W/ctl.out" || fail "control: no thermal verdict on good inputs (rc $TC_RC)"
P=(plan --params 70B --method qlora --batch 1 --pack 2048)
check() { # label args...
  local l="$1"; shift
  tcall c 10 "$@"
  is_crash $TC_RC "$W/c.out" && fail "$l: hang or crash (rc $TC_RC after ${TC_EL}s)"
  [ "$TC_RC" = 2 ] || fail "$l: exit $TC_RC, want 2"
  lt "$TC_EL" 2 || fail "$l: took ${TC_EL}s, not milliseconds"
}
check "thermal FIFO samples" thermal "$W/t/fifo.csv" --train-log "$W/t/train.log"
grep -qiE 'fifo|named pipe' "$W/c.out" || fail "[W] the FIFO is not named as a FIFO / named pipe"
check "thermal FIFO --train-log" thermal "$W/t/thermal.csv" --train-log "$W/t/fifo.log"
check "thermal socket" thermal "$W/t/sock.csv" --train-log "$W/t/train.log"
check "thermal /dev/urandom" thermal /dev/urandom --train-log "$W/t/train.log"
check "plan --free /dev/zero" "${P[@]}" --free /dev/zero
check "plan --free FIFO" "${P[@]}" --free "$W/t/fifo.txt"
check "plan --config directory" "${P[@]}" --config "$W/t/cfgdir"
check "procs symlink loop" procs "$W/t/loop1" --need 40
check "procs FIFO" procs "$W/t/fifo.txt" --need 40
pass
