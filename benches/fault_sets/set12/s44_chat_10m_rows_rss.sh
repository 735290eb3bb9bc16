#!/usr/bin/env bash
# Family 6, measured. Ten million 1 Hz nvidia-smi rows (533 MB, 115 days) whose values change on every row,
# so no neighbours can be merged, typed as a path in the chat beside a training log. Thermal input streams in
# bounded memory: the chat session's peak RSS stays under 100 MB (VmHWM polled every 50 ms), a thermal
# verdict is given, and the session ends within 55 s.
source "$(dirname "$0")/_lib.sh"; setup_env
mkdir -p t
"$PY" "$H/_gen.py" noisy t/big.csv rows=10000000
"$PY" "$H/_gen.py" trainlog t/train.log minutes=180
[ "$(stat -c %s t/big.csv)" -gt 500000000 ] || fail "harness: the CSV was not written"
chat out "$W/d" "$T0" "$(steps turn "$W/t/big.csv and $W/t/train.log" until "$THERMAL_RX" wait 50)" '[]' '{}' 60
crash_chat out && fail "crash or timeout (rc $(cat out/rc))"
grep -qiE "$THERMAL_RX" out/all.txt || fail "no thermal verdict for 10M rows: $(head -c 200 out/slice_1.txt | tr '\n' ' ')"
kb=$(peak_kb out); [ "$kb" -gt 0 ] || fail "harness: no RSS measured"
[ "$kb" -lt 97656 ] || fail "peak RSS $(( kb / 1024 )) MiB for 10M rows typed in the chat (limit 100 MB)"
lt "$(sess_s out)" 55 || fail "the session took $(sess_s out)s"
rm -f t/big.csv
pass "peak RSS $(( kb / 1024 )) MiB, $(sess_s out)s"
