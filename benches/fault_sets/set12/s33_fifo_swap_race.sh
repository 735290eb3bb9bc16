#!/usr/bin/env bash
# Family 5. The samples path flips between a regular file and a FIFO (no writer) by atomic rename, about a
# thousand times a second, while `headroom thermal PATH --train-log LOG` runs 15 times. Paths are checked by
# type before and after a non-blocking open, so no run can hang on the FIFO: each ends within 5 s with exit
# 0, 1 or 2 and no crash. Control: with the flipping stopped and the path regular, a verdict is given.
source "$(dirname "$0")/_lib.sh"; setup_env
newdir "$W/oneshot"; good_thermal "$W/t"
cp "$W/t/thermal.csv" "$W/t/reg.csv"; mkfifo "$W/t/fifo"
"$PY" - "$W/t" > flip.log 2>&1 <<'PY' &
import os, sys, time
d = sys.argv[1]; P = d + '/s.csv'; n = 0
end = time.time() + 60
while time.time() < end and not os.path.exists(d + '/stop'):
    for src in ('reg.csv', 'fifo'):
        tmp = d + '/.tmp'
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        os.link(d + '/' + src, tmp); os.rename(tmp, P); n += 1
        time.sleep(0.0005)
print(n)
PY
_BGPIDS+=($!)
sleep 0.3
fifo_n=0; ok_n=0
for i in $(seq 1 15); do
  tcall r 10 thermal "$W/t/s.csv" --train-log "$W/t/train.log"
  is_crash $TC_RC "$W/r.out" && { touch "$W/t/stop"; fail "run $i: hang or crash (rc $TC_RC after ${TC_EL}s)"; }
  lt "$TC_EL" 5 || { touch "$W/t/stop"; fail "run $i took ${TC_EL}s"; }
  case "$TC_RC" in 0|1) ok_n=$((ok_n+1));; 2) fifo_n=$((fifo_n+1));; *) touch "$W/t/stop"; fail "run $i: exit $TC_RC";; esac
done
touch "$W/t/stop"; sleep 0.2
cp "$W/t/reg.csv" "$W/t/s.csv.new" && mv -f "$W/t/s.csv.new" "$W/t/s.csv"
tcall ctl 20 thermal "$W/t/s.csv" --train-log "$W/t/train.log"
grep -qiE "$THERMAL_RX" "$W/ctl.out" || fail "control: no verdict once the path stayed regular (rc $TC_RC)"
pass "15 runs: $ok_n read, $fifo_n refused"
