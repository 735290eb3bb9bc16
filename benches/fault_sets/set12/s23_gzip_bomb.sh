#!/usr/bin/env bash
# Family 3. The server answers with Content-Encoding: gzip, a 1.8 MB body that inflates to 256 MiB of SSE
# frames ("BOMBMARK " forever). Whether headroom inflates it or reads it as garbage, the phrasing is bounded:
# the answer (121.69) within 10 s, BOMBMARK never shown, peak RSS under 128 MiB, the next turn answered.
# Interpretation: "at most three times the template's bytes" and "lines ≤ 1 MiB" mean the answer is never
# held whole; 128 MiB is half of what holding it would take.
source "$(dirname "$0")/_lib.sh"; setup_env
llm_start A echo --behave gzip
ENVJ='{"HEADROOM_LLM_FIRST_TEXT_S":"5","HEADROOM_LLM_DEADLINE_S":"60"}'
ST="$(steps turn "$Q_GMU" until '121\.69' wait 30 turn "$RUN_TXT" until 'Verdict' wait 30)"
chat outL "$W/dL" "$T0" "$ST" "[\"--llm\",\"openai:m@http://127.0.0.1:$LLM_PORT_A/v1\"]" "$ENVJ" 75
crash_chat outL && fail "crash or hang (rc $(cat outL/rc))"
P=$(llm_posts A); [ "$P" -ge 1 ] || fail "control: the server got no phrasing request"
t=$(m_after outL 1)
[ -n "$t" ] || fail "the answer (121.69) never came"
lt "$t" 10 || fail "the answer took ${t}s (limit 10 s)"
[ "$(cnt outL/all.txt BOMBMARK)" = 0 ] || fail "the bomb's text reached the screen"
kb=$(peak_kb outL)
[ "$kb" -gt 0 ] || fail "harness: no RSS measured"
[ "$kb" -lt 131072 ] || fail "peak RSS $(( kb / 1024 )) MiB (limit 128 MiB)"
grep -q 'Verdict' outL/all.txt || fail "the session did not go on: no verdict for the run"
pass "posts=$P, ${t}s, peak RSS $(( kb / 1024 )) MiB"
