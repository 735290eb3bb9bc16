#!/usr/bin/env bash
# Family: slow-drip model server. A piece every 1.5 s, forever (never a 10 s stall, never a 15 s
# silence), so only the total deadline can end it. HEADROOM_LLM_DEADLINE_S=8 must bound each phrasing;
# then headroom's own text is shown and the session goes on.
source "$(dirname "$0")/_lib.sh"; setup_env
llm_start A drip --drip 1.5 --marker DRIPTAIL-4411
ST="$(steps turn "$RUN_TXT" wait 60 until 'verdict' turn "$Q_GMU" wait 60 until '121\.69')"
t0=$(now_s)
chat out "$W/d" "$T0" "$ST" "[\"--llm\",\"openai:m@http://127.0.0.1:$LLM_PORT_A/v1\"]" '{"HEADROOM_LLM_DEADLINE_S":"8"}' 150
t1=$(now_s); el=$(elapsed "$t0" "$t1")
crash_chat out && fail "crash or timeout (rc $(cat out/rc)) after ${el}s"
n=$(llm_posts A); [ "$n" -ge 1 ] || fail "control: the server got no phrasing request"
around out 1 | grep -qi 'verdict' || fail "no verdict shown for the run turn"
around out 2 | grep -q '121\.69' || fail "the question after the drip was not answered (session did not go on)"
grep -q 'DRIPTAIL-4411' out/all.txt && fail "unchecked streamed text reached the screen"
lim=$(( n * 10 + 12 ))
lt "$el" "$lim" || fail "session took ${el}s with $n phrasing(s) at an 8 s deadline (limit ${lim}s)"
pass "posts=$n, ${el}s"
