#!/bin/bash
# s26: other odd files on the command line: /dev/zero as --free, /dev/urandom and a
# directory and a listening unix socket and a symlink loop as the thermal CSV.
# Each is refused in milliseconds (exit 2) and named.  Chart targets: a FIFO with
# no reader, /dev/null and a directory as --svg/--png must not hide the verdict
# (exit 1, at once); a regular --svg path gets an SVG (control).
SID=s26
source "$(dirname "$(readlink -f "$0")")/lib/common.sh" "$@"

make_thermal
mkdir adir; ln -s loop-a.csv loop-b.csv; ln -s loop-b.csv loop-a.csv; mkfifo chart.svg
python3 -c "
import socket,time,sys
s=socket.socket(socket.AF_UNIX); s.bind('$WORK/sock.csv'); s.listen(1); time.sleep(150)" &
BGPIDS+=($!)
for i in $(seq 1 50); do [ -S sock.csv ] && break; sleep 0.05; done
H=$(mkdata hd); E="HEADROOM_DATA_DIR=$H"
run1 zero 10 $E -- plan --params 70B --method qlora --free /dev/zero
run1 urandom 10 $E -- thermal /dev/urandom --train-log train.log
run1 dir 10 $E -- thermal adir --train-log train.log
run1 sock 10 $E -- thermal sock.csv --train-log train.log
run1 loop 10 $E -- thermal loop-a.csv --train-log train.log
declare -A RX=([zero]='device|character|/dev/zero' [urandom]='device|character|/dev/urandom' [dir]='director|folder' [sock]='socket' [loop]='loop|symlink|symbolic|too many levels')
for n in zero urandom dir sock loop; do
  no_crash "$n" "$(rc_of $n)" "$WORK/$n.out" "$WORK/$n.err"
  [ "$(rc_of $n)" = 2 ] || fail "$n: exit $(rc_of $n), not 2"
  fast "$n" $n 2000
  wm "${RX[$n]}" "$WORK/$n.out" "$WORK/$n.err" || fail "[W] $n: the refusal does not name what the path is"
done
[ -S sock.csv ] || fail "setup: the socket was not there"
run1 svg_fifo 10 $E -- thermal good.csv --train-log train.log --svg chart.svg
run1 png_null 10 $E -- thermal good.csv --train-log train.log --png /dev/null
run1 svg_dir 10 $E -- thermal good.csv --train-log train.log --svg adir
for n in svg_fifo png_null svg_dir; do
  no_crash "$n" "$(rc_of $n)" "$WORK/$n.out" "$WORK/$n.err"
  [ "$(rc_of $n)" = 1 ] || fail "$n: exit $(rc_of $n), not 1 (the verdict, then the chart's error)"
  fast "$n" $n 5000
  wm "$VERDICT_RX" "$WORK/$n.out" || fail "$n: the verdict is not shown when the chart cannot be written"
done
run1 svg_ok 30 $E -- thermal good.csv --train-log train.log --svg ok.svg
head -c 300 ok.svg 2>/dev/null | grep -aq '<svg\|<?xml' || fail "control: --svg ok.svg wrote no SVG (rc=$(rc_of svg_ok))"
wm "$VERDICT_RX" "$WORK/svg_ok.out" || fail "control: the verdict is not shown with a writable chart"
finish
