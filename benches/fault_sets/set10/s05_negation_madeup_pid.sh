#!/bin/bash
# s05: the model keeps every placeholder but writes "no, don't stop it" right after
# the first one, and invents a stop: "Also stop pid 1024, it is a leftover worker;
# I would kill 1024 first."  No pid 1024 is anywhere in the owner's data.
SID=s05
source "$(dirname "$(readlink -f "$0")")/lib/common.sh" "$@"

start_llm m ops --ops '[["after_ph",": no, do not stop it",true],["append","Also stop pid 1024, it is a leftover worker; I would kill 1024 first."]]'
{ echo ">>> turn"; echo "$RUN"; echo ">>> turn"; listing
  printf '>>> turn\nyes\n>>> turn\n%s\n' "$Q_GMU"; } >script
plain_session p script
llm_session l "$(spec_oai "$m_PORT")" script
drive_ok p; drive_ok l
asked m "model run"
offer m "1024" "model run"
has_kill 41500 $(SL p 3) || fail "control: the plain run's yes did not show kill 41500"
has_kill 41500 $(SL l 3) || fail "the yes did not show kill 41500 with the model (decisions are headroom's)"
kills "$WORK/l/all" | grep -qx 1024 && fail "kill 1024 (a pid the model made up) shown"
for s in "do not stop" "don't stop" "1024" "leftover"; do le_count "model's negation or pid on screen" "$s" "$WORK/p/all" "$WORK/l/all"; done
why_line p l "guard refusal"
finish
