#!/usr/bin/env bash
# Family: absurd data. nvidia-smi samples whose power is "[N/A]" in every row while the GPU climbs to 97 °C
# and the SM clock falls, with a training log that slows down. Without power (and no throttle flags) the
# verdict is "not enough data to say", never "no thermal event", with the peak temperature named.
source "$(dirname "$0")/_lib.sh"; setup_env
newdir "$W/oneshot"; mkdir -p t
"$PY" "$H/_gen.py" thermal t/na.csv minutes=120 every=30 t_start=70 t_end=97 power=NA clock_start=2400 clock_end=1500
"$PY" "$H/_gen.py" trainlog t/train.log minutes=120 slow_after_min=70
grep -q '\[N/A\]' t/na.csv || fail "harness: no [N/A] power"
tcall a 30 thermal "$W/t/na.csv" --train-log "$W/t/train.log"
is_crash $TC_RC "$W/a.out" && fail "crash (rc $TC_RC)"
grep -qiE "$THERMAL_RX" a.out || fail "control: no thermal verdict at all (rc $TC_RC): $(head -c 200 a.out)"
grep -qi 'no thermal event' a.out && fail "a firm 'no thermal event' with no power sampled"
grep -qi 'thermal throttling' a.out && ! grep -qi 'not enough data' a.out && fail "a firm 'thermal throttling' with no power sampled"
grep -qi 'not enough data' a.out || fail "the verdict is not 'not enough data' with power [N/A] throughout"
grep -qE '(^|[^0-9.])97([^0-9]|$)' a.out || fail "the peak temperature (97) is not named"
pass
