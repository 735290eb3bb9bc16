#!/usr/bin/env bash
# Family: absurd data, measured. A thermal CSV with a 300 MB line (no newline inside) between good rows.
# Lines are bounded at 64 KiB and the input streams in bounded memory: peak RSS under 100 MB, no crash,
# an answer within a minute.
source "$(dirname "$0")/_lib.sh"; setup_env
newdir "$W/oneshot"; good_thermal "$W/t"
"$PY" - "$W/t/thermal.csv" "$W/t/wide.csv" <<'PY'
import sys
src = open(sys.argv[1]).read().splitlines(True)
with open(sys.argv[2], 'w') as f:
    f.writelines(src[:100])
    chunk = '9' * (1 << 20)
    f.write('2026/11/29 14:50:00.000, 71, ')
    for _ in range(300):
        f.write(chunk)
    f.write(' W, 2400 MHz, 97 %\n')
    f.writelines(src[100:])
PY
"$PY" - "$HR" "$W/t/wide.csv" "$W/t/train.log" "$T0" "$W/oneshot" > res.txt <<'PY'
import os, resource, subprocess, sys, time
hr, csv, log, now, dd = sys.argv[1:6]
env = dict(os.environ, HEADROOM_NOW=now, HEADROOM_DATA_DIR=dd)
t0 = time.time()
rc = subprocess.call(['timeout', '60', hr, 'thermal', csv, '--train-log', log], stdout=open('out.txt', 'wb'),
                     stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env)
print(rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, round(time.time() - t0, 1))
PY
read -r rc rss secs < res.txt
is_crash "$rc" out.txt && fail "crash or timeout (rc $rc after ${secs}s)"
[ -s out.txt ] || fail "no output at all"
[ "$rss" -lt 97656 ] || fail "peak RSS $(( rss / 1024 )) MiB for a 300 MB line (limit 100 MB)"
pass "rc $rc, peak RSS $(( rss / 1024 )) MiB, ${secs}s"
