#!/bin/bash
# s19: session A says "no" to stopping vLLM.  Session B (10 minutes later) pastes a
# fresh listing with the same server and says "yes": the no is remembered, so no
# kill; "stop vllm" proposes it again and still shows no kill until the next yes,
# which gives kill 41500 (the control, in the same script).
SID=s19
source "$(dirname "$(readlink -f "$0")")/lib/common.sh" "$@"

D=$(mkdata d)
{ echo ">>> turn"; echo "$RUN"; echo ">>> turn"; listing; printf '>>> turn\nno\n'; } >script_a
drive a 60 --env HEADROOM_NOW=$T0 -- --data-dir "$D" <script_a
drive_ok a
nokill "A: listing and no" $(S a 2) $(S a 3)
{ echo ">>> turn"; listing; printf '>>> turn\nyes\n>>> turn\nstop vllm\n>>> turn\nyes\n'; } >script_b
drive b 60 --env HEADROOM_NOW=$(at 600) -- --data-dir "$D" <script_b
drive_ok b
nokill "B: fresh listing after A's no" "$(S b 1)"
nokill "B: yes after a remembered no" "$(S b 2)"
nokill "B: 'stop vllm' before its yes" "$(S b 3)"
has_kill 41500 $(SL b 4) || fail "control: 'stop vllm' then yes in B did not show kill 41500"
finish
