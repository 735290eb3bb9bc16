#!/usr/bin/env bash
# Family 3. With every default, an OpenAI-compatible server sends its headers at once and then nothing for
# 17 s, then a valid answer followed by "LATEMARK-88". The first-text limit (15 s, headers do not count as
# text here: the headers came at once) ends each phrasing: the answer (121.69) comes within 18 s per
# phrasing request plus 4 s, and no byte of the late answer is shown.
source "$(dirname "$0")/_lib.sh"; setup_env
llm_start A echo --behave late --late 17 --tail 'LATEMARK-88 the late words'
ST="$(steps turn "$Q_GMU" until '121\.69' wait 55)"
chat outL "$W/dL" "$T0" "$ST" "[\"--llm\",\"openai:m@http://127.0.0.1:$LLM_PORT_A/v1\"]" '{}' 75
crash_chat outL && fail "crash or hang (rc $(cat outL/rc))"
P=$(llm_posts A); [ "$P" -ge 1 ] || fail "control: the server got no phrasing request"
t=$(m_after outL 1)
[ -n "$t" ] || fail "the answer (121.69) never came"
lim=$(calc "18*$P+4")
lt "$t" "$lim" || fail "the answer took ${t}s with $P phrasing requests (limit ${lim}s)"
[ "$(cnt outL/all.txt LATEMARK)" = 0 ] || fail "the late answer reached the screen"
pass "posts=$P, ${t}s"
