#!/usr/bin/env bash
# Family: absurd data. A 17 GiB training log and a 9 GiB thermal CSV (sparse files): a file over its limit
# (log 16 GiB, CSV 8 GiB) is refused by its size before any of it is read: exit 2 within a couple of
# seconds, naming the size / limit. Typed in the chat, the turn is answered at once too.
source "$(dirname "$0")/_lib.sh"; setup_env
newdir "$W/oneshot"; good_thermal "$W/t"
truncate -s 17G "$W/t/huge.log" || fail "harness: cannot make a sparse file"
{ head -1 "$W/t/thermal.csv"; } > "$W/t/huge.csv"; truncate -s 9G "$W/t/huge.csv"
tcall ctl 30 thermal "$W/t/thermal.csv" --train-log "$W/t/train.log"
grep -qiE "$THERMAL_RX" ctl.out || fail "control: no verdict on the good inputs"
tcall a 20 thermal "$W/t/thermal.csv" --train-log "$W/t/huge.log"
is_crash $TC_RC a.out && fail "17 GiB log: crash or timeout (rc $TC_RC)"
[ "$TC_RC" = 2 ] || fail "17 GiB log: exit $TC_RC, want 2"
lt "$TC_EL" 3 || fail "17 GiB log: took ${TC_EL}s (read instead of refused by size?)"
grep -qiE 'GiB|GB|limit|too (big|large)' a.out || fail "[W] 17 GiB log: the size / limit is not named"
tcall b 20 thermal "$W/t/huge.csv" --train-log "$W/t/train.log"
is_crash $TC_RC b.out && fail "9 GiB CSV: crash or timeout (rc $TC_RC)"
[ "$TC_RC" = 2 ] || fail "9 GiB CSV: exit $TC_RC, want 2"
lt "$TC_EL" 3 || fail "9 GiB CSV: took ${TC_EL}s"
s=$(now_s)
chat out "$W/d" "$T0" "$(steps turn "$W/t/huge.csv and $W/t/train.log" turn "$RUN_TXT")"
el=$(elapsed "$s" "$(now_s)")
crash_chat out && fail "chat: crash or hang (rc $(cat out/rc))"
[ -s out/slice_1.txt ] || fail "chat: no answer in the turn naming the 9 GiB CSV"
grep -qi verdict out/all.txt || fail "chat: the session did not go on"
lt "$el" 12 || fail "chat: ${el}s"
pass
