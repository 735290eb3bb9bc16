#!/usr/bin/env bash
# s59 (family 5, secrets): a secret given the wrong way, as a user name and password in the endpoint
# URL: (a) `--llm openai:m@http://sk-URLSECRET-…:pw@127.0.0.1:P/v1`; (b) the same typed as `/llm …` in
# the chat, followed by the run and the question.
# Expect: (a) exit 2 and the server gets no request; (b) the server gets no request, the question is
# still answered (121.69), and (interpretation: a password in a URL is a key) the secret is in no file
# under the data dir or the XDG dirs. Control: `/llm openai:m@http://127.0.0.1:P/v1` typed in another
# chat makes the server get a phrasing request.
. "$(dirname "$0")/_lib.sh"; setup_env
R="$(head -c 8 /dev/urandom | od -An -tx1 | tr -d ' \n')"
llm_start A echo
P=$LLM_PORT_A
newdir "$W/da"
llm_start B echo
chat oc "$W/dc" "$T0" "$(steps turn "/llm openai:m@http://127.0.0.1:$LLM_PORT_B/v1" turn "$Q_GMU")" '[]' '{}' 60
[ "$(llm_posts B)" -ge 1 ] || fail "control: /llm typed in the chat never made a server get a phrasing request"
printf '%s\n\n' "$Q_GMU" | HEADROOM_NOW="$T0" timeout 30 "$HR" --data-dir "$W/da" --llm "openai:m@http://sk-URLSECRET-$R:pw@127.0.0.1:$P/v1" > "$W/a.out" 2>&1; rc=$?
is_crash "$rc" "$W/a.out" && fail "(a) crash or hang (exit $rc)"
[ "$rc" = 2 ] || fail "(a) --llm with a user:password URL exited $rc (expected 2, a bad flag)"
[ "$(llm_reqs A)" = 0 ] || fail "(a) the server got a request"
chat o "$W/d" "$T0" "$(steps turn "/llm openai:m@http://sk-URLSECRET2-$R:pw2@127.0.0.1:$P/v1" turn "$RUN_TXT" turn "$Q_GMU")" '[]' '{}' 60
crash_chat o && fail "(b) crash (rc $(cat o/rc))"
[ "$(llm_reqs A)" = 0 ] || fail "(b) the server got a request for a user:password URL"
grep -q '121.69' o/all.txt || fail "(b) the question was not answered"
f="$("$PY" "$H/_hr.py" sweep "$W/d" "URLSECRET2-$R")$("$PY" "$H/_hr.py" sweep "$W/xdg" "URLSECRET2-$R")$("$PY" "$H/_hr.py" sweep "$W/home" "URLSECRET2-$R")"
[ -z "$f" ] || fail "(b) the URL's secret was written to: $(echo "$f" | head -2 | tr '\n' ' ')"
pass
