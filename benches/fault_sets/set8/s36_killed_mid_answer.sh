#!/usr/bin/env bash
# s36: the session is killed (SIGKILL) while an answer is being made (the model is still
# dripping its phrasing; HEADROOM_LLM_DEADLINE_S=6 and the kill comes 1.5 s after the
# question is on disk). The owner's message was on disk before its reply; the restart
# says which message's reply was never shown. Control: after a clean session the restart
# says no such thing.
SID=s36
. "$(dirname "$0")/lib.sh" "$@"

start_llm DR drip
D=$(mkdd data)
HEADROOM_LLM_DEADLINE_S=6 live_start A "$NOW0" "$D" --llm "openai:test-model@http://127.0.0.1:$PORT_DR"
live_send "$Q_GMU"
TR=$(transcript_of "$D")
wait_re "$TR" 'gpu-memory-utilization' 12 || bad "setup: the question never reached the transcript"
sleep 1.5
[ "$(llm_posts DR)" -ge 1 ] || bad "setup: the model was never asked (not mid-answer)"
HP=$(python3 "$FX" children "$LIVE_PID")
[ -n "$HP" ] && kill -KILL $HP 2>/dev/null
live_end
has A "$OWN_GMU" && bad "setup: the answer was already shown before the kill"

chat B "2026-11-29T14:58:00Z" "$D" "/status"
NEVER='never shown|not shown|was not (shown|answered|finished)|no reply|unanswered|interrupted|did not (see|get) (its|the|a) (reply|answer)|didn.t (see|get)|cut off'
rc_is B 0 || bad "the restart after the kill exited $(rc_of B)"
panicked B && bad "the restart panicked"
has B "$NEVER" || bad "[W] the restart did not say which message's reply was never shown"
has B 'gpu-memory-utilization|gpu memory utili' || bad "[W] the restart did not name the message whose reply was lost"

C=$(mkdd clean)
chat c1 "$NOW0" "$C" "$Q_GMU"
chat c2 "2026-11-29T14:58:00Z" "$C" "/status"
has c2 "$NEVER" && bad "control: after a clean session the restart also said a reply was never shown (the check is not specific)"
finish
