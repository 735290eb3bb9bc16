#!/usr/bin/env bash
# Family 4. Beside a good uncapped vLLM at 41500, uncapped vLLM rows whose pid column reads 4194305 (one over
# the kernel's limit), -0, 00, +41501 and 0x1f. After "yes" and "stop them all" + "yes", the only pid that
# may get a signal command is 41500 (control: it does); no command names 0, -0, 00, +41501, 0x1f or 4194305.
# `procs --json` lists 4194305 among damaged_pids.
source "$(dirname "$0")/_lib.sh"; setup_env
{ echo "$ps_header"; ps_vllm 41500
  for p in 4194305 -0 00 +41501 0x1f; do
    printf 'owner %10s  1.0 30.0 102144400 37185920 ?    Sl   13:05   2:11 python3 -m vllm.entrypoints.openai.api_server --model Qwen/Qwen2.5-7B-Instruct --port 80%02d\n' "$p" $((RANDOM % 90 + 10))
  done; } > ps.txt
HEADROOM_DATA_DIR="$W/dp" HEADROOM_NOW=$T0 timeout 30 "$HR" procs ps.txt --need 40 --json > procs.json 2> procs.err; rc=$?
is_crash $rc procs.json procs.err && fail "procs --json: crash (rc $rc)"
grep -q '4194305' procs.json || fail "procs --json does not name 4194305"
"$PY" - procs.json <<'PY' || fail "procs --json: 4194305 is not in damaged_pids"
import json, sys
d = json.load(open(sys.argv[1]))
def find(o):
    if isinstance(o, dict):
        for k, v in o.items():
            if k == 'damaged_pids': return v
            r = find(v)
            if r is not None: return r
    if isinstance(o, list):
        for v in o:
            r = find(v)
            if r is not None: return r
sys.exit(0 if '4194305' in json.dumps(find(d)) else 1)
PY
chat out "$W/d" "$T0" "$(steps turn "$RUN_TXT" file "$W/ps.txt" turn "yes" turn "stop them all" turn "yes")"
crash_chat out && fail "chat: crash (rc $(cat out/rc))"
bad="$(kills out/all.txt | tr ' ' '\n' | grep -vxE '41500|' | tr '\n' ' ')"
[ -z "$bad" ] || fail "a signal command for pid(s) [$bad]"
grep -E '(^|[^[:alnum:]-])kill([^[:alnum:]-]|$)' out/all.txt | grep -qE '0x1f|\+41501|(^|[[:space:]])-0([^0-9]|$)|(^|[[:space:]])00([^0-9]|$)' && fail "a kill line names an absurd pid form"
has_kill out/all.txt 41500 || fail "control: the good row 41500 got no kill command after yes"
pass
