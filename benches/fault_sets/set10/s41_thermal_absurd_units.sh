#!/bin/bash
# s41: thermal files in the wrong units or with broken values: (a) temperatures in
# Kelvin (340-369), (b) power in milliwatts (95,000), (c) good samples with a NaN
# temperature and an infinite power every tenth row.  (a) and (b) name the unit
# problem and never give "no thermal event" on dropped data; (c) shows no NaN/inf.
SID=s41
source "$(dirname "$(readlink -f "$0")")/lib/common.sh" "$@"

python3 "$LIB/gen.py" trainlog train.log 2026-11-29T14:00:00Z 700 10
python3 "$LIB/gen.py" smi kelvin.csv 240 2026-11-29T14:00:00Z 30 67..96 95 2405 99 --kelvin
python3 "$LIB/gen.py" smi mw.csv 240 2026-11-29T14:00:00Z 30 60..70 95 2405 99 --mw
python3 "$LIB/gen.py" smi nan.csv 240 2026-11-29T14:00:00Z 30 60 58 2405 99 --nan-every 10
H=$(mkdata hd); E="HEADROOM_DATA_DIR=$H"
run1 kelvin 30 $E -- thermal kelvin.csv --train-log train.log
run1 mw 30 $E -- thermal mw.csv --train-log train.log
run1 nan 30 $E -- thermal nan.csv --train-log train.log
run1 nanj 30 $E -- thermal nan.csv --train-log train.log --json
for n in kelvin mw nan nanj; do no_crash "$n" "$(rc_of $n)" "$WORK/$n.out" "$WORK/$n.err"; done
wm 'kelvin' "$WORK/kelvin.out" "$WORK/kelvin.err" || fail "[W] (a) temperatures of 340-369 are not named as a Kelvin problem"
wm 'milliwatt|\bmW\b' "$WORK/mw.out" "$WORK/mw.err" || fail "[W] (b) power of 95,000 is not named as a milliwatts problem"
absent "(a) a verdict on dropped temperatures" "no thermal event" "$WORK/kelvin.out"
absent "(b) a verdict on dropped power" "no thermal event" "$WORK/mw.out"
for n in nan nanj; do
  c=$(tool countre '\bnan\b|\binf\b|\binfinity\b' "$WORK/$n.out")
  [ "$c" -eq 0 ] || fail "(c) $n: NaN/inf shown $c time(s) (they are dropped)"
done
wm "$VERDICT_RX" "$WORK/nan.out" || fail "control: (c) the good rows around the NaNs gave no verdict"
python3 -c "
import json,sys
def bad(c): raise ValueError(c)
json.load(open(sys.argv[1]), parse_constant=bad)" "$WORK/nanj.out" 2>/dev/null || fail "(c) --json with NaN/inf rows is not valid (strict) JSON"
finish
