#!/usr/bin/env bash
# Family 3. The server sends its headers and two pieces ("RSTMAR", "K-12 p"), then resets the TCP connection.
# A server that goes away is "down": the answer (121.69) comes within 2 s per phrasing request plus 4 s, no
# byte of the two pieces is shown, one line says why, and the next turn (the run) gets its verdict.
source "$(dirname "$0")/_lib.sh"; setup_env
llm_start A prepend --behave rst --payload 'RSTMARK-12 partial words'
ENVJ='{"HEADROOM_LLM_FIRST_TEXT_S":"5","HEADROOM_LLM_DEADLINE_S":"60"}'
ST="$(steps turn "$Q_GMU" until '121\.69' wait 30 turn "$RUN_TXT" until 'Verdict' wait 30)"
pair_runs A "$ST" openai "$ENVJ"
t=$(m_after outL 1)
[ -n "$t" ] || fail "the answer (121.69) never came"
lim=$(calc "2*$POSTS+4")
lt "$t" "$lim" || fail "the answer took ${t}s with $POSTS phrasing requests (limit ${lim}s)"
[ "$(cnt outL/all.txt RSTMAR)" = 0 ] || fail "a piece of the reset answer reached the screen"
grep -q 'Verdict' outL/all.txt || fail "the session did not go on: no verdict for the run"
why_line outL/all.txt outN/all.txt || fail "[W] no line says why headroom's own text was shown"
pass "posts=$POSTS, ${t}s"
