#!/bin/bash
# s24: the clock goes back.  A free -g (available 60) is pasted in a session dated
# T0 + 2 days; the next session is dated T0 (two days earlier), so the reading is
# dated in the future, which counts as stale.  Control: a copy of the directory
# opened ten minutes after the paste, where the reading is fresh and must not be
# called stale.
SID=s24
source "$(dirname "$(readlink -f "$0")")/lib/common.sh" "$@"

D=$(mkdata d)
{ echo ">>> turn"; echo "$RUN"; echo ">>> turn"; free_g 60; } >script1
drive s1 45 --env HEADROOM_NOW=$(at $((2 * 86400))) -- --data-dir "$D" <script1
drive_ok s1
C=$(mkdata c); cp -a "$D/." "$C/"; rm -f "$C/lock" "$D/lock"
printf '>>> turn\nwill it fit?\n' >script2
drive back 45 --env HEADROOM_NOW=$T0 -- --data-dir "$D" <script2
drive fresh 45 --env HEADROOM_NOW=$(at $((2 * 86400 + 600))) -- --data-dir "$C" <script2
drive_ok back; drive_ok fresh
present "restart after the clock went back answers" "peak" $(SL back 1)
present "control: the fresh restart answers" "peak" $(SL fresh 1)
wm 'stale|future|clock|ahead|later than now|not current|out of date|too old|fresh' "$(S back 0)" "$(S back 1)" \
  || fail "[W] a free -g dated in the future is not called stale (nothing about stale / future / the clock / a fresh free -g)"
if wm 'stale|future|clock|ahead|out of date|too old' "$(S fresh 0)" "$(S fresh 1)"; then
  fail "control [W]: a ten-minute-old free -g is already called stale/future, so the stale check cannot tell the two apart"
fi
finish
