#!/usr/bin/env bash
# s22: the disk fills in the middle of a live session. The next turn (a 20 KB ps paste) is
# still answered and the owner is told "This turn is not saved"; the session goes on (a
# what-if is answered). The transcript never ends inside a record. A new session started
# while the disk is still full starts (read-only) and plans; after space is freed the next
# session starts normally.
SID=s22
. "$(dirname "$0")/lib.sh" "$@"

M="$T/mnt"; need_root_tmpfs "$M" 2m
D="$M/data"; mkdir "$D"; chmod 700 "$D"
python3 "$FX" biglisting "$T/ps20k.txt" 20000 S22MARK

live_start A "$NOW0" "$D"
live_send "$RUN_TXT"
wait_turn A "$PEAK2" 8 || bad "live: no plan within 8 s"
OFF_O=$(size_of "$T/A.out"); OFF_E=$(size_of "$T/A.err")
fill_disk "$M/fill"
live_send_file "$T/ps20k.txt"
wait_turn A '415002' 8 || bad "the reply to the paste was not shown on a full disk"
live_send "what if batch 4?"
wait_turn A "$PEAK4" 8 || bad "the session did not go on after the failed write"
live_end
TR=$(transcript_of "$D")
jb=$(jsonl_bad "$TR"); [ -z "$jb" ] || bad "after the failed write the transcript line $jb is torn"
chat B "2026-11-29T15:01:00Z" "$D" "will it fit?"
rm -f "$M/fill" "$M/fill.2"
chat C "2026-11-29T15:06:00Z" "$D" "will it fit?"

rc_is A 0 || bad "the live session exited $(rc_of A), want 0"
panicked A && bad "the live session panicked"
{ head -c "$OFF_O" "$T/A.out"; head -c "$OFF_E" "$T/A.err"; } >"$T/before.txt"
python3 "$FX" grep i "$NOTSAVED_RE" "$T/before.txt" && bad "control: 'not saved' already shown before the disk filled"
{ tail -c +"$((OFF_O + 1))" "$T/A.out"; tail -c +"$((OFF_E + 1))" "$T/A.err"; } | python3 "$FX" grep i "$NOTSAVED_RE" \
  || bad "[W] the turn that could not be written was not marked 'not saved'"
rc_is B 0 || bad "a start on the still-full disk exited $(rc_of B), want 0 (read-only)"
has B "$PEAK2|$PEAK4" || bad "the start on the full disk did not plan the remembered run"
has B "$NOTSAVED_RE" || bad "[W] the start on the full disk did not say it is read-only"
rc_is C 0 || bad "the session after freeing space exited $(rc_of C)"
has C "$PEAK2|$PEAK4" || bad "the session after freeing space did not remember the run"
jb=$(jsonl_bad "$TR"); [ -z "$jb" ] || bad "final transcript line $jb is torn"
printf '{"torn": "ha' >"$T/selftest.jsonl"; [ -n "$(jsonl_bad "$T/selftest.jsonl")" ] || bad "control: the torn-line check cannot see a torn line"
finish
