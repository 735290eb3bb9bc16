#!/usr/bin/env bash
# s28: a `free -g` reading dated in the future (given in a session whose clock said
# 2027-03-09) is read by a session at 2026-11-29: it counts as stale, so the plan does not
# claim "fits now" / "right now" from it, and says the reading is stale / asks for a fresh
# one. Control: the same reading two minutes old does give "fits now" / "right now".
SID=s28
. "$(dirname "$0")/lib.sh" "$@"

A=$(mkdd fresh); C=$(mkdd future)
chat a1 "$NOW0" "$A" "$RUN_TXT

$FREE_TXT"
chat a2 "2026-11-29T14:58:00Z" "$A" "will it fit?"
chat c1 "2027-03-09T14:56:00Z" "$C" "$RUN_TXT

$FREE_TXT"
chat c2 "$NOW0" "$C" "will it fit?"

NOWCLAIM='fits now|right now'
for n in a1 a2 c1 c2; do rc_is $n 0 || bad "session $n exited $(rc_of $n)"; panicked $n && bad "$n panicked"; done
has a2 "$NOWCLAIM" || bad "control: a two-minute-old free -g gave no 'fits now'/'right now' (the check is blind)"
has c2 "$PEAK2" || bad "the session after the future-dated reading did not plan"
has c2 "$NOWCLAIM" && bad "a free -g dated in the future was used as fresh ('fits now'/'right now')"
has c2 'stale|future|fresh|old|out of date|no longer|ago|again' || bad "[W] the future-dated reading was not called stale / a fresh one asked for"
finish
