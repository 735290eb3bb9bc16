#!/usr/bin/env bash
# Family: approvals out of their moment. A listing from three days and two hours ago showed vLLM at
# 41500. Now the owner says "stop vllm" and "yes": the listing is over an hour old, so no command and a
# fresh listing is asked for. The fresh listing shows vLLM at 41600 and pid 41500 reused by a shell; its
# yes must kill 41600 (control) and never 41500.
source "$(dirname "$0")/_lib.sh"; setup_env
listing 41500 > old.txt
{ echo "$ps_header"; ps_vllm 41600
  echo "owner      41500  0.0  0.0  10500  4200 pts/1    Ss   16:20   0:00 -bash"; } > fresh.txt
chat outA "$W/d" "$T0" "$(steps turn "$RUN_TXT" file "$W/old.txt")"
crash_chat outA && fail "A: crash (rc $(cat outA/rc))"
chat outB "$W/d" "$(at $(( 3*86400 + 7200 )))" "$(steps turn "stop vllm" turn "yes" file "$W/fresh.txt" turn "yes")"
crash_chat outB && fail "B: crash (rc $(cat outB/rc))"
upto outB 2 > before.txt
has_kill before.txt 41500 && fail "a three-day-old listing's pid got a kill command"
has_kill outB/all.txt 41500 && fail "kill 41500 was shown (pid reused by -bash in the fresh listing)"
around outB 4 > after.txt
has_kill after.txt 41600 || fail "control: yes after the fresh listing did not show kill 41600"
pass
