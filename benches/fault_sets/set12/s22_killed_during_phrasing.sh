#!/usr/bin/env bash
# Family 3/5. A run is typed while a slow-drip model is phrasing its reply (one piece a second, so no limit
# ends it yet); the session is killed with SIGKILL 3 s later, before the reply was shown. Every turn is on
# disk before its reply is made: the turn is in the transcript, and the restart says which message's reply
# was never shown [W], and answers against the saved run.
source "$(dirname "$0")/_lib.sh"; setup_env
llm_start A echo --behave drip --drip 1 --marker DRIPMARK
G="QLoRA on Gemma 2 9B, batch 2, packing 1024"
ST="$(steps raw "$G"$'\n\n' sleep 3 sh "python3 $H/_hr.py posts $W/llm_A.log > $W/posts_at_kill" kill KILL sleep 1)"
chat outA "$W/d" "$T0" "$ST" "[\"--llm\",\"openai:m@http://127.0.0.1:$LLM_PORT_A/v1\"]" '{}' 30
[ "$(cat posts_at_kill)" -ge 1 ] || fail "control: no phrasing request was in flight when the session was killed"
shown=no; grep -q 'Verdict' outA/all.txt && shown=yes
[ -e "$W/d/transcript.jsonl" ] || fail "no transcript after the killed session"
grep -q 'Gemma 2 9B' "$W/d/transcript.jsonl" || fail "the typed turn was not on disk before its reply was made"
chat outB "$W/d" "$(at 120)" "$(steps turn "will it fit?")"
crash_chat outB && fail "restart: crash (rc $(cat outB/rc))"
[ $shown = yes ] || grep -qiE "never shown|not shown|wasn.t shown|was not answered|never answered|no reply|not (been )?answered|interrupted|cut off|didn.t (get|see)|never (got|saw)|unanswered" outB/all.txt \
  || fail "[W] the restart does not say which message's reply was never shown"
grep -q '9B' outB/slice_1.txt || fail "the restart does not answer against the saved run (no 9B in the reply to 'will it fit?')"
[ "$(cnt outB/all.txt DRIPMARK)" = 0 ] || fail "the model's text reached the screen"
pass "posts at kill $(cat posts_at_kill); verdict shown before the kill: $shown"
