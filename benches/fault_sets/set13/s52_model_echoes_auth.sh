#!/usr/bin/env bash
# s52 (family 5, secrets): a loopback OpenAI-protocol server (a key may go there) that copies the
# Authorization header it received into every answer ("Your key: Bearer sk-…").
# Expect: the key never appears on screen, nor in any file headroom writes (data dir, config, state,
# cache, export). Controls: the key reached the server, and the server put it in its answer.
. "$(dirname "$0")/_lib.sh"; setup_env
KEY="sk-echo-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
llm_start A echo --tail 'Your key: AUTHTOKEN'
chat o "$W/d" "$T0" "$(steps turn "$RUN_TXT" turn "$Q_GMU" turn "/export $W/exp.md")" \
  "[\"--llm\",\"openai:m@http://127.0.0.1:$LLM_PORT_A/v1\"]" "{\"HEADROOM_API_KEY\":\"$KEY\"}" 60
crash_chat o && fail "crash (rc $(cat o/rc))"
"$PY" "$H/_hr.py" headers "$W/llm_A.log" Authorization | grep -qF "$KEY" || fail "control: the key never reached the loopback server"
llm_sent A "$KEY" || fail "control: the server never echoed the key"
K2="${KEY:8:16}"
grep -qF "$K2" o/all.txt && fail "the key was shown on screen"
f="$("$PY" "$H/_hr.py" sweep "$W" "$K2" /llm_A. /o/)"; [ -z "$f" ] || fail "the key was written to: $(echo "$f" | head -2 | tr '\n' ' ')"
pass "posts=$(llm_posts A)"
