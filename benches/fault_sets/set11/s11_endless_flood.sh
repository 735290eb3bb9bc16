#!/usr/bin/env bash
# Family: endless model server. It streams as fast as it can and never ends. The configurable total
# (HEADROOM_LLM_DEADLINE_S=8) bounds each phrasing, nothing unchecked reaches the screen, the session
# goes on.
source "$(dirname "$0")/_lib.sh"; setup_env
llm_start A endless --marker FLOOD-9137
ST="$(steps turn "$RUN_TXT" wait 60 until 'verdict' turn "$Q_GMU" wait 60 until '121\.69')"
t0=$(now_s)
chat out "$W/d" "$T0" "$ST" "[\"--llm\",\"openai:m@http://127.0.0.1:$LLM_PORT_A/v1\"]" '{"HEADROOM_LLM_DEADLINE_S":"8"}' 150
t1=$(now_s); el=$(elapsed "$t0" "$t1")
crash_chat out && fail "crash or timeout (rc $(cat out/rc)) after ${el}s"
n=$(llm_posts A); [ "$n" -ge 1 ] || fail "control: the server got no phrasing request"
around out 1 | grep -qi 'verdict' || fail "no verdict shown for the run turn"
around out 2 | grep -q '121\.69' || fail "the next question was not answered"
grep -q 'FLOOD-9137' out/all.txt && fail "streamed text reached the screen unchecked"
lt "$el" $(( n * 10 + 12 )) || fail "${el}s for $n phrasing(s) at an 8 s deadline"
pass "posts=$n, ${el}s"
