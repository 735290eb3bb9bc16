#!/usr/bin/env bash
# s30: a model server that accepts the request and never answers (GETs are answered, POSTs
# hang), and one that streams content-free keep-alives forever. With
# HEADROOM_LLM_FIRST_TEXT_S=3 each phrasing gives up after about 3 s: the owner sees
# headroom's own answer and one line saying why, within 14 s for the session. Control: the
# server was asked (so the timing check means something).
SID=s30
. "$(dirname "$0")/lib.sh" "$@"

start_llm S silentpost
start_llm K keepalive
A=$(mkdd a); B=$(mkdd b)
HEADROOM_LLM_FIRST_TEXT_S=3 chat a "$NOW0" "$A" "$Q_GMU" --llm "openai:test-model@http://127.0.0.1:$PORT_S"
HEADROOM_LLM_FIRST_TEXT_S=3 chat b "$NOW0" "$B" "$Q_GMU" --llm "openai:test-model@http://127.0.0.1:$PORT_K/v1"

for n in a b; do
  rc_is $n 0 || bad "$n: exit $(rc_of $n), want 0"
  [ "$(ms_of $n)" -lt 14000 ] || bad "$n: took $(ms_of $n) ms (first-text limit 3 s not applied?)"
  has $n "$OWN_GMU" || bad "$n: headroom's own answer (121.69 GiB) was not shown"
  has $n "$WHY_RE" || bad "[W] $n: no line saying why the model's text was not used"
done
[ "$(llm_posts S)" -ge 1 ] || bad "control: the silent server never got a POST (nothing was tested)"
[ "$(llm_posts K)" -ge 1 ] || bad "control: the keep-alive server never got a POST"
finish
