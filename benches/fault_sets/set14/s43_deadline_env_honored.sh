#!/usr/bin/env bash
# s43: HEADROOM_LLM_DEADLINE_S=6 ("keep the total configurable"), and a model that streams a valid piece every 2 s for
# ever (so neither the 15 s first-text nor the 10 s stall bound fires). The answer comes within 6 s + 6 s of slack,
# not after the 180 s default; the endless tail (HOSTILE-MARK) is never shown.
. "$(dirname "$0")/_lib.sh"; setup_env
llm_start D openai --behave drip --drip 2
chat out "$W/d" "$T0" "$(steps turn "$Q_GMU" wait 50 until '121\.69')" "[\"--llm\",\"openai:m@http://127.0.0.1:$LLM_PORT_D/v1\"]" '{"HEADROOM_LLM_DEADLINE_S":"6"}' 60
crash_chat out && fail "crash (rc $(cat out/rc))"
[ "$(llm_posts D)" -ge 1 ] || fail "control: the server got no phrasing request"
m=$(m_after out 1); [ -n "$m" ] || fail "not answered within 50 s: the 6 s deadline was not applied"
lt "$m" 12 || fail "answered after ${m}s with HEADROOM_LLM_DEADLINE_S=6"
[ "$(cnt out/all.txt HOSTILE-MARK)" = 0 ] || fail "the endless tail was shown"
pass "deadline honoured: answered after ${m}s"
