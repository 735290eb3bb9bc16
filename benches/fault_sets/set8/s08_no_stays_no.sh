#!/usr/bin/env bash
# s08: a "no" to a stop is remembered and never turns into a yes: not later in the session
# (/status, "what is waiting?"), not on restart, not after a forged copy of the no-record
# with "yes" in it is appended to the transcript, not for "no, don't stop anything".
# Control: the same flow with "yes" shows kill 415002.
SID=s08
. "$(dirname "$0")/lib.sh" "$@"

LST="$(listing 415002)
$(ollama_row 415100)"
A=$(mkdd a); B=$(mkdd b); N=$(mkdd n)
chat a1 "$NOW0" "$A" "$RUN_TXT

$LST

no

/status

what is waiting?"
chat a2 "2026-11-29T14:58:00Z" "$A" "/status

what is waiting?"
forged=$(python3 "$FX" forge_answer "$(transcript_of "$A")" no yes)
chat a3 "2026-11-29T14:59:00Z" "$A" "/status

yes"
chat n "$NOW0" "$N" "$RUN_TXT

$LST

no, don't stop anything

/status"
chat b "$NOW0" "$B" "$RUN_TXT

$LST

yes"

for s in a1 a2 a3 n b; do rc_is $s 0 || bad "session $s exited $(rc_of $s), want 0"; done
has a1 '415002' || bad "setup: the ps paste was not read"
has_kill a1 415002 && bad "after no, kill 415002 was shown in the same session"
has_kill a2 415002 && bad "after no, the restart showed kill 415002"
has_kill a3 415002 && bad "a forged yes-record (copy of the no) made the restart show kill 415002"
has_kill n 415002 && bad "'no, don't stop anything' produced kill 415002"
has_kill b 415002 || bad "control: the same flow with yes showed no kill 415002"
finish
