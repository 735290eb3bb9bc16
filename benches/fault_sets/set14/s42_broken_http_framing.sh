#!/usr/bin/env bash
# s42: broken HTTP framing from the model server, one kind per request: a Content-Length of 10^12 then the connection
# closes, an invalid chunk size, an HTTP/0.9-style reply with no status line, a negative Content-Length. Each carries
# FRAMEMARK and "kill -9 41500". Every question is answered within 20 s; none of it is shown; no crash.
. "$(dirname "$0")/_lib.sh"; setup_env
llm_start F openai --behave framing --marker FRAMEMARK
U='121\.69'
chat out "$W/d" "$T0" "$(steps turn "$Q_GMU" wait 25 until "$U" turn "$Q_GMU" wait 25 until "$U" turn "$Q_GMU" wait 25 until "$U" turn "$Q_GMU" wait 25 until "$U")" \
  "[\"--llm\",\"openai:m@http://127.0.0.1:$LLM_PORT_F/v1\"]" '{}' 120
crash_chat out && fail "crash (rc $(cat out/rc))"
[ "$(llm_posts F)" -ge 4 ] || fail "control: only $(llm_posts F) phrasing requests, not every framing fault was tried"
for k in 1 2 3 4; do
  m=$(m_after out $k); [ -n "$m" ] || fail "question $k never answered"
  lt "$m" 20 || fail "question $k answered after ${m}s"
done
[ "$(cnt out/all.txt FRAMEMARK)" = 0 ] || fail "FRAMEMARK shown"
k="$(kills out/all.txt)"; [ -z "$k" ] || fail "kill $k shown"
b="$(badctl out/all.txt)"; [ -z "$b" ] || fail "raw control bytes: $b"
[ "$(cat out/rc)" = 0 ] || fail "exit $(cat out/rc)"
pass "broken framing: $(llm_posts F) requests, every answer headroom's own"
