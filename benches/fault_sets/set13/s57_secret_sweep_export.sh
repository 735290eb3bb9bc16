#!/usr/bin/env bash
# s57 (family 5, secrets): a whole session with HEADROOM_API_KEY set and a loopback server: the run,
# the question, "/llm", "/status", "/export FILE", "/llm off", "/llm SPEC" typed again, another question.
# Expect: the key is in no file under the session's HOME, XDG dirs, data dir or the export, and never
# on screen; the data dir is 0700 and transcript.jsonl 0600. Controls: the key reached the server,
# and the export was written.
. "$(dirname "$0")/_lib.sh"; setup_env
KEY="sk-sweep-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
llm_start A echo
SPEC="openai:m@http://127.0.0.1:$LLM_PORT_A/v1"
chat o "$W/d" "$T0" "$(steps turn "$RUN_TXT" turn "$Q_GMU" turn /llm turn /status turn "/export $W/exp.md" turn '/llm off' turn "/llm $SPEC" turn 'should I switch to bf16 LoRA?')" \
  "[\"--llm\",\"$SPEC\"]" "{\"HEADROOM_API_KEY\":\"$KEY\"}" 60
crash_chat o && fail "crash (rc $(cat o/rc))"
n=$("$PY" "$H/_hr.py" headers "$W/llm_A.log" Authorization | grep -cF "$KEY")
[ "$n" -ge 1 ] || fail "control: the key never reached the server"
[ -s "$W/exp.md" ] || fail "control: /export wrote nothing"
K2="${KEY:9:16}"
grep -qF "$K2" o/all.txt && fail "the key was shown on screen"
f="$("$PY" "$H/_hr.py" sweep "$W" "$K2" /llm_A. /o/)"; [ -z "$f" ] || fail "the key was written to: $(echo "$f" | head -2 | tr '\n' ' ')"
m=$(stat -c %a "$W/d"); [ "$m" = 700 ] || fail "data dir mode $m"
m=$(stat -c %a "$W/d/transcript.jsonl"); [ "$m" = 600 ] || fail "transcript mode $m"
pass "key sent $n times"
