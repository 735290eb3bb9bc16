#!/usr/bin/env bash
# s19: absurd thermal data. Every temperature 330..369 (Kelvin) -> "Kelvin?" named; every
# power 60000..99000 W (milliwatts) -> "milliwatts?" named. One row at 4321 C and one at
# -300 C among good rows (power [N/A], peak 96) are dropped: neither figure is shown, 96 is.
# Control: the same file with an in-range 129 C row shows 129. (NaN/inf rows ride along.)
# Time that jumps back an hour mid-file and every stamp written twice: no crash, an answer.
SID=s19
. "$(dirname "$0")/lib.sh" "$@"

F="$T/f"; fixtures "$F"
python3 "$FX" thermal "$F/kelvin.csv" kelvin
python3 "$FX" thermal "$F/mw.csv" milliwatts
python3 "$FX" thermal "$F/outlier.csv" hot_na bad=120:4321 bad=121:-300 bad=50:NaN bad=51:inf
python3 "$FX" thermal "$F/ctl129.csv" hot_na bad=239:129
python3 "$FX" thermal "$F/back.csv" flat back=120:3600
python3 "$FX" thermal "$F/dup.csv" flat dup
python3 "$FX" thermal "$F/backdup.csv" hot_ok dup back=200:7000
D=$(mkdd data)
for n in kelvin mw outlier ctl129 back dup backdup; do
  run $n "$NOW0" "$D" thermal "$F/$n.csv" --train-log "$F/train.log" </dev/null
  sane_rc $n || bad "$n: exit $(rc_of $n)"
  panicked $n && bad "$n: panicked"
  [ "$(ms_of $n)" -lt 8000 ] || bad "$n: took $(ms_of $n) ms"
  [ -s "$T/$n.out" ] || [ -s "$T/$n.err" ] || bad "$n: printed nothing"
done
has kelvin 'kelvin' || bad "[W] temperatures all 330..369 were not named as Kelvin"
has mw 'milliwatt|\bmW\b' || bad "[W] power all 60000..99000 W was not named as milliwatts"
has outlier '4321' && bad "the 4321 C row reached the answer"
has outlier '(?<![\d.])-300(?!\d)' && bad "the -300 C row reached the answer"
has outlier '\b96(\.0+)?\s*(°|deg|c\b)|(peak|hottest|max)[^.\n]{0,40}\b96\b' || bad "[W] the real peak, 96 C, was not named"
has ctl129 '\b129(\.0+)?\s*(°|deg|c\b)|(peak|hottest|max)[^.\n]{0,40}\b129\b' || bad "control: an in-range 129 C peak was not shown (the outlier check is blind)"
finish
