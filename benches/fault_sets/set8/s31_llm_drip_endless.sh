#!/usr/bin/env bash
# s31: (a) a server that drips one content token a second forever (never stalls, never
# ends), with HEADROOM_LLM_DEADLINE_S=4: the phrasing ends at the deadline, headroom's own
# text and a why-line are shown, well under 14 s. (b) A server that sends one line that
# never ends, as fast as it can, with every default: lines are limited to 1 MiB, so it ends
# in seconds, not at the 180 s deadline; the endless text never reaches the screen.
SID=s31
. "$(dirname "$0")/lib.sh" "$@"

start_llm DR drip
start_llm EN endless
A=$(mkdd a); B=$(mkdd b)
HEADROOM_LLM_DEADLINE_S=4 chat a "$NOW0" "$A" "$Q_GMU" --llm "openai:test-model@http://127.0.0.1:$PORT_DR"
chat b "$NOW0" "$B" "$Q_GMU" --llm "openai:test-model@http://127.0.0.1:$PORT_EN"

rc_is a 0 || bad "drip: exit $(rc_of a)"
[ "$(ms_of a)" -lt 14000 ] || bad "drip: took $(ms_of a) ms (deadline 4 s not applied?)"
has a "$OWN_GMU" || bad "drip: headroom's own answer was not shown"
has a "$WHY_RE" || bad "[W] drip: no why-line"
has a '(and ){3}' && bad "drip: the unchecked dripped text reached the screen"
[ "$(llm_posts DR)" -ge 1 ] || bad "control: the drip server never got a POST"
rc_is b 0 || bad "endless: exit $(rc_of b)"
[ "$(ms_of b)" -lt 12000 ] || bad "endless line: took $(ms_of b) ms (1 MiB line limit not applied?)"
has b "$OWN_GMU" || bad "endless: headroom's own answer was not shown"
has b "$WHY_RE" || bad "[W] endless: no why-line"
has b 'A{64}' && bad "endless: the model's unchecked text reached the screen"
[ "$(llm_posts EN)" -ge 1 ] || bad "control: the endless server never got a POST"
# controls for the two absence checks: the patterns do match the servers' text
printf 'and and and and ' | python3 "$FX" grep i '(and ){3}' || bad "control: the drip pattern is blind"
head -c 200 /dev/zero | tr '\0' 'A' | python3 "$FX" grep c 'A{64}' || bad "control: the endless pattern is blind"
finish
