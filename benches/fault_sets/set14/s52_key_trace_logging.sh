#!/usr/bin/env bash
# s52: the owner turns on every debug switch a Rust tool might honour (RUST_LOG=trace, RUST_BACKTRACE=full,
# HEADROOM_LOG=trace, HEADROOM_DEBUG=1) while a key is set: the key never reaches the screen or stderr (which the driver
# merges) nor any file (README: "The key never reaches a transcript, config file or log").
. "$(dirname "$0")/_lib.sh"; setup_env
KEY='sk-trace-SECRET-52d9e0'
llm_start S openai
chat out "$W/d" "$T0" "$(steps turn "$RUN_TXT" turn "$Q_GMU" turn '/llm')" "[\"--llm\",\"openai:m@http://127.0.0.1:$LLM_PORT_S/v1\"]" \
  "{\"HEADROOM_API_KEY\":\"$KEY\",\"RUST_LOG\":\"trace\",\"RUST_BACKTRACE\":\"full\",\"HEADROOM_LOG\":\"trace\",\"HEADROOM_DEBUG\":\"1\"}" 60
crash_chat out && fail "crash (rc $(cat out/rc))"
"$PY" "$H/_hr.py" headers "$W/llm_S.log" authorization | grep -q "$KEY" || fail "control: the key did not reach the server"
[ "$(cnt out/all.txt 121.69)" -ge 1 ] || fail "the question was not answered"
[ "$(cnt out/all.txt "$KEY")" = 0 ] || fail "the key appeared on stdout/stderr with trace logging on"
[ "$(cnt out/all.txt "${KEY:3:12}")" = 0 ] || fail "part of the key appeared on stdout/stderr"
f="$("$PY" "$H/_hr.py" sweep "$W" "$KEY" "$W/llm_S.log")"; [ -z "$f" ] || fail "the key is written in: $f"
pass "no key under trace logging"
