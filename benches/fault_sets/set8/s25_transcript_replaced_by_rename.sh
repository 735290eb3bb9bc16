#!/usr/bin/env bash
# s25: while a session runs, an editor saves transcript.jsonl by rename (same content, new
# inode). Later turns are still answered in full (not just "Noted"), land in the new file,
# and the replacement is said exactly once. A restart remembers the adopted what-if.
# (b) Between sessions transcript.jsonl is replaced by a symlink to a file outside the data
# directory: no session writes through it (README: no file in it opened through a symlink).
SID=s25
. "$(dirname "$0")/lib.sh" "$@"

D=$(mkdd data)
live_start A "$NOW0" "$D"
live_send "$RUN_TXT"
wait_turn A "$PEAK2" 8 || bad "live: no plan within 8 s"
TR=$(transcript_of "$D")
I0=$(stat -c %i "$TR" 2>/dev/null)
python3 "$FX" replace_by_rename "$TR"
I1=$(stat -c %i "$TR" 2>/dev/null)
[ -n "$I0" ] && [ "$I0" != "$I1" ] || bad "setup: the transcript's inode did not change ($I0 -> $I1)"
live_send "what if batch 4?"
wait_turn A "$PEAK4" 8 || bad "after the rename, the what-if was not answered"
live_send "ok, do that"
wait_turn A 'adopted' 8 || bad "after the rename, 'ok, do that' was not answered"
live_send "what if packing 2048?"
sleep 1.5
live_end
rc_is A 0 || bad "the session exited $(rc_of A)"
panicked A && bad "panicked"

n=$(count_flat A 'transcript[^.]{0,100}(replac|renam|new file|swapp|moved|another file)|(replac|renam|swapp|moved)[^.]{0,100}transcript')
[ "$n" -ge 1 ] || bad "[W] the replacement of the transcript was not said"
[ "$n" -le 1 ] || bad "[W] the replacement was said $n times (README: said once)"
python3 "$FX" line_with_ok "$TR" "what if batch 4"; r=$?
[ "$r" = 0 ] || bad "the turn after the rename is not a whole record in the new transcript (code $r)"
python3 "$FX" line_with_ok "$TR" "ok, do that" || bad "'ok, do that' is not in the new transcript"
jb=$(jsonl_bad "$TR"); [ -z "$jb" ] || bad "transcript line $jb is torn"
SZ0=$(size_of "$TR")
chat B "2026-11-29T15:01:00Z" "$D" "will it fit?"
rc_is B 0 || bad "the restart exited $(rc_of B)"
has B "$PEAK4" || bad "the restart lost the what-if adopted after the rename (no $PEAK4)"
[ "$(size_of "$TR")" -gt "$SZ0" ] || bad "control: a normal restart did not append to the transcript (the symlink check below is blind)"

# (b) between sessions the transcript is replaced by a symlink to a file outside the directory
OUT="$T/outside.jsonl"; cp "$TR" "$OUT"; rm -f "$TR"; ln -s "$OUT" "$TR"
H0=$(sha256sum <"$OUT")
chat C "2026-11-29T15:06:00Z" "$D" "will it fit?"
sane_rc C || bad "(b) the session with a symlinked transcript exited $(rc_of C)"
panicked C && bad "(b) panicked"
[ "$(sha256sum <"$OUT")" = "$H0" ] || bad "(b) a session wrote through a symlink in the data directory"
finish
