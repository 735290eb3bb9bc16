#!/usr/bin/env bash
# s41: a server that answers with well-formed JSON of the wrong shape: content as a number, an array of parts, an object,
# null, "choices" as a string, a bare JSON string (OpenAI SSE and Ollama NDJSON). Some carry SCHEMAMARK and
# "kill -9 41500". Nothing of it is shown, no crash, the figures are headroom's, the session goes on.
. "$(dirname "$0")/_lib.sh"; setup_env
llm_start O openai --behave schema --marker SCHEMAMARK
llm_start L ollama --behave schema --marker SCHEMAMARK
ST="$(steps turn "$RUN_TXT" turn "$Q_GMU" turn 'will it fit?' turn "$Q_GMU" turn 'full plan' turn "$Q_GMU")"
bg chat outO "$W/dO" "$T0" "$ST" "[\"--llm\",\"openai:m@http://127.0.0.1:$LLM_PORT_O/v1\"]" '{}' 90
bg chat outL "$W/dL" "$T0" "$ST" "[\"--llm\",\"ollama:m@http://127.0.0.1:$LLM_PORT_L\"]" '{}' 90
wait_all
chat outN "$W/dN" "$T0" "$ST"
[ "$(llm_posts O)" -ge 3 ] || fail "control: the OpenAI server got $(llm_posts O) phrasing requests (need 3+)"
[ "$(llm_posts L)" -ge 3 ] || fail "control: the Ollama server got $(llm_posts L) phrasing requests (need 3+)"
for o in outO outL; do
  crash_chat $o && fail "$o: crash (rc $(cat $o/rc))"
  [ "$(cnt $o/all.txt SCHEMAMARK)" = 0 ] || fail "$o: SCHEMAMARK shown"
  [ "$(cnt $o/all.txt 424242)" = 0 ] || fail "$o: the numeric content 424242 shown"
  k="$(kills $o/all.txt)"; [ -z "$k" ] || fail "$o: kill $k shown"
  [ "$(cnt $o/slice_6.txt 121.69)" -ge 1 ] || fail "$o: the last question was not answered"
  [ "$(peakset $o/slice_3.txt)" = "$(peakset outN/slice_3.txt)" ] || fail "$o: peaks differ from the no-model session"
  [ "$(cat $o/rc)" = 0 ] || fail "$o: exit $(cat $o/rc)"
done
pass "wrong-shape JSON never shown (openai $(llm_posts O), ollama $(llm_posts L) requests)"
