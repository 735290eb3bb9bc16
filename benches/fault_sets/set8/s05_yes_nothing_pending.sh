#!/usr/bin/env bash
# s05: "yes" with nothing pending (first turn, and after a plan that proposes nothing) must
# not produce a kill, a cache flush command or an adoption. Controls: a stop flow shows
# `kill 415002`; an OOM flow's yes shows the drop_caches command; a what-if adopted with
# "ok, do that" shows "Adopted".
SID=s05
. "$(dirname "$0")/lib.sh" "$@"

A=$(mkdd a); B=$(mkdd b); C=$(mkdd c)
chat a "$NOW0" "$A" "yes

$RUN_TXT

yes

yes, do it

go ahead"
chat b "$NOW0" "$B" "$RUN_TXT

what if batch 4?

ok, do that

$(listing 415002)

yes"
chat c "$NOW0" "$C" "$RUN_TXT

OOM at step 340

yes"

for n in a b c; do rc_is $n 0 || bad "session $n exited $(rc_of $n), want 0"; done
has a "$PEAK2" || bad "setup: the run was not planned (no $PEAK2)"
has_cs a 'drop_caches' && bad "a yes with nothing pending produced the drop_caches command"
has a '\badopted\b' && bad "a yes with nothing pending adopted something"
has_cs a '(?<![\w-])kill[ \t]+(-\w+[ \t]+)*\d' && bad "a yes with nothing pending produced a kill command"
has b '\badopted\b' || bad "control: 'ok, do that' did not show Adopted"
has_kill b 415002 || bad "control: listing + yes showed no kill 415002"
has_cs c 'drop_caches' || bad "control: OOM + yes showed no drop_caches command"
finish
