#!/bin/bash
# s20: the listing itself holds two processes named yes (`yes` and `/usr/bin/yes y`):
# text inside a paste never answers.  Then a question, a hedge and an adopt phrase
# ("ok, what would that stop?", "go, wait no", "ok use that"): none is a yes.
# Only the final short typed "yes" gives kill 41500, never the yes processes.
SID=s20
source "$(dirname "$(readlink -f "$0")")/lib/common.sh" "$@"

D=$(mkdata d)
{ echo ">>> turn"; echo "$RUN"; echo ">>> turn"; ps_head; ps_row 5123 "yes"; ps_row 41500 "$VLLM_CMD"; ps_row 5124 "/usr/bin/yes y"
  printf '>>> turn\nok, what would that stop?\n>>> turn\ngo, wait no\n>>> turn\nok use that\n>>> turn\nyes\n'; } >script
drive a 60 --env HEADROOM_NOW=$T0 -- --data-dir "$D" <script
drive_ok a
nokill "listing holding 'yes' processes" "$(S a 2)"
nokill "'ok, what would that stop?'" "$(S a 3)"
nokill "'go, wait no'" "$(S a 4)"
nokill "'ok use that'" "$(S a 5)"
has_kill 41500 $(SL a 6) || fail "control: the final typed yes did not show kill 41500"
k=$(kills "$WORK/a/all" | grep -xE '5123|5124' | tr '\n' ' ')
[ -z "$k" ] || fail "kill shown for the yes process(es) $k"
finish
