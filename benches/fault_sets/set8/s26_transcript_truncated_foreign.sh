#!/usr/bin/env bash
# s26: while a session runs, the transcript is truncated in place mid-record, and later
# another writer appends a torn foreign record (no newline). Each next record starts on a
# line of its own (the records of the later turns are whole JSON lines), and that is said.
# A restart starts (the torn lines are not fatal) and remembers the adopted what-if.
SID=s26
. "$(dirname "$0")/lib.sh" "$@"

D=$(mkdd data)
live_start A "$NOW0" "$D"
live_send "$RUN_TXT"
wait_turn A "$PEAK2" 8 || bad "live: no plan within 8 s"
TR=$(transcript_of "$D")
S=$(size_of "$TR")
[ "$S" -gt 20 ] || bad "setup: the transcript is only $S bytes after the first turn"
truncate -s $((S - 7)) "$TR"
live_send "what if batch 4?"
wait_turn A "$PEAK4" 8 || bad "after the truncation, the what-if was not answered"
printf '{"foreign": "a record from another program, torn' >>"$TR"
live_send "ok, do that"
wait_turn A 'adopted' 8 || bad "after the foreign append, 'ok, do that' was not answered"
live_end
rc_is A 0 || bad "the session exited $(rc_of A)"
panicked A && bad "panicked"
python3 "$FX" line_with_ok "$TR" "what if batch 4"; r=$?
[ "$r" = 0 ] || bad "the record after the truncation is not on a line of its own (code $r)"
python3 "$FX" line_with_ok "$TR" "ok, do that"; r=$?
[ "$r" = 0 ] || bad "the record after the foreign torn record is not on a line of its own (code $r)"
has A 'cut short|truncat|shorter|shrank|foreign|something else|another (program|process|writer)|not ours|own line|new line|changed under' \
  || bad "[W] the truncation / foreign write was not said"
cp "$TR" "$T/selftest.jsonl"; printf '{"torn' >>"$T/selftest.jsonl"
python3 "$FX" line_with_ok "$T/selftest.jsonl" '{"torn'; [ $? = 3 ] || bad "control: the line check cannot see a torn line"
chat B "2026-11-29T15:01:00Z" "$D" "will it fit?"
rc_is B 0 || bad "the restart exited $(rc_of B)"
has B "$PEAK4" || bad "the restart lost the adopted what-if (no $PEAK4)"
finish
