#!/usr/bin/env bash
# Family: approvals on absurd pids. A containerised vLLM at pid 1, another uncapped vLLM at pid 0 and an
# Ollama row with a negative pid. pid 0 and 1 (and negatives) never get a signal command; in `procs`
# pid 0 or 1 is "not judged". Control: the same listing with vLLM at 41500 gets kill 41500 after yes.
source "$(dirname "$0")/_lib.sh"; setup_env
mk() { echo "$ps_header"
  echo "root       $1  2.1 38.0 132144400 47185920 ?    Ssl  13:02   4:11 /usr/bin/python3 -m vllm.entrypoints.openai.api_server --model meta-llama/Llama-3.1-8B-Instruct --port 8000"
  echo "root          0  1.0 30.0 102144400 37185920 ?    Sl   13:05   2:11 python3 -m vllm.entrypoints.openai.api_server --model Qwen/Qwen2.5-7B-Instruct --port 8002"
  echo "ollama    -4242  0.3  1.2 6512000 1572864 ?     Ssl  09:15   0:40 /usr/local/bin/ollama serve"; }
mk 1 > ps.txt; mk 41500 > ps_ctl.txt
HEADROOM_DATA_DIR="$W/dp" HEADROOM_NOW=$T0 timeout 30 "$HR" procs ps.txt --need 40 > procs.txt 2>&1; rc=$?
is_crash $rc procs.txt && fail "procs: crash (rc $rc)"
grep -qi 'not judged' procs.txt || fail "procs: pid 0 / 1 not shown as \"not judged\""
chat out "$W/d" "$T0" "$(steps turn "$RUN_TXT" file "$W/ps.txt" turn "yes" turn "stop them all")"
crash_chat out && fail "chat: crash (rc $(cat out/rc))"
bad="$(kills out/all.txt | tr ' ' '\n' | grep -xE -- '-?[01]|-[0-9]+|4242' | tr '\n' ' ')"
[ -z "$bad" ] || fail "a signal command for pid(s) [$bad]"
chat outC "$W/dc" "$T0" "$(steps turn "$RUN_TXT" file "$W/ps_ctl.txt" turn "yes")"
has_kill outC/all.txt 41500 || fail "control: the same listing with vLLM at 41500 did not show kill 41500"
pass
