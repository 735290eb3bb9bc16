#!/usr/bin/env bash
# s53 (family 5, secrets): every phrasing gets HTTP 401 with an error body that repeats the key it got:
# "invalid api key: Bearer sk-… (ERR401MARK)".
# Expect: the key and ERR401MARK are never on screen nor in any file headroom writes; the question is
# answered (121.69); [W] a line names the 401 / unauthorized / key. Control: the key reached the server.
. "$(dirname "$0")/_lib.sh"; setup_env
KEY="sk-401-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
llm_start A echo --behave err_json --status 401 --marker 'invalid api key: AUTHTOKEN (ERR401MARK)'
chat o "$W/d" "$T0" "$(steps turn "$Q_GMU" turn "$RUN_TXT")" \
  "[\"--llm\",\"openai:m@http://127.0.0.1:$LLM_PORT_A/v1\"]" "{\"HEADROOM_API_KEY\":\"$KEY\"}" 60
crash_chat o && fail "crash (rc $(cat o/rc))"
"$PY" "$H/_hr.py" headers "$W/llm_A.log" Authorization | grep -qF "$KEY" || fail "control: the key never reached the server"
K2="${KEY:7:16}"
grep -qF "$K2" o/all.txt && fail "the key (from the error body) was shown on screen"
grep -qF ERR401MARK o/all.txt && fail "the server's error body was shown"
f="$("$PY" "$H/_hr.py" sweep "$W" "$K2" /llm_A. /o/)"; [ -z "$f" ] || fail "the key was written to: $(echo "$f" | head -2 | tr '\n' ' ')"
grep -q '121.69' o/all.txt || fail "the question was not answered"
grep -Eiq '401|unauthori[sz]ed|api key|the key' o/all.txt || fail "[W] no line names the 401 / the key"
pass "posts=$(llm_posts A)"
