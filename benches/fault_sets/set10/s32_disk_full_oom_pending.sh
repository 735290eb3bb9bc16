#!/bin/bash
# s32: an OOM's pending step and a full disk.
# (a) The OOM is saved (ladder step 1, the page-cache flush, waits for a yes); then
#     the disk fills; the restart starts read-only and still says what is pending,
#     as a restart of an unfilled copy of the directory does (control).
# (b) The disk fills before the OOM is reported (a 6 KB traceback, bigger than any
#     partly used page): the OOM's reply (step 1) is still shown, with "not saved".
SID=s32
source "$(dirname "$(readlink -f "$0")")/lib/common.sh" "$@"

LADDER='page cache|flush|drop_caches|step 1'
M=$WORK/m; mount_tmpfs "$M" size=2m
D=$M/d; mkdir -m 700 "$D"
printf ">>> turn\n%s\n>>> turn\nit OOM'd at step 340, mid-step\n" "$RUN" >script1
drive s1 40 --env HEADROOM_NOW=$T0 -- --data-dir "$D" <script1
drive_ok s1
wm "$LADDER" $(SL s1 2) || fail "control [W]: the OOM's reply does not name ladder step 1 (the page-cache flush)"
R=$(mkdata ref); cp -a "$D/." "$R/"; rm -f "$R/lock" "$D/lock"
fill "$M"
printf ">>> turn\nwhat's next?\n" >script2
drive a 40 --env HEADROOM_NOW=$(at 600) -- --data-dir "$D" <script2
drive ref 40 --env HEADROOM_NOW=$(at 600) -- --data-dir "$R" <script2
drive_ok a; drive_ok ref
[ "$(cat "$WORK/a/rc")" = 0 ] || fail "(a) the restart on a full disk did not end with exit 0 (rc=$(cat "$WORK/a/rc"))"
if wm "$LADDER" "$(S ref 0)" "$(S ref 1)"; then
  wm "$LADDER" "$(S a 0)" "$(S a 1)" || fail "[W] (a) on a full disk the restart no longer says the OOM's pending step (the unfilled copy does)"
else
  fail "control [W]: (a) the restart of the unfilled copy does not say the OOM's pending step either"
fi
wm 'read-only|read only|not saved|cannot write|can.t write|could not write|no space|disk is full|disk full' "$WORK/a/all" "$WORK/a/err" || fail "[W] (a) the restart on a full disk does not say it cannot save"
# (b)
M2=$WORK/m2; mount_tmpfs "$M2" size=2m
D2=$M2/d; mkdir -m 700 "$D2"
{ echo ">>> turn"; echo "$RUN"; echo ">>> sh"
  echo "for i in 1 2 3; do dd if=/dev/zero of='$M2'/.filler\$i bs=\$((65536 >> (i * 3))) 2>/dev/null; done"
  echo ">>> turn"
  long_traceback 40
  echo ">>> turn"; echo "$Q_GMU"; } >script_b
drive b 40 --env HEADROOM_NOW=$T0 -- --data-dir "$D2" <script_b
drive_ok b
wm "$LADDER" $(SL b 2) || fail "[W] (b) the OOM reported on a full disk got no ladder step"
wm 'not saved' $(SL b 2) || fail "[W] (b) the OOM reported on a full disk does not say 'not saved'"
present "(b) the session goes on" "121.69" $(SL b 3)
r=$(tool jsonl "$D2/transcript.jsonl") || fail "(b) the transcript is torn: $r"
finish
