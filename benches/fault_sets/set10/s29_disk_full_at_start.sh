#!/bin/bash
# s29: a session starts where nothing can be written.
# (a) the data directory is on a tmpfs that is already full (a fresh directory:
#     no transcript yet);  (b) the tmpfs holding a directory with a transcript is
#     remounted read-only;  (c) control: a tmpfs with room.
# It must start read-only, answer every turn, say so, and exit 0.
SID=s29
source "$(dirname "$(readlink -f "$0")")/lib/common.sh" "$@"

printf '>>> turn\n%s\n>>> turn\n%s\n' "$RUN" "$Q_GMU" >script
# (a)
mount_tmpfs "$WORK/ma" size=512k
mkdir -m 700 "$WORK/ma/d"; fill "$WORK/ma"
drive a 40 --env HEADROOM_NOW=$T0 -- --data-dir "$WORK/ma/d" <script
drive_ok a
[ "$(cat "$WORK/a/rc")" = 0 ] || fail "(a) full disk at start: exit $(cat "$WORK/a/rc"), not 0"
present "(a) plan shown on a full disk" "peak" $(SL a 1)
present "(a) question answered on a full disk" "121.69" $(SL a 2)
wm 'read-only|read only|not saved|cannot write|can.t write|could not write|no space|disk is full|disk full' "$WORK/a/all" "$WORK/a/err" || fail "[W] (a) the owner is not told the session cannot be saved"
if [ -s "$WORK/ma/d/transcript.jsonl" ]; then
  r=$(tool jsonl "$WORK/ma/d/transcript.jsonl") || fail "(a) the transcript on the full disk is damaged: $r"
fi
# (b)
mount_tmpfs "$WORK/mb" size=4m
mkdir -m 700 "$WORK/mb/d"
printf '>>> turn\n%s\n' "$RUN" >script_b0
drive b0 40 --env HEADROOM_NOW=$T0 -- --data-dir "$WORK/mb/d" <script_b0
rm -f "$WORK/mb/d/lock"
mount -o remount,ro "$WORK/mb" || { fail "needs root: remounting $WORK/mb read-only failed"; finish; }
printf '>>> turn\nwill it fit?\n>>> turn\n%s\n' "$Q_GMU" >script_b
drive b 40 --env HEADROOM_NOW=$(at 600) -- --data-dir "$WORK/mb/d" <script_b
drive_ok b
[ "$(cat "$WORK/b/rc")" = 0 ] || fail "(b) read-only filesystem: exit $(cat "$WORK/b/rc"), not 0"
present "(b) plan shown on a read-only filesystem" "peak" $(SL b 1)
present "(b) question answered on a read-only filesystem" "121.69" $(SL b 2)
wm 'read-only|read only|not saved|cannot write|can.t write|could not write' "$WORK/b/all" "$WORK/b/err" || fail "[W] (b) the owner is not told the session is read-only"
# (c) control
mount_tmpfs "$WORK/mc" size=4m
mkdir -m 700 "$WORK/mc/d"
drive c 40 --env HEADROOM_NOW=$T0 -- --data-dir "$WORK/mc/d" <script
grep -aq 'packing 2048' "$WORK/mc/d/transcript.jsonl" 2>/dev/null || fail "control: (c) on a tmpfs with room the turn is not in transcript.jsonl, so (a)'s transcript check saw nothing"
r=$(tool jsonl "$WORK/mc/d/transcript.jsonl") || fail "control: (c) the transcript with room is not valid JSON lines: $r"
finish
