#!/usr/bin/env bash
# Family: approvals out of their moment. Session A proposes stopping vLLM and ends without an answer.
# Session B (five minutes later, same data dir) gets a bare "yes": a stop applies only in the session that
# proposed it, so no kill, a fresh listing is asked for. Control: in a session that proposed it, "yes"
# shows kill 41500.
source "$(dirname "$0")/_lib.sh"; setup_env
listing 41500 > ps.txt
chat outA "$W/d" "$T0" "$(steps turn "$RUN_TXT" file "$W/ps.txt")"
crash_chat outA && fail "A: crash (rc $(cat outA/rc))"
chat outB "$W/d" "$(at 300)" "$(steps turn "yes" turn "yes, go ahead")"
crash_chat outB && fail "B: crash (rc $(cat outB/rc))"
has_kill outB/all.txt 41500 && fail "another session's yes printed kill 41500"
chat outC "$W/dc" "$T0" "$(steps turn "$RUN_TXT" file "$W/ps.txt" turn "yes")"
has_kill outC/all.txt 41500 || fail "control: yes in the proposing session did not show kill 41500"
pass
