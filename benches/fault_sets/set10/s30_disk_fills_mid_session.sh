#!/bin/bash
# s30: the disk fills between two turns.  Turn 1 (the run) is saved; then the tmpfs
# is filled; turn 2 is a 10 KB ps listing (bigger than any partly used page);
# turn 3 a question.  The listing's reply is still shown with "This turn is not
# saved", the session goes on, and the transcript never ends inside a record.  A
# restart while still full starts and answers; after space is freed, a restart
# recomputes the saved run's peak as before.
SID=s30
source "$(dirname "$(readlink -f "$0")")/lib/common.sh" "$@"

M=$WORK/m; mount_tmpfs "$M" size=2m
D=$M/d; mkdir -m 700 "$D"
{ echo ">>> turn"; echo "$RUN"
  echo ">>> sh"; echo "cp '$D/transcript.jsonl' '$WORK/t1.jsonl'"
  echo "for i in 1 2 3; do dd if=/dev/zero of='$M'/.filler\$i bs=\$((65536 >> (i * 3))) 2>/dev/null; done"
  echo ">>> turn"; big_listing 64; echo ">>> turn"; echo "$Q_GMU"; } >script
drive a 45 --env HEADROOM_NOW=$T0 -- --data-dir "$D" <script
drive_ok a
note "free after the fill: $(df -k "$M" | tail -1 | awk '{print $4}') KiB"
[ "$(cat "$WORK/a/rc")" = 0 ] || fail "the session did not end with exit 0 (rc=$(cat "$WORK/a/rc"))"
grep -aq 'packing 2048' "$WORK/t1.jsonl" 2>/dev/null || fail "control: turn 1 was not in the transcript before the fill"
present "the listing's reply shown on a full disk" "41500" $(SL a 2)
wm 'not saved' $(SL a 2) || fail "[W] the turn written to a full disk does not say 'not saved'"
present "the session goes on after the failed write" "121.69" $(SL a 3)
r=$(tool jsonl "$D/transcript.jsonl") || fail "the transcript ends inside a record or holds a torn one after the full disk: $r"
p1=$(tool peaks $(SL a 1) | head -1)
# restart, still full
printf '>>> turn\nwill it fit?\n' >script2
drive b 45 --env HEADROOM_NOW=$(at 300) -- --data-dir "$D" <script2
drive_ok b
[ "$(cat "$WORK/b/rc")" = 0 ] || fail "a restart on the still-full disk did not end with exit 0 (rc=$(cat "$WORK/b/rc"))"
present "restart on a full disk answers" "peak" $(SL b 1)
# space freed
unfill "$M"
drive c 45 --env HEADROOM_NOW=$(at 600) -- --data-dir "$D" <script2
drive_ok c
pc=$(tool peaks $(SL c 1) | head -1)
[ -n "$p1" ] && [ "$pc" = "$p1" ] || fail "after space was freed the saved run's peak is '$pc', it was '$p1'"
finish
