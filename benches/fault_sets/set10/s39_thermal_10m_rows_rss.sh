#!/bin/bash
# s39: ten million thermal rows, measured for peak RSS (the largest of the
# command's processes, from getrusage): (a) streamed on stdin ("thermal -"), made
# on the fly so no file is needed; (b) as a file (about 530 MB; skipped with a
# note when TMPDIR lacks 1.2 GB, or when (a) took over 60 s).  Each must stay
# under 100 MB and give a verdict.
SID=s39
source "$(dirname "$(readlink -f "$0")")/lib/common.sh" "$@"

python3 "$LIB/gen.py" trainlog train.log 2026-11-29T14:00:00Z 700 10
H=$(mkdata hd)
LIMIT_KIB=97656   # 100 MB = 100,000,000 bytes
meas() { # meas NAME SOURCE... : runs thermal under measure.py
  local n=$1; shift
  local r; r=$(HEADROOM_DATA_DIR=$H python3 "$LIB/measure.py" "$WORK/$n" "$@" -- timeout -k 5 70 "$BIN" thermal "$SRC" --train-log train.log)
  echo "$r" >"$WORK/$n.m"; note "$n: rc, peak RSS KiB, seconds = $r"
  local rc kib; read -r rc kib _ <<<"$r"
  no_crash "$n" "$rc" "$WORK/$n.out" "$WORK/$n.err"
  [ "$kib" -lt $LIMIT_KIB ] || fail "$n: peak RSS $((kib / 1024)) MiB for 10,000,000 rows (limit 100 MB)"
  wm "$VERDICT_RX" "$WORK/$n.out" || fail "$n: no verdict for 10,000,000 readable rows (rc=$rc), so the RSS figure may not reflect a read"
}
t_start=$SECONDS
SRC=- meas stream --gen 10000000
avail=$(df -Pk "$WORK" | tail -1 | awk '{print $4}')
if [ $((SECONDS - t_start)) -gt 60 ]; then
  note "the stream part took $((SECONDS - t_start)) s: the file part (b) is skipped to stay within the scenario's 180 s"
elif [ "$avail" -gt 1200000 ]; then
  python3 "$LIB/gen.py" big "$WORK/big.csv" 10000000
  note "big.csv: $(stat -c %s big.csv) bytes, $(wc -l <big.csv) lines"
  SRC=$WORK/big.csv meas file --none
  rm -f big.csv
else
  note "only $avail KiB free in $WORK: the file part (b) is skipped"
fi
finish
