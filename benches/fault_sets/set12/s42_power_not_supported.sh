#!/usr/bin/env bash
# Family 6 (absurd data). Two sample files with no usable power while the GPU climbs from 88 to 96 °C and the
# SM clock falls 2400 → 1700 MHz: (a) power.draw reads "[Not Supported]" in every row; (b) the power column
# is absent. Without power (and no throttle flags) the verdict is "not enough data to say", never "no
# thermal event", with the peak temperature (96) named.
source "$(dirname "$0")/_lib.sh"; setup_env
newdir "$W/oneshot"; mkdir -p t
"$PY" "$H/_gen.py" thermal t/a.csv minutes=120 every=30 t_start=88 t_end=96 power_raw='[Not Supported]' clock_start=2400 clock_end=1700
"$PY" "$H/_gen.py" thermal t/b.csv minutes=120 every=30 t_start=88 t_end=96 no_power=True clock_start=2400 clock_end=1700
"$PY" "$H/_gen.py" trainlog t/train.log minutes=120 slow_after_min=70
for x in a b; do
  tcall $x 30 thermal "$W/t/$x.csv" --train-log "$W/t/train.log"
  is_crash $TC_RC "$W/$x.out" && fail "($x) crash (rc $TC_RC)"
  grep -qi 'no thermal event' $x.out && fail "($x) a firm 'no thermal event' with no power sampled"
  grep -qi 'not enough data' $x.out || fail "($x) the verdict is not 'not enough data' (rc $TC_RC): $(head -c 160 $x.out | tr '\n' ' ')"
  grep -qE '(^|[^0-9.])96([^0-9]|$)' $x.out || fail "($x) the peak temperature (96) is not named"
done
pass
