#!/usr/bin/env bash
# s06: a stop of pid 415002 is proposed; a newer listing in the same session no longer has
# 415002 (vLLM restarted as 415777). The yes that follows answers the newer listing only:
# `kill 415777` (control), never `kill 415002`. B: the newer listing has only a capped vLLM
# (0.3, keep) -> the yes gives no kill at all.
SID=s06
. "$(dirname "$0")/lib.sh" "$@"

A=$(mkdd a); B=$(mkdd b)
chat a "$NOW0" "$A" "$RUN_TXT

$(listing 415002)

$(listing 415777)

yes"
chat b "$NOW0" "$B" "$RUN_TXT

$(listing 415002)

$PS_HDR
$(vllm_row 415888 0.3)

yes"

rc_is a 0 || bad "session a exited $(rc_of a)"
rc_is b 0 || bad "session b exited $(rc_of b)"
has_kill a 415002 && bad "yes after a newer listing without 415002 still printed kill 415002"
has_kill a 415777 || bad "control: the newer listing's uncapped vLLM 415777 got no kill after yes"
has_kill b 415002 && bad "yes after a newer listing (only a capped vLLM) printed kill 415002"
has_kill b 415888 && bad "the capped vLLM 415888 (0.3, which leaves the run its peak) got a kill command"
finish
