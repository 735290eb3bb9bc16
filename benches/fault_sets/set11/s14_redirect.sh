#!/usr/bin/env bash
# Family: network. The endpoint answers every request with 307 to a second server on this machine (a key
# is set). Redirects are never followed: the second server must get nothing.
source "$(dirname "$0")/_lib.sh"; setup_env
export HEADROOM_API_KEY=sk-set11-REDIR-0c1d2e
llm_start B echo
llm_start A redirect --redirect-to "http://127.0.0.1:$LLM_PORT_B"
ST="$(steps turn "$RUN_TXT" wait 20 until verdict)"
chat out "$W/d" "$T0" "$ST" "[\"--llm\",\"openai:m@http://127.0.0.1:$LLM_PORT_A/v1\"]" '{}' 60
crash_chat out && fail "crash or timeout (rc $(cat out/rc))"
[ "$(llm_reqs A)" -ge 1 ] || fail "control: the redirecting server got no request"
grep -qi verdict out/all.txt || fail "no verdict shown"
[ "$(llm_reqs B)" -eq 0 ] || fail "the redirect was followed: the second server got $(llm_reqs B) request(s)"
chat out2 "$W/d2" "$T0" "$ST" "[\"--llm\",\"openai:m@http://127.0.0.1:$LLM_PORT_B/v1\"]" '{}' 60
[ "$(llm_reqs B)" -ge 1 ] || fail "control: the second server logs nothing even when addressed directly"
pass
