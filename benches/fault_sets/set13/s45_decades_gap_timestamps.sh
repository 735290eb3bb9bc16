#!/usr/bin/env bash
# s45 (family 4, absurd data): two hours of good 30 s samples plus one row stamped 1970-01-01 before
# them and one stamped 9999-12-31 after them (gaps of decades and millennia), with and without --svg.
# Expect: each run ends within 10 s with peak RSS under 100 MB and no crash; it gives a verdict, or
# exits 2 with [W] a line naming the time stamps. Control: the two hours alone give a verdict.
. "$(dirname "$0")/_lib.sh"; setup_env
good_thermal "$W/t"
"$PY" "$H/_gen.py" gapped "$W/t/gap.csv"
rcall ctl 30 thermal "$W/t/thermal.csv" --train-log "$W/t/train.log"
grep -Eiq "$THERMAL_RX" "$W/ctl.out" || fail "control: no verdict for the good samples"
for v in plain svg; do
  x=(); [ $v = svg ] && x=(--svg "$W/gap.svg")
  rcall $v 30 thermal "$W/t/gap.csv" --train-log "$W/t/train.log" "${x[@]}"
  is_crash "$TC_RC" "$W/$v.out" && fail "($v) crash or hang (exit $TC_RC after ${TC_EL}s)"
  lt "$TC_EL" 10 || fail "($v) took ${TC_EL}s"
  [ "$TC_RSS" -lt 97656 ] || fail "($v) peak RSS $((TC_RSS/1024)) MiB"
  if [ "$TC_RC" = 2 ]; then grep -Eiq 'time|stamp|date|year|order|gap|clock' "$W/$v.out" || fail "[W] ($v) exit 2 without naming the time stamps"
  else grep -Eiq "$THERMAL_RX" "$W/$v.out" || fail "($v) exit $TC_RC without a verdict"; fi
done
pass "peak RSS $((TC_RSS/1024)) MiB"
