#!/usr/bin/env bash
# s11: HEADROOM_LLM_FIRST_TEXT_S / _STALL_S / _DEADLINE_S set to nonsense (nan, -5, inf, abc, 1e400, empty) with a model
# server that never answers. Interpretation: a value that is not a usable number never disables the bound: the
# question is answered with headroom's own text within 25 s and nothing crashes.
. "$(dirname "$0")/_lib.sh"; setup_env
llm_start S openai --behave silent
spec="openai:m@http://127.0.0.1:$LLM_PORT_S/v1"
i=0
for v in nan -5 inf abc 1e400 ''; do
  i=$((i+1))
  bg chat "out$i" "$W/d$i" "$T0" "$(steps turn "$Q_GMU" wait 40 until '121\.69')" "[\"--llm\",\"$spec\"]" \
     "{\"HEADROOM_LLM_FIRST_TEXT_S\":\"$v\",\"HEADROOM_LLM_STALL_S\":\"$v\",\"HEADROOM_LLM_DEADLINE_S\":\"$v\"}" 55
done
wait_all
[ "$(llm_posts S)" -ge 1 ] || fail "control: the silent server got no phrasing request"
i=0
for v in nan -5 inf abc 1e400 ''; do
  i=$((i+1))
  crash_chat "out$i" && fail "value '$v': crash (rc $(cat out$i/rc)): $(grep -m1 panicked out$i/all.txt)"
  m=$(m_after "out$i" 1); [ -n "$m" ] || fail "value '$v': the question was never answered"
  lt "$m" 25 || fail "value '$v': answered only after ${m}s"
done
pass "every nonsense timeout value fell back to a bound"
