#!/usr/bin/env bash
# s44 (family 4, 10M-row CSV): ten million 1 Hz samples whose values change on every row (about 530 MB),
# piped on stdin: `cat FILE | headroom thermal - --train-log LOG`.
# Expect: a thermal verdict, peak RSS under 100 MB (97,656 KiB), within 60 s, no crash.
# Control: the file really holds more than 500 MB.
. "$(dirname "$0")/_lib.sh"; setup_env
mkdir -p "$W/t"
"$PY" "$H/_gen.py" noisy "$W/t/big.csv" rows=10000000
"$PY" "$H/_gen.py" trainlog "$W/t/train.log"
sz=$(stat -c %s "$W/t/big.csv"); [ "$sz" -gt 500000000 ] || fail "control: the CSV is only $sz bytes"
s=$(now_s)
cat "$W/t/big.csv" | HEADROOM_DATA_DIR="$W/oneshot" HEADROOM_NOW="$T0" timeout -k 3 90 /usr/bin/time -f '%M' -o "$W/rss.txt" "$HR" thermal - --train-log "$W/t/train.log" > "$W/o.out" 2>&1
rc=${PIPESTATUS[1]}; el=$(elapsed "$s" "$(now_s)")
rm -f "$W/t/big.csv"
kb=$(tail -n 1 "$W/rss.txt" | tr -dc 0-9); kb=${kb:-0}
is_crash "$rc" "$W/o.out" && fail "crash or timeout (exit $rc after ${el}s)"
grep -Eiq "$THERMAL_RX" "$W/o.out" || fail "no verdict (exit $rc): $(head -c 200 "$W/o.out")"
[ "$kb" -gt 0 ] && [ "$kb" -lt 97656 ] || fail "peak RSS $((kb/1024)) MiB on stdin"
lt "$el" 60 || fail "took ${el}s"
pass "peak RSS $((kb/1024)) MiB, ${el}s"
