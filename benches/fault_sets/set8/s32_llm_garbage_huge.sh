#!/usr/bin/env bash
# s32: (a) a server that answers HTTP 200 with binary junk, broken JSON and terminal escape
# sequences: headroom's own text, a why-line, and no escape byte (ESC, BEL, C1 CSI) on the
# terminal. (b) A server whose well-formed answer is 32 MiB (far over three times the
# template): refused, own text shown, none of the 32 MiB on screen, within 15 s.
SID=s32
. "$(dirname "$0")/lib.sh" "$@"

start_llm G garbage
start_llm H huge
A=$(mkdd a); B=$(mkdd b)
HEADROOM_LLM_FIRST_TEXT_S=5 chat a "$NOW0" "$A" "$Q_GMU" --llm "openai:test-model@http://127.0.0.1:$PORT_G"
chat b "$NOW0" "$B" "$Q_GMU" --llm "ollama:test-model@http://127.0.0.1:$PORT_H"

rc_is a 0 || bad "garbage: exit $(rc_of a)"
[ "$(ms_of a)" -lt 14000 ] || bad "garbage: took $(ms_of a) ms"
has a "$OWN_GMU" || bad "garbage: headroom's own answer was not shown"
has a "$WHY_RE" || bad "[W] garbage: no why-line"
has_cs a "$ESC_BYTES" && bad "garbage: an escape/control byte from the network reached the terminal"
has a 'PWNED' && bad "garbage: the server's junk text reached the screen"
[ "$(llm_posts G)" -ge 1 ] || bad "control: the garbage server never got a POST"
printf 'x\033]0;PWNED\007' | python3 "$FX" grep c "$ESC_BYTES" && printf PWNED | python3 "$FX" grep i PWNED || bad "control: the escape-byte / PWNED checks are blind"
rc_is b 0 || bad "huge: exit $(rc_of b)"
[ "$(ms_of b)" -lt 15000 ] || bad "huge: took $(ms_of b) ms"
has b "$OWN_GMU" || bad "huge: headroom's own answer was not shown"
has b 'A{64}' && bad "huge: the 32 MiB answer reached the screen"
[ "$(llm_posts H)" -ge 1 ] || bad "control: the huge server never got a POST"
head -c 200 /dev/zero | tr '\0' 'A' | python3 "$FX" grep c 'A{64}' || bad "control: the huge-text pattern is blind"
finish
