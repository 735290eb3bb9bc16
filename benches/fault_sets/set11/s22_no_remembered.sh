#!/usr/bin/env bash
# Family: approvals. Session A says "no" to stopping vLLM. Session B pastes a fresh, identical listing
# and says "yes": the no is remembered even across a fresh listing, so no kill. Then B asks for that stop
# by name ("stop vllm"), which proposes it again, and "yes" shows kill 41500 (the control).
source "$(dirname "$0")/_lib.sh"; setup_env
listing 41500 > ps.txt
chat outA "$W/d" "$T0" "$(steps turn "$RUN_TXT" file "$W/ps.txt" turn "no")"
crash_chat outA && fail "A: crash (rc $(cat outA/rc))"
has_kill outA/all.txt 41500 && fail "A: a no showed kill 41500"
chat outB "$W/d" "$(at 600)" "$(steps file "$W/ps.txt" turn "yes" turn "stop vllm" turn "yes")"
crash_chat outB && fail "B: crash (rc $(cat outB/rc))"
upto outB 2 > before.txt
has_kill before.txt 41500 && fail "the remembered no was replayed as a yes: kill 41500 before the stop was asked for by name"
around outB 4 > after.txt
has_kill after.txt 41500 || fail "control: 'stop vllm' then yes did not show kill 41500"
pass
