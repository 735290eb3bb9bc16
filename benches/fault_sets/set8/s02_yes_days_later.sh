#!/usr/bin/env bash
# s02: a "yes" three days after the listing (pids get reused), and a "yes" in a session whose
# clock is a day BEFORE the listing (the listing is dated in the future): neither may give a
# kill command. Control: a fresh listing three days later, then yes, gives `kill 415002`.
SID=s02
. "$(dirname "$0")/lib.sh" "$@"

LST="$(listing 415002)"
D=$(mkdd data)

chat a "$NOW0" "$D" "$RUN_TXT

$LST"
chat b "2026-12-02T15:00:00Z" "$D" "yes

yes, stop it

yes"
chat p "2026-11-28T14:56:00Z" "$D" "yes"
chat c "2026-12-02T15:05:00Z" "$D" "$LST

yes"

for n in a b p c; do rc_is $n 0 || bad "session $n exited $(rc_of $n), want 0"; done
has a '415002' || bad "setup: the ps paste was not read"
has_kill b 415002 && bad "a yes three days later printed kill 415002 from a three-day-old listing"
has_kill p 415002 && bad "a yes in a session dated before the listing printed kill 415002"
has b '(fresh|new|current|again|re-?paste)[^.\n]{0,80}(ps\b|listing)|(ps aux|listing)[^.\n]{0,80}(fresh|again|new|older|old|hour|days|other session|another session)' \
  || bad "[W] the late yes did not ask for a fresh ps listing"
has_kill c 415002 || bad "control: a fresh listing and yes showed no kill 415002"
finish
