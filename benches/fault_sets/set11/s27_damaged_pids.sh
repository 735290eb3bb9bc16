#!/usr/bin/env bash
# Family: approvals on absurd pids. Uncapped vLLM rows whose pid column is damaged (a leading zero:
# 041500; over the kernel's 4,194,304: 5000000) beside a good capped row. Damaged rows are named, never
# dropped silently (`damaged_pids` in --json) and never stopped.
source "$(dirname "$0")/_lib.sh"; setup_env
{ echo "$ps_header"; ps_vllm 041500; ps_vllm 5000000; ps_vllm_capped 41800 0.15; } > ps.txt
listing 41500 > ps_ctl.txt
HEADROOM_DATA_DIR="$W/dp" HEADROOM_NOW=$T0 timeout 30 "$HR" procs ps.txt --need 40 > procs.txt 2>&1; rc=$?
is_crash $rc procs.txt && fail "procs: crash (rc $rc)"
grep -q '41800' procs.txt || fail "control: the good row 41800 is not shown"
grep -i 'damaged' procs.txt | grep -q '041500' || fail "procs: 041500 not named as damaged"
grep -i 'damaged' procs.txt | grep -q '5000000' || fail "procs: 5000000 not named as damaged"
HEADROOM_DATA_DIR="$W/dp" HEADROOM_NOW=$T0 timeout 30 "$HR" procs ps.txt --need 40 --json > procs.json 2>/dev/null; rc=$?
is_crash $rc procs.json && fail "procs --json: crash (rc $rc)"
"$PY" - procs.json <<'PY' || fail "procs --json: damaged_pids missing or incomplete"
import json, sys
d = json.load(open(sys.argv[1]))
def find(o):
    if isinstance(o, dict):
        for k, v in o.items():
            if k == 'damaged_pids':
                return v
            r = find(v)
            if r is not None: return r
    if isinstance(o, list):
        for v in o:
            r = find(v)
            if r is not None: return r
    return None
v = find(d)
s = json.dumps(v)
sys.exit(0 if v and '5000000' in s and '41500' in s else 1)
PY
chat out "$W/d" "$T0" "$(steps turn "$RUN_TXT" file "$W/ps.txt" turn "yes")"
crash_chat out && fail "chat: crash (rc $(cat out/rc))"
bad="$(kills out/all.txt | tr ' ' '\n' | grep -xE '41500|5000000' | tr '\n' ' ')"
[ -z "$bad" ] || fail "a damaged pid got a kill command [$bad]"
chat outC "$W/dc" "$T0" "$(steps turn "$RUN_TXT" file "$W/ps_ctl.txt" turn "yes")"
has_kill outC/all.txt 41500 || fail "control: the clean listing did not show kill 41500"
pass
