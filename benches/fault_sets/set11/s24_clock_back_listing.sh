#!/usr/bin/env bash
# Family: approvals, clock going back. Session A (a day ahead of the real time) proposes stopping vLLM.
# Session B runs with the clock set back a day: A's listing is dated in the future. Never one dated in
# the future (and never another session's): "yes" and "stop vllm" + "yes" show no kill. Control: a
# fresh listing pasted in B proposes it here, and B's yes shows kill 41500.
source "$(dirname "$0")/_lib.sh"; setup_env
listing 41500 > ps.txt
chat outA "$W/d" "$(at 86400)" "$(steps turn "$RUN_TXT" file "$W/ps.txt")"
crash_chat outA && fail "A: crash (rc $(cat outA/rc))"
chat outB "$W/d" "$(at 600)" "$(steps turn "yes" turn "stop vllm" turn "yes" file "$W/ps.txt" turn "yes")"
crash_chat outB && fail "B: crash (rc $(cat outB/rc))"
upto outB 3 > before.txt
has_kill before.txt 41500 && fail "a listing dated in the future got kill 41500"
around outB 5 > after.txt
has_kill after.txt 41500 || fail "control: a fresh listing and yes in B did not show kill 41500"
pass
