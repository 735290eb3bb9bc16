#!/usr/bin/env bash
# Family 3. The server streams 90 % of its answer at once (it opens with "STALLMARK-31 the first words"), then
# holds the connection open and sends nothing. HEADROOM_LLM_STALL_S=2: each phrasing ends about 2 s after the
# last piece; the answer (121.69) comes within 4 s per phrasing request plus 4 s; no byte of the partial
# answer is shown; the next turn (the run) gets its verdict.
source "$(dirname "$0")/_lib.sh"; setup_env
llm_start A prepend --behave stall_late --payload 'STALLMARK-31 the first words'
ENVJ='{"HEADROOM_LLM_STALL_S":"2","HEADROOM_LLM_FIRST_TEXT_S":"5","HEADROOM_LLM_DEADLINE_S":"60"}'
ST="$(steps turn "$Q_GMU" until '121\.69' wait 40 turn "$RUN_TXT" until 'Verdict' wait 40)"
pair_runs A "$ST" openai "$ENVJ"
t=$(m_after outL 1)
[ -n "$t" ] || fail "the answer (121.69) never came"
lim=$(calc "4*$POSTS+4")
lt "$t" "$lim" || fail "the answer took ${t}s with $POSTS phrasing requests (limit ${lim}s)"
[ "$(cnt outL/all.txt STALLMARK)" = 0 ] || fail "the stalled partial answer reached the screen"
grep -q 'Verdict' outL/all.txt || fail "the session did not go on: no verdict for the run"
pass "posts=$POSTS, ${t}s"
