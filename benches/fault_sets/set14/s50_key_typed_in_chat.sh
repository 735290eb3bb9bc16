#!/usr/bin/env bash
# s50: the owner types the configured API key into the chat ("my key is …") and pastes `env | grep KEY` output that
# holds it. Interpretation: README "The key never reaches a transcript, config file or log" covers the key's value
# wherever it comes from, and headroom knows that value: no file under the data dir, HOME or XDG holds it afterwards
# (export included).
. "$(dirname "$0")/_lib.sh"; setup_env
KEY='sk-typed-SECRETVALUE-4417c2'
llm_start S openai
chat out "$W/d" "$T0" "$(steps turn "$RUN_TXT" turn "my key is $KEY, is that the right one?" turn "HEADROOM_API_KEY=$KEY
OPENAI_API_KEY=$KEY
HOME=/home/owner" turn "$Q_GMU" turn "/export $W/d/exp.md")" "[\"--llm\",\"openai:m@http://127.0.0.1:$LLM_PORT_S/v1\"]" "{\"HEADROOM_API_KEY\":\"$KEY\"}" 60
crash_chat out && fail "crash (rc $(cat out/rc))"
"$PY" "$H/_hr.py" headers "$W/llm_S.log" authorization | grep -q "$KEY" || fail "control: the key did not reach the loopback server"
[ -f "$W/d/transcript.jsonl" ] || fail "control: no transcript"
[ "$(cnt out/all.txt 121.69)" -ge 1 ] || fail "the question was not answered"
f="$("$PY" "$H/_hr.py" sweep "$W" "$KEY" "$W/out/" "$W/llm_S.log")"
[ -z "$f" ] || fail "the key is written in: $(echo $f | sed "s|$W/||g")"
pass "the typed key reached no file"
