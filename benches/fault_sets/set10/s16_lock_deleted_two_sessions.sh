#!/bin/bash
# s16: session A runs (run + listing, a stop proposed).  The owner deletes the
# "stale" lock file and starts B on the same directory; then writes a lock file
# naming a dead pid and starts B' too.  Both must be refused without answering or
# writing a record.  A then says "no".  After A ends, a new session says "yes":
# no kill (A's no, and another session's stop).
SID=s16
source "$(dirname "$(readlink -f "$0")")/lib/common.sh" "$@"

D=$(mkdata d)
{ echo ">>> turn"; echo "$RUN"; echo ">>> turn"; listing
  cat <<EOF
>>> sh
rm -f "$D/lock"
bash "$LIB/oneturn.sh" "$BIN" "$D" "$(at 120)" "$WORK/b" 20 "what if batch 7?"
echo 4194000 >"$D/lock"
bash "$LIB/oneturn.sh" "$BIN" "$D" "$(at 150)" "$WORK/b2" 20 "what if batch 7?"
>>> turn
no
>>> turn
$Q_GMU
EOF
} >script_a
drive a 70 --env HEADROOM_NOW=$T0 -- --data-dir "$D" <script_a
drive_ok a
[ "$(cat "$WORK/a/rc")" = 0 ] || fail "session A did not end with exit 0 at the end of its input (rc=$(cat "$WORK/a/rc"))"
for b in b b2; do
  [ -f "$WORK/$b.rc" ] || { fail "setup: $b never ran"; continue; }
  no_crash "second session $b" "$(cat "$WORK/$b.rc")" "$WORK/$b.out" "$WORK/$b.err"
  [ "$(cat "$WORK/$b.ms")" -lt 10000 ] || fail "second session $b took $(cat "$WORK/$b.ms") ms to give up (it waited instead of being refused)"
  grep -aqiE 'peak [0-9]' "$WORK/$b.out" && fail "second session $b answered its turn (a plan figure) while A held the directory"
  wm 'another session|already|in use|lock|running|busy' "$WORK/$b.out" "$WORK/$b.err" || fail "[W] second session $b did not say why it was refused"
done
grep -aq 'batch 7' "$D/transcript.jsonl" 2>/dev/null && fail "a second session's turn ('what if batch 7?') was written into A's transcript"
for k in 2 3 4; do nokill "session A slice $k (listing, no, question)" "$(S a $k)"; done
present "A's question answered after the intruders" "121.69" $(SL a 4)
# a new session after A: its yes answers nothing
printf '>>> turn\nwhat if batch 6?\n>>> turn\nyes\n' >script_c
drive c 40 --env HEADROOM_NOW=$(at 300) -- --data-dir "$D" <script_c
drive_ok c
nokill "later session's yes (A said no; another session's stop)" $(SL c 2)
grep -aq 'batch 6' "$D/transcript.jsonl" 2>/dev/null || fail "control: a later session's turn ('batch 6') is not found in the transcript, so the 'batch 7' check could not see one"
# control: the same listing and a yes in the proposing session
E=$(mkdata e)
{ echo ">>> turn"; echo "$RUN"; echo ">>> turn"; listing; printf '>>> turn\nyes\n'; } >script_e
drive e 40 --env HEADROOM_NOW=$T0 -- --data-dir "$E" <script_e
has_kill 41500 $(SL e 3) || fail "control: the listing and a yes in the proposing session did not show kill 41500"
finish
