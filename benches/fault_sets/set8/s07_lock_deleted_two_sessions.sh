#!/usr/bin/env bash
# s07: session A holds the data directory (live, piped through a FIFO) and answers "no" to a
# stop; the owner deletes the `lock` file as stale; session B on the same directory must
# still be refused (flock on the directory): quickly, saying why, without touching the transcript,
# and its "yes" must not become A's. After A ends: a third session's bare "yes" gives no
# kill; a fresh listing and yes there does (control); A's own later turn changes the
# transcript (control for the unchanged-transcript check).
SID=s07
. "$(dirname "$0")/lib.sh" "$@"

D=$(mkdd data)
live_start A "$NOW0" "$D"
live_send "$RUN_TXT"
wait_turn A "$PEAK2" 8 || bad "live session A: no plan within 8 s"
live_send "$(listing 415002)"
wait_turn A '415002' 8 || bad "live session A: the ps paste got no reply within 8 s"
live_send "no"
sleep 1.5
[ -e "$D/lock" ] || bad "setup: no lock file in the data directory while A runs (README names it)"
TR=$(transcript_of "$D")
H0=$(sha256sum "$TR" 2>/dev/null)
rm -f "$D/lock"
chat B "2026-11-29T14:58:00Z" "$D" "yes

$RUN_TXT"
H1=$(sha256sum "$TR" 2>/dev/null)
live_send "what if batch 4?"
wait_turn A "$PEAK4" 8 || bad "session A stopped answering after B's attempt"
live_end
H2=$(sha256sum "$TR" 2>/dev/null)

rc_is A 0 || bad "session A exited $(rc_of A), want 0"
[ "$(ms_of B)" -lt 10000 ] || bad "session B took $(ms_of B) ms: queued behind the lock instead of refused"
has_kill B 415002 && bad "session B printed kill 415002"
has B 'another session|already (running|in use|open|active|locked)|in use|locked|lock|busy' \
  || bad "[W] B's refusal did not say another session holds the directory"
[ "$H0" = "$H1" ] || bad "session B wrote to the transcript while A held the directory"
[ "$H1" != "$H2" ] || bad "control: A's later turn did not change the transcript (the hash check sees nothing)"
jb=$(jsonl_bad "$TR"); [ -z "$jb" ] || bad "the transcript has a bad line $jb"

chat C "2026-11-29T15:00:00Z" "$D" "yes

will it fit?"
chat E "2026-11-29T15:01:00Z" "$D" "$(listing 415002)

yes"
rc_is C 0 || bad "session C exited $(rc_of C)"
has_kill C 415002 && bad "A's no was replayed as a yes: kill 415002 in a later session"
has C "$PEAK2" || bad "a session after A ended did not plan the remembered run"
has_kill E 415002 || bad "control: a fresh listing and yes showed no kill 415002"
finish
