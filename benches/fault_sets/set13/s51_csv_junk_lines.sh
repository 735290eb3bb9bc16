#!/usr/bin/env bash
# s51 (family 4, hostile data): two hours of good samples with junk after every tenth row: a 70 KiB line
# (over the 64 KiB line limit), raw binary bytes 0x80-0xFF with NULs, an HTML error page, 5,000 commas.
# Expect: within 15 s, peak RSS under 100 MB, no crash; a verdict, or exit 2 with [W] a line saying what
# was wrong (line / KiB / long / binary / not read). Control: the clean samples give a verdict.
. "$(dirname "$0")/_lib.sh"; setup_env
good_thermal "$W/t"
"$PY" "$H/_gen.py" junk "$W/t/junk.csv"
rcall ctl 30 thermal "$W/t/thermal.csv" --train-log "$W/t/train.log"
grep -Eiq "$THERMAL_RX" "$W/ctl.out" || fail "control: no verdict for the clean samples"
rcall j 30 thermal "$W/t/junk.csv" --train-log "$W/t/train.log"
is_crash "$TC_RC" "$W/j.out" && fail "crash or hang (exit $TC_RC after ${TC_EL}s)"
lt "$TC_EL" 15 || fail "took ${TC_EL}s"
[ "$TC_RSS" -lt 97656 ] || fail "peak RSS $((TC_RSS/1024)) MiB"
if [ "$TC_RC" = 2 ]; then grep -Eiq 'line|KiB|long|binary|not read|could not read|cannot read|UTF' "$W/j.out" || fail "[W] exit 2 without saying what was wrong"
else grep -Eiq "$THERMAL_RX" "$W/j.out" || fail "exit $TC_RC without a verdict"; fi
pass "exit $TC_RC, ${TC_EL}s, $((TC_RSS/1024)) MiB"
