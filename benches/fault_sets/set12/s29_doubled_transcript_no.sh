#!/usr/bin/env bash
# Family 4. Session A: the run, the listing (stop 41500 proposed), "no". Between sessions the transcript is
# doubled (every record appears twice: a bad sync or copy). Session B pastes the same listing fresh and says
# "yes": replay never re-pairs answers and a "no" is remembered across a fresh listing, so no kill 41500.
# Control: in B, "stop vllm" then "yes" kills 41500 (asking by name proposes it again).
source "$(dirname "$0")/_lib.sh"; setup_env
listing 41500 > ps.txt
chat outA "$W/d" "$T0" "$(steps turn "$RUN_TXT" file "$W/ps.txt" turn "no")"
crash_chat outA && fail "A: crash (rc $(cat outA/rc))"
has_kill outA/all.txt 41500 && fail "A: kill 41500 shown after no"
T="$W/d/transcript.jsonl"; [ -s "$T" ] || fail "harness: no transcript after A"
cat "$T" "$T" > "$W/d/.t2" && mv -f "$W/d/.t2" "$T" && chmod 600 "$T"
chat outB "$W/d" "$(at 600)" "$(steps file "$W/ps.txt" turn "yes" turn "stop vllm" turn "yes")"
crash_chat outB && fail "B: crash on the doubled transcript (rc $(cat outB/rc))"
upto outB 2 > before.txt
has_kill before.txt 41500 && fail "after a remembered no (transcript doubled), a fresh listing + yes printed kill 41500"
around outB 4 > after.txt
has_kill after.txt 41500 || fail "control: 'stop vllm' then yes did not show kill 41500"
pass
