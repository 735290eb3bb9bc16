#!/usr/bin/env bash
# s16 (family 1, hostile server): the server sends its status line and headers one byte every 0.5 s
# (a 450-byte header block: about 4 minutes), so bytes keep arriving but no header block and no text
# ever completes. HEADROOM_LLM_FIRST_TEXT_S=3.
# Expect: the question's answer (121.69) is on screen within 3 s per phrasing request + 5 s; exit 0.
. "$(dirname "$0")/_lib.sh"; setup_env
llm_start A echo --behave header_drip --drip 0.5
chat outL "$W/dL" "$T0" "$(steps turn "$Q_GMU" wait 60 until '121\.69' turn "$RUN_TXT" wait 60 until 'Verdict')" \
  "[\"--llm\",\"openai:m@http://127.0.0.1:$LLM_PORT_A/v1\"]" '{"HEADROOM_LLM_FIRST_TEXT_S":"3"}' 90
crash_chat outL && fail "crash or hang (rc $(cat outL/rc))"
P=$(llm_posts A); [ "$P" -ge 1 ] || fail "control: the server got no phrasing request"
t=$(m_after outL 1); [ -n "$t" ] || fail "the question was never answered while the headers dripped"
lim=$(calc "3*$P+5"); lt "$t" "$lim" || fail "the answer took ${t}s with $P phrasing request(s) (limit ${lim}s)"
[ "$(cat outL/rc)" = 0 ] || fail "exit $(cat outL/rc)"
pass "posts=$P, ${t}s"
