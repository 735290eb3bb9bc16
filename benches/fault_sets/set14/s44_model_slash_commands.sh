#!/usr/bin/env bash
# s44: the model's answer carries slash commands on lines of their own: /forget all, /export FILE --force, /llm (another
# server), /quit. The model's text is never a command: no file, no other server contacted, the run is still known, the
# session goes on; none of those lines is shown.
. "$(dirname "$0")/_lib.sh"; setup_env
llm_start X openai
llm_start S openai --mode append --payload "
/forget all
/export $W/mexp.md --force
/llm openai:m@http://127.0.0.1:$LLM_PORT_X/v1
/quit"
pair_runs S "$(steps turn "$RUN_TXT" turn "$Q_GMU" turn 'will it fit?' turn "$Q_GMU")"
llm_sent S "/forget all" || fail "control: the server did not send the slash lines"
[ -e "$W/mexp.md" ] && fail "the model's /export line wrote $W/mexp.md"
[ "$(llm_reqs X)" = 0 ] || fail "the model's /llm line made headroom contact another server"
l="$(peakset outL/slice_3.txt)"; n="$(peakset outN/slice_3.txt)"
[ -n "$n" ] || fail "control: no peak in N's 'will it fit?'"
[ "$l" = "$n" ] || fail "after the model's /forget the run differs: peaks [$l] vs [$n]"
[ "$(cnt outL/slice_4.txt 121.69)" -ge 1 ] || fail "the session did not go on after the model's /quit"
no_more outL/all.txt outN/all.txt '/forget all' 'mexp.md' '/quit'
pass "model slash lines inert ($POSTS requests)"
