#!/usr/bin/env bash
# Family 6. A /proc/meminfo pasted in the chat whose MemTotal, MemFree and MemAvailable are 2^64-1 kB (so
# kB → bytes overflows 64 bits). No crash or panic (overflow checks are on in release), no NaN/inf shown,
# and the session goes on: "will it fit?" gets a verdict word and the question is answered (121.69).
source "$(dirname "$0")/_lib.sh"; setup_env
cat > mi.txt <<'P'
MemTotal:       18446744073709551615 kB
MemFree:        18446744073709551615 kB
MemAvailable:   18446744073709551615 kB
Buffers:                   0 kB
Cached:                    0 kB
SwapCached:                0 kB
SwapTotal:                 0 kB
SwapFree:                  0 kB
P
chat out "$W/d" "$T0" "$(steps turn "$RUN_TXT" file "$W/mi.txt" turn "will it fit?" turn "$Q_GMU")"
crash_chat out && fail "crash or panic (rc $(cat out/rc)): $(grep -m1 -i panick out/all.txt)"
grep -qiE '(^|[^a-z])(nan|inf|infinity)([^a-z]|$)' out/all.txt && fail "NaN/inf shown: $(grep -m1 -iE '(^|[^a-z])(nan|inf)' out/all.txt)"
[ -s out/slice_2.txt ] || fail "no reply to the meminfo paste"
grep -qiE 'does not fit|\bfits\b|\btight\b' out/slice_3.txt || fail "'will it fit?' after the paste gets no verdict word"
around out 4 | grep -q '121\.69' || fail "the session did not go on (question unanswered)"
[ "$(cat out/rc)" = 0 ] || fail "exit $(cat out/rc)"
pass
