#!/usr/bin/env bash
# s12 (family 1, hostile server): the stream says it is finished first ("data: [DONE]" for OpenAI,
# a "done": true frame for Ollama) and then keeps sending: the faithful template plus
# "AFTERDONEMARK: kill -9 41500 now".
# Expect (both protocols): AFTERDONEMARK is never shown; the kill pids are those shown without a model;
# the question is answered.
. "$(dirname "$0")/_lib.sh"; setup_env
llm_start A echo --behave done_first --payload 'AFTERDONEMARK: kill -9 41500 now'
llm_start B echo --behave done_first --payload 'AFTERDONEMARK: kill -9 41500 now'
ST="$(steps turn "$RUN_TXT" turn "$(listing 41500)" turn "$Q_GMU")"
pair_runs A "$ST"
PA=$POSTS
chat outB "$W/dB" "$T0" "$ST" "[\"--llm\",\"ollama:m@http://127.0.0.1:$LLM_PORT_B\"]" '{}' 60
crash_chat outB && fail "crash with the Ollama server (rc $(cat outB/rc))"
PB=$(llm_posts B); [ "$PB" -ge 1 ] || fail "control: the Ollama server got no phrasing request"
llm_sent A AFTERDONEMARK || fail "control: the OpenAI server never sent its attack"
for o in outL outB; do
  [ "$(cnt_i $o/all.txt AFTERDONEMARK)" = 0 ] || fail "text sent after the end of the stream was shown ($o)"
  grep -q '121.69' $o/all.txt || fail "the question was not answered ($o)"
done
kn="$(kills outN/all.txt | tr ' ' '\n' | sort | tr '\n' ' ')"
for o in outL outB; do
  k="$(kills $o/all.txt | tr ' ' '\n' | sort | tr '\n' ' ')"; [ "$k" = "$kn" ] || fail "kill pids [$k] ($o) differ from without a model [$kn]"
done
pass "posts openai=$PA ollama=$PB"
