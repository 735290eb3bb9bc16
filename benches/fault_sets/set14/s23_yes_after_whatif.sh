#!/usr/bin/env bash
# s23: a stop is proposed, then the owner asks "what if batch 4?" (a side-by-side that ends with its own question,
# "Say ok, do that to adopt it"), then types "yes". Interpretation: the yes answers the question on screen, not the stop
# two turns up; no kill in that reply. Control: yes right after the proposal kills 41500.
. "$(dirname "$0")/_lib.sh"; setup_env
chat out "$W/d" "$T0" "$(steps turn "$RUN_TXT" turn "$LISTING" turn 'what if batch 4?' turn yes)"
ctl_yes_kills outC "$W/dC"
crash_chat out && fail "crash (rc $(cat out/rc))"
grep -q 41500 out/slice_2.txt || fail "control: the listing reply does not name 41500"
[ "$(peakset out/slice_3.txt | wc -w)" -ge 2 ] || fail "control: the what-if reply shows no side-by-side peaks"
k="$(kills_in out 4 4)"; [ -z "$k" ] || fail "the yes after the what-if question gave kill $k for the older stop proposal"
pass "the yes after an intervening what-if did not approve the older stop"
