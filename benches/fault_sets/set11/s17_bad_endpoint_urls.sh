#!/usr/bin/env bash
# Family: endpoint URLs. A user name (even empty with a password), a query or a fragment in the endpoint
# URL is a bad flag: exit 2, nothing sent. Typed as /llm in the chat it is refused and nothing is sent.
# Control: the same URL without them is used.
source "$(dirname "$0")/_lib.sh"; setup_env
export HEADROOM_API_KEY=sk-set11-URL-1a2b3c
llm_start A echo
P=$LLM_PORT_A
printf '%s\n\n' "$RUN_TXT" > in.txt
for spec in "openai:m@http://owner@127.0.0.1:$P/v1" "ollama:llama3@http://:hunter2@127.0.0.1:$P" \
            "openai:m@http://127.0.0.1:$P/v1?api-version=1" "openai:m@http://127.0.0.1:$P/v1#frag"; do
  d="$W/d$RANDOM"; newdir "$d"
  HEADROOM_NOW=$T0 timeout 30 "$HR" --data-dir "$d" --llm "$spec" < in.txt > o.txt 2>&1; rc=$?
  is_crash $rc o.txt && fail "crash (rc $rc) for --llm $spec"
  [ "$rc" = 2 ] || fail "--llm $spec: exit $rc, want 2 (bad flag)"
  [ "$(llm_reqs A)" -eq 0 ] || fail "--llm $spec: something was sent to the server"
done
ST="$(steps turn "/llm openai:m@http://me@127.0.0.1:$P/v1" turn "$RUN_TXT" wait 20 until verdict)"
chat out "$W/dc" "$T0" "$ST" '[]' '{}' 60
crash_chat out && fail "chat: crash (rc $(cat out/rc))"
[ "$(llm_reqs A)" -eq 0 ] || fail "/llm with a user name in the URL: something was sent to the server"
grep -qi verdict out/all.txt || fail "chat: the run after the refused /llm was not answered"
d="$W/dok"; newdir "$d"
HEADROOM_NOW=$T0 timeout 60 "$HR" --data-dir "$d" --llm "openai:m@http://127.0.0.1:$P/v1" < in.txt > ok.txt 2>&1; rc=$?
[ "$rc" = 0 ] || fail "control: the plain URL exits $rc"
[ "$(llm_reqs A)" -ge 1 ] || fail "control: the plain URL sent nothing, so 'nothing sent' cannot be seen"
pass
