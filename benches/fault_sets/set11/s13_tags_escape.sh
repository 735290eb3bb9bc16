#!/usr/bin/env bash
# Family: escape sequences from the network. Ollama with no model named: headroom takes the first name
# from /api/tags, and that name carries an OSC title change and a colour sequence. `/llm` says what is in
# use; no control byte may reach the terminal.
source "$(dirname "$0")/_lib.sh"; setup_env
llm_start A echo --esc --tags-name 'llama3.2\x1b]0;OWNED-TAG\x07\x1b[31m\x1b]8;;http://198.51.100.9/\x07:1b'
ST="$(steps turn "/llm" turn "$RUN_TXT" wait 20 until verdict turn "/llm")"
chat out "$W/d" "$T0" "$ST" "[\"--llm\",\"ollama@http://127.0.0.1:$LLM_PORT_A\"]" '{}' 60
crash_chat out && fail "crash or timeout (rc $(cat out/rc))"
grep -q '"path": "/api/tags' "$W/llm_A.log" || fail "control: /api/tags was never asked, so the name never reached headroom"
[ -s out/slice_1.txt ] || [ -s out/slice_3.txt ] || fail "control: /llm printed nothing"
no_ctl_bytes out/all.txt || fail "a control byte from the model's name reached the terminal"
pass
