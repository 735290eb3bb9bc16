#!/usr/bin/env bash
# Family: key handling. A key from HEADROOM_API_KEY, a loopback server set with /llm in the chat, a plan,
# a question and an /export: the key never reaches a transcript, config file or log.
source "$(dirname "$0")/_lib.sh"; setup_env
KEY=sk-set11-PERSIST-9f8e7d6c
export HEADROOM_API_KEY=$KEY
llm_start A echo
ST="$(steps turn "/llm openai:m@http://127.0.0.1:$LLM_PORT_A/v1" turn "$RUN_TXT" wait 20 until verdict turn "$Q_GMU" turn "/llm" turn "/export $W/exp.md")"
chat out "$W/d" "$T0" "$ST" '[]' '{}' 60
crash_chat out && fail "crash or timeout (rc $(cat out/rc))"
"$PY" "$H/_hr.py" bodies "$W/llm_A.log" | grep -q "$KEY" || fail "control: the key never reached the server, so it was not in use"
hits="$(grep -rl --exclude='llm_*' -e "$KEY" "$W/d" "$W/xdg" "$W/home" "$W/exp.md" 2>/dev/null)"
[ -z "$hits" ] || fail "the key was written to: $(echo $hits)"
pass
