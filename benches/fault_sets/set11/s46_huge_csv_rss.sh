#!/usr/bin/env bash
# Family: absurd data, measured. Twelve million nvidia-smi rows (10 Hz for ~14 days) streamed through a
# pipe (`headroom thermal - --train-log …`). Thermal input streams in bounded memory: peak RSS under 100 MB
# at any size; the verdict is still given.
source "$(dirname "$0")/_lib.sh"; setup_env
newdir "$W/oneshot"; mkdir -p t
"$PY" "$H/_gen.py" trainlog t/train.log minutes=180
"$PY" - "$HR" "$W/t/train.log" "$T0" "$W/oneshot" > res.txt 2> err.txt <<'PY'
import datetime as dt, os, resource, subprocess, sys, time
hr, log, now, dd = sys.argv[1:5]
env = dict(os.environ, HEADROOM_NOW=now, HEADROOM_DATA_DIR=dd)
t0 = time.time()
p = subprocess.Popen(['timeout', '300', hr, 'thermal', '-', '--train-log', log], stdin=subprocess.PIPE,
                     stdout=open('out.txt', 'wb'), stderr=subprocess.STDOUT, env=env)
base = dt.datetime(2026, 11, 29, 14, 0, 0)
ROWS = 12_000_000
try:
    p.stdin.write(b'timestamp, temperature.gpu, power.draw [W], clocks.sm [MHz], utilization.gpu [%]\n')
    sec = 0; n = 0
    while n < ROWS:
        stamp = (base + dt.timedelta(seconds=sec)).strftime('%Y/%m/%d %H:%M:%S')
        temp = 60 + (sec // 600) % 20
        lines = []
        for ms in range(0, 1000, 100):
            lines.append('%s.%03d, %d, %.2f W, 2405 MHz, 96 %%\n' % (stamp, ms, temp, 98.1 + (ms % 300) / 100))
        p.stdin.write(''.join(lines).encode())
        n += 10; sec += 1
    p.stdin.close()
except BrokenPipeError:
    print('broken pipe after %d rows' % n, file=sys.stderr)
rc = p.wait()
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
print(rc, ru.ru_maxrss, round(time.time() - t0, 1))
PY
read -r rc rss secs < res.txt || fail "harness: no measurement ($(head -c 200 err.txt))"
is_crash "$rc" out.txt && fail "crash or timeout (rc $rc after ${secs}s)"
grep -q 'broken pipe' err.txt && fail "headroom stopped reading the stream (rc $rc): $(head -c 200 out.txt)"
grep -qiE "$THERMAL_RX" out.txt || fail "no thermal verdict for 12M rows (rc $rc): $(head -c 200 out.txt)"
[ "$rss" -lt 97656 ] || fail "peak RSS $(( rss / 1024 )) MiB for 12M streamed rows (limit 100 MB)"
pass "peak RSS $(( rss / 1024 )) MiB, ${secs}s"
