#!/usr/bin/env bash
# Family 6. Degenerate sample clocks: (a) all 241 rows carry the same timestamp; (b) the rows run newest
# first. Every input has a bound and every refusal says what was wrong: each run ends within 10 s without a
# crash and gives either a thermal verdict or exit 2 with a line naming the time/timestamps.
source "$(dirname "$0")/_lib.sh"; setup_env
newdir "$W/oneshot"; mkdir -p t
"$PY" "$H/_gen.py" thermal t/a.csv minutes=120 every=30 t_start=60 t_end=90 same_ts=True
"$PY" "$H/_gen.py" thermal t/b.csv minutes=120 every=30 t_start=60 t_end=90 reverse=True
"$PY" "$H/_gen.py" trainlog t/train.log minutes=120
for x in a b; do
  tcall $x 15 thermal "$W/t/$x.csv" --train-log "$W/t/train.log"
  is_crash $TC_RC "$W/$x.out" && fail "($x) crash or hang (rc $TC_RC after ${TC_EL}s)"
  lt "$TC_EL" 10 || fail "($x) took ${TC_EL}s"
  if grep -qiE "$THERMAL_RX" $x.out; then :; 
  elif [ "$TC_RC" = 2 ] && grep -qiE 'time|stamp|order|clock' $x.out; then :;
  else fail "($x) neither a verdict nor a refusal naming the time (rc $TC_RC): $(head -c 160 $x.out | tr '\n' ' ')"; fi
done
pass
