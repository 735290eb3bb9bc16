#!/usr/bin/env bash
# Family: silent / stalled model server. (a) The server accepts and never sends headers:
# HEADROOM_LLM_FIRST_TEXT_S=3 bounds each phrasing. (b) One piece, then nothing: HEADROOM_LLM_STALL_S=3.
# (c) Silent again with no settings: the default 15 s first-text limit, not the 180 s deadline.
source "$(dirname "$0")/_lib.sh"; setup_env
llm_start S silent
llm_start P stall
one() { # name port env limit_per_post steps
  local t0 t1 el n
  t0=$(now_s)
  chat "out_$1" "$W/d_$1" "$T0" "$5" "[\"--llm\",\"openai:m@http://127.0.0.1:$2/v1\"]" "$3" 150
  t1=$(now_s); el=$(elapsed "$t0" "$t1")
  crash_chat "out_$1" && fail "$1: crash or timeout (rc $(cat out_$1/rc)) after ${el}s"
  around "out_$1" 1 | grep -qi 'verdict' || fail "$1: no verdict shown for the run turn"
  eval "EL_$1=$el"
}
ST2="$(steps turn "$RUN_TXT" wait 60 until 'verdict' turn "$Q_GMU" wait 60 until '121\.69')"
ST1="$(steps turn "$RUN_TXT" wait 80 until 'verdict')"
one silent "$LLM_PORT_S" '{"HEADROOM_LLM_FIRST_TEXT_S":"3"}' 5 "$ST2"
nS=$(llm_posts S); [ "$nS" -ge 1 ] || fail "control: the silent server got no phrasing request"
around out_silent 2 | grep -q '121\.69' || fail "silent: the session did not go on to the next question"
lt "$EL_silent" $(( nS * 5 + 12 )) || fail "silent: ${EL_silent}s for $nS phrasing(s) at a 3 s first-text limit"
one stall "$LLM_PORT_P" '{"HEADROOM_LLM_STALL_S":"3"}' 5 "$ST2"
nP=$(llm_posts P); [ "$nP" -ge 1 ] || fail "control: the stalling server got no phrasing request"
around out_stall 2 | grep -q '121\.69' || fail "stall: the session did not go on to the next question"
lt "$EL_stall" $(( nP * 5 + 12 )) || fail "stall: ${EL_stall}s for $nP phrasing(s) at a 3 s stall limit"
before=$nS
one default "$LLM_PORT_S" '{}' 18 "$ST1"
nD=$(( $(llm_posts S) - before ))
[ "$nD" -ge 1 ] || fail "control: no phrasing request in the default-limits session"
lt "$EL_default" $(( nD * 18 + 12 )) || fail "default: ${EL_default}s for $nD phrasing(s); the 15 s first-text default did not end it"
pass "silent ${EL_silent}s/$nS, stall ${EL_stall}s/$nP, default ${EL_default}s/$nD"
