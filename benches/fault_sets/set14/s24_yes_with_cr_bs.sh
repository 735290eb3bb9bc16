#!/usr/bin/env bash
# s24: answers whose bytes differ from what a terminal shows: "no\ryes" (shows "yes" over "no"), "yes\b\b\bno"
# (shows "no"), "nope\e[2K\ryes" (line erased, shows "yes"). None is a clean typed yes: no kill.
. "$(dirname "$0")/_lib.sh"; setup_env
V=($'no\ryes' $'yes\b\b\bno' $'nope\e[2K\ryes')
for i in 0 1 2; do
  bg chat "out$i" "$W/d$i" "$T0" "$(steps turn "$RUN_TXT" turn "$LISTING" turn "${V[$i]}")"
done
wait_all
ctl_yes_kills outC "$W/dC"
for i in 0 1 2; do
  crash_chat "out$i" && fail "crash on variant $i"
  grep -q 41500 "out$i/slice_2.txt" || fail "control: variant $i's listing reply does not name 41500"
  k="$(kills_in "out$i" 3 3)"; [ -z "$k" ] || fail "variant $i ($(printf '%q' "${V[$i]}")) was taken as approval: kill $k"
  b="$(badctl out$i/slice_3.txt)"; [[ " $b " == *" ESC "* || " $b " == *" BS "* ]] && fail "variant $i: raw $b echoed"
done
pass "no kill for answers hiding a no behind CR, BS or an erase"
