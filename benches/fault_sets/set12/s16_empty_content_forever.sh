#!/usr/bin/env bash
# Family 3 (slow/garbled servers). An Ollama-protocol server answers 200 at once and then streams frames
# whose content is the empty string every 0.3 s, forever: bytes flow, but never a content token. With
# HEADROOM_LLM_FIRST_TEXT_S=3 (and a 60 s total deadline) each phrasing ends within about 3 s: the answer
# (121.69) comes within 5 s per phrasing request plus 4 s, the next turn is answered, and one line says why.
source "$(dirname "$0")/_lib.sh"; setup_env
llm_start A echo --behave empty
ENVJ='{"HEADROOM_LLM_FIRST_TEXT_S":"3","HEADROOM_LLM_DEADLINE_S":"60"}'
ST="$(steps turn "$Q_GMU" until '121\.69' wait 45 turn "how long will 3 epochs take?" wait 20)"
pair_runs A "$ST" ollama "$ENVJ"
t=$(m_after outL 1)
[ -n "$t" ] || fail "the answer (121.69) never came with the empty-content server"
lim=$(calc "5*$POSTS+4")
lt "$t" "$lim" || fail "the answer took ${t}s with $POSTS phrasing requests (limit ${lim}s): empty frames were taken as text"
[ -s outL/slice_2.txt ] || fail "the session did not go on: no reply to the next turn"
[ "$(cat outL/rc)" = 0 ] || fail "the session exits $(cat outL/rc)"
why_line outL/all.txt outN/all.txt || fail "[W] no line says why headroom's own text was shown"
pass "posts=$POSTS, ${t}s"
