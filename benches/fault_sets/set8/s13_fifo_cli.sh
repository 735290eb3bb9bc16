#!/usr/bin/env bash
# s13: a FIFO (no writer) given as a path on the command line, in each place a path is
# taken: thermal samples, --train-log, plan --free, plan --config, procs FILE, and as the
# --svg output. Each is refused in milliseconds by name (exit 2; --svg: verdict first, then
# the chart's error, exit 1). Controls: the same commands with regular files are not refused.
SID=s13
. "$(dirname "$0")/lib.sh" "$@"

F="$T/f"; fixtures "$F"
FIFO="$T/pipe.csv"; mkfifo "$FIFO"
D=$(mkdd data)

t() { # t NAME ARGS... : one CLI run with a watchdog that releases the FIFO after 6 s
  local n="$1"; shift
  unblock_later "$FIFO" 6
  run "$n" "$NOW0" "$D" "$@" </dev/null
}
t th   thermal "$FIFO" --train-log "$F/train.log"
t tl   thermal "$F/thermal.csv" --train-log "$FIFO"
t fr   plan --params 7B --method lora --batch 2 --pack 4096 --free "$FIFO"
t cf   plan --config "$FIFO" --method lora --batch 2 --pack 4096
t pr   procs "$FIFO" --need 60
t svg  thermal "$F/thermal.csv" --train-log "$F/train.log" --svg "$FIFO"

for n in th tl fr cf pr; do
  rc_is $n 2 || bad "$n: exit $(rc_of $n), want 2"
  [ "$(ms_of $n)" -lt 3000 ] || bad "$n: took $(ms_of $n) ms on a FIFO (blocked?)"
  has $n "$FIFO_RE" || bad "[W] $n: the refusal does not name a FIFO / named pipe"
  panicked $n && bad "$n panicked"
done
rc_is svg 1 || bad "--svg FIFO: exit $(rc_of svg), want 1"
[ "$(ms_of svg)" -lt 3000 ] || bad "--svg FIFO: took $(ms_of svg) ms (a write-open of a FIFO waits for a reader)"
has svg "$NOEVENT_RE" || bad "[W] --svg FIFO: the verdict was not shown before the chart error"
has svg "$FIFO_RE" || bad "[W] --svg FIFO: the chart error does not name a FIFO"
[ -p "$FIFO" ] || bad "the FIFO was replaced by something else"

# controls: regular files
run cth "$NOW0" "$D" thermal "$F/thermal.csv" --train-log "$F/train.log" </dev/null
run cfr "$NOW0" "$D" plan --params 7B --method lora --batch 2 --pack 4096 --free "$F/free.txt" </dev/null
run ccf "$NOW0" "$D" plan --config "$F/config.json" --method lora --batch 2 --pack 4096 </dev/null
run cpr "$NOW0" "$D" procs "$F/ps.txt" --need 60 </dev/null
run csv "$NOW0" "$D" thermal "$F/thermal.csv" --train-log "$F/train.log" --svg "$T/chart.svg" </dev/null
for n in cth cfr ccf cpr csv; do
  r=$(rc_of $n); { [ "$r" = 0 ] || [ "$r" = 1 ]; } || bad "control $n: exit $r with regular files"
done
has cth "$NOEVENT_RE" || bad "[W] control: thermal on regular files showed no verdict"
rc_is csv 0 || bad "control: --svg to a regular file exited $(rc_of csv)"
[ -s "$T/chart.svg" ] && head -c 200 "$T/chart.svg" | python3 "$FX" grep i '<svg|<\?xml' || bad "control: no SVG written"
finish
