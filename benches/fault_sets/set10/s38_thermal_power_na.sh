#!/bin/bash
# s38: samples without power.  (1) nvidia-smi CSV with power "[N/A]" in every
# row while the GPU climbs to 96 C; (2) power "[Not Supported]" and clocks "[N/A]"
# at a flat 96 C; (3) the first file's path typed in the chat beside the log's.  Never "no thermal event";
# "not enough data" with the peak temperature named and what to sample.
# Control: a cool, busy, well-powered file gives "no thermal event".
SID=s38
source "$(dirname "$(readlink -f "$0")")/lib/common.sh" "$@"

python3 "$LIB/gen.py" trainlog train.log 2026-11-29T14:00:00Z 700 10
python3 "$LIB/gen.py" smi na.csv 240 2026-11-29T14:00:00Z 30 70..96 '[N/A]' 2405
python3 "$LIB/gen.py" smi ns.csv 240 2026-11-29T14:00:00Z 30 96 '[Not Supported]' '[N/A]'
python3 "$LIB/gen.py" smi cool.csv 240 2026-11-29T14:00:00Z 30 60 45 2405
H=$(mkdata hd); E="HEADROOM_DATA_DIR=$H"
run1 na 20 $E -- thermal na.csv --train-log train.log
run1 ns 20 $E -- thermal ns.csv --train-log train.log
run1 naj 20 $E -- thermal na.csv --train-log train.log --json
run1 cool 20 $E -- thermal cool.csv --train-log train.log
for n in na ns naj cool; do no_crash "$n" "$(rc_of $n)" "$WORK/$n.out" "$WORK/$n.err"; [ "$(rc_of $n)" != 2 ] || fail "$n: a readable CSV was refused (exit 2)"; done
grep -aqi 'no thermal event' "$WORK/cool.out" || fail "control: the cool, busy, 45 W file does not give 'no thermal event', so its absence below proves nothing"
for n in na ns; do
  absent "$n: firm verdict without power" "no thermal event" "$WORK/$n.out"
  absent "$n: firm verdict without power" "look elsewhere" "$WORK/$n.out"
  grep -aqi 'not enough data' "$WORK/$n.out" || fail "$n: the verdict is not 'not enough data' with power missing"
  grep -aq '96' "$WORK/$n.out" || fail "$n: the peak temperature (96) is not named"
  wm 'sampl|power\.draw|power draw|record the power|log the power' "$WORK/$n.out" || fail "[W] $n: it does not say what to sample"
done
python3 -c "
import json,sys
def bad(c): raise ValueError(c)
json.load(open(sys.argv[1]), parse_constant=bad)" "$WORK/naj.out" 2>/dev/null || fail "--json output is not JSON"
grep -aqiE 'no.thermal.event' "$WORK/naj.out" && fail "--json gives no thermal event without power"
# the chat
D=$(mkdata d)
printf '>>> turn quiet=1\n%s and %s\n>>> turn\n%s\n' "$WORK/na.csv" "$WORK/train.log" "$Q_GMU" >script
drive a 40 --env HEADROOM_NOW=$(at 9000) -- --data-dir "$D" <script
drive_ok a
absent "chat: firm verdict without power" "no thermal event" $(S a 1)
grep -aqi 'not enough data' $(SL a 1) || fail "chat: the typed samples without power are not 'not enough data'"
finish
