#!/usr/bin/env bash
# Family: approvals on absurd pids. pid 41500 is listed twice, once as an uncapped vLLM and once as
# Ollama (a listing glued from two moments). A pid listed twice is shown once, flagged, not judged: no
# kill 41500. Control: the clean listing gets kill 41500 after yes.
source "$(dirname "$0")/_lib.sh"; setup_env
{ echo "$ps_header"; ps_vllm 41500; ps_ollama 41500; } > ps.txt
listing 41500 > ps_ctl.txt
HEADROOM_DATA_DIR="$W/dp" HEADROOM_NOW=$T0 timeout 30 "$HR" procs ps.txt --need 40 > procs.txt 2>&1; rc=$?
is_crash $rc procs.txt && fail "procs: crash (rc $rc)"
grep -q '41500' procs.txt || fail "control: procs does not show pid 41500 at all"
grep -qi 'not judged' procs.txt || fail "procs: the duplicated pid is not \"not judged\""
chat out "$W/d" "$T0" "$(steps turn "$RUN_TXT" file "$W/ps.txt" turn "yes")"
crash_chat out && fail "chat: crash (rc $(cat out/rc))"
has_kill out/all.txt 41500 && fail "a duplicated pid got kill 41500"
chat outC "$W/dc" "$T0" "$(steps turn "$RUN_TXT" file "$W/ps_ctl.txt" turn "yes")"
has_kill outC/all.txt 41500 || fail "control: the clean listing did not show kill 41500"
pass
