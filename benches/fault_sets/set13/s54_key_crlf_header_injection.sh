#!/usr/bin/env bash
# s54 (family 5, secrets): HEADROOM_API_KEY holds a CR LF and a second header:
# "sk-inj-…\r\nX-Evil: 1". The server is on loopback.
# Expect: no request carries an X-Evil header; the key is never on screen; the question is answered
# (121.69); exit 0; no crash. Control: a clean key reaches the same kind of server.
. "$(dirname "$0")/_lib.sh"; setup_env
R="$(head -c 8 /dev/urandom | od -An -tx1 | tr -d ' \n')"
llm_start A echo
llm_start B echo
KJ="$("$PY" -c 'import json,sys; print(json.dumps({"HEADROOM_API_KEY": "sk-inj-"+sys.argv[1]+"\r\nX-Evil: 1"}))' "$R")"
chat o "$W/d" "$T0" "$(steps turn "$Q_GMU")" "[\"--llm\",\"openai:m@http://127.0.0.1:$LLM_PORT_A/v1\"]" "$KJ" 60
crash_chat o && fail "crash (rc $(cat o/rc))"
chat oc "$W/dc" "$T0" "$(steps turn "$Q_GMU")" "[\"--llm\",\"openai:m@http://127.0.0.1:$LLM_PORT_B/v1\"]" "{\"HEADROOM_API_KEY\":\"sk-clean-$R\"}" 60
"$PY" "$H/_hr.py" headers "$W/llm_B.log" Authorization | grep -qF "sk-clean-$R" || fail "control: a clean key never reached the server"
grep -qw 'x-evil' <<<"$("$PY" "$H/_hr.py" hdrnames "$W/llm_A.log")" && fail "the key's CR LF injected an X-Evil header"
grep -qF "sk-inj-$R" o/all.txt && fail "the key was shown on screen"
grep -q '121.69' o/all.txt || fail "the question was not answered"
[ "$(cat o/rc)" = 0 ] || fail "exit $(cat o/rc)"
pass "requests to A: $(llm_reqs A)"
