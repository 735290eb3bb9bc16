#!/bin/bash
# s21: a stop waits for its yes when the owner reports an OOM.  The OOM sets the
# stop aside (and says so); the next "yes" must not kill 41500.  Control: the same
# listing and a yes with no OOM between, in a second directory.
SID=s21
source "$(dirname "$(readlink -f "$0")")/lib/common.sh" "$@"

D=$(mkdata d)
{ echo ">>> turn"; echo "$RUN"; echo ">>> turn"; listing; printf ">>> turn\nit OOM'd at step 12, mid-step\n>>> turn\nyes\n"; } >script
drive a 60 --env HEADROOM_NOW=$T0 -- --data-dir "$D" <script
drive_ok a
nokill "the OOM's reply" "$(S a 3)"
k=$(kills $(SL a 4) | grep -x 41500)
[ -z "$k" ] || fail "the yes after the OOM killed 41500 (the stop was set aside)"
wm 'aside|on hold|paus|postpon|later|first the oom|not now|pending' $(S a 3) || fail "[W] the OOM's reply does not say the stop was set aside"
E=$(mkdata e)
{ echo ">>> turn"; echo "$RUN"; echo ">>> turn"; listing; printf '>>> turn\nyes\n'; } >script_e
drive e 60 --env HEADROOM_NOW=$T0 -- --data-dir "$E" <script_e
has_kill 41500 $(SL e 3) || fail "control: the listing and a yes without an OOM did not show kill 41500"
finish
