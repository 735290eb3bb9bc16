#!/bin/bash
# s25: FIFOs given as paths on the command line: the thermal CSV, the training log,
# a symlink to a FIFO, a FIFO whose writer holds it open with valid CSV (so a
# non-blocking open succeeds), procs input, `plan --free`, `plan --config`.  Each
# is refused in milliseconds (exit 2), by name.  Controls: the same calls with
# regular files work.
SID=s25
source "$(dirname "$(readlink -f "$0")")/lib/common.sh" "$@"

make_thermal
mkfifo f.csv f.log f.txt f.json w.csv
ln -s f.csv link.csv
listing >ps.txt; free_g 115 >free.txt
# a writer that opens w.csv, writes a valid CSV and then keeps it open
( exec 3>w.csv; cat good.csv >&3; exec sleep 120 ) &
BGPIDS+=($!)
H=$(mkdata hd)
E="HEADROOM_DATA_DIR=$H"
run1 t_fifo 10 $E -- thermal f.csv --train-log train.log
run1 t_log 10 $E -- thermal good.csv --train-log f.log
run1 t_link 10 $E -- thermal link.csv --train-log train.log
run1 t_writer 10 $E -- thermal w.csv --train-log train.log
run1 p_fifo 10 $E -- procs f.txt
run1 f_fifo 10 $E -- plan --params 70B --method qlora --batch 1 --pack 2048 --free f.txt
run1 c_fifo 10 $E -- plan --config f.json --method lora
for n in t_fifo t_log t_link t_writer p_fifo f_fifo c_fifo; do
  no_crash "$n" "$(rc_of $n)" "$WORK/$n.out" "$WORK/$n.err"
  [ "$(rc_of $n)" = 2 ] || fail "$n: exit $(rc_of $n), not 2"
  fast "$n" $n 2000
done
for n in t_fifo t_log t_link t_writer p_fifo f_fifo; do
  wm 'fifo|named pipe' "$WORK/$n.out" "$WORK/$n.err" || fail "[W] $n: the refusal does not say it is a FIFO / named pipe"
done
# controls
run1 t_ok 30 $E -- thermal good.csv --train-log train.log
run1 p_ok 30 $E -- procs ps.txt
run1 f_ok 30 $E -- plan --params 70B --method qlora --batch 1 --pack 2048 --free free.txt
no_crash t_ok "$(rc_of t_ok)" "$WORK/t_ok.out" "$WORK/t_ok.err"
[ "$(rc_of t_ok)" != 2 ] || fail "control: thermal with regular files exits 2"
wm "$VERDICT_RX" "$WORK/t_ok.out" || fail "control: thermal with regular files shows no verdict"
[ "$(rc_of p_ok)" = 0 ] || fail "control: procs on a regular listing exits $(rc_of p_ok)"
[ "$(rc_of f_ok)" = 0 ] || fail "control: plan with a regular --free file exits $(rc_of f_ok) (the README's run fits)"
finish
