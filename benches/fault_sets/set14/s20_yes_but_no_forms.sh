#!/usr/bin/env bash
# s20: a stop is pending; the answer holds a yes and a no, or is no answer at all: "yes no", "no, yes",
# "yes. actually no.", "y/n", "yes and no", 'did you say "yes"?'. None is a clear yes: no kill. Each in its own session.
. "$(dirname "$0")/_lib.sh"; setup_env
V=('yes no' 'no, yes' 'yes. actually no.' 'y/n' 'yes and no' 'did you say "yes"?')
for i in 0 1 2 3 4 5; do
  bg chat "out$i" "$W/d$i" "$T0" "$(steps turn "$RUN_TXT" turn "$LISTING" turn "${V[$i]}")"
  [ $((i % 2)) = 1 ] && wait_all
done
wait_all
ctl_yes_kills outC "$W/dC"
for i in 0 1 2 3 4 5; do
  crash_chat "out$i" && fail "crash on '${V[$i]}'"
  grep -q 41500 "out$i/slice_2.txt" || fail "control: the listing reply in session '${V[$i]}' does not name 41500"
  k="$(kills_in "out$i" 3 3)"; [ -z "$k" ] || fail "'${V[$i]}' was taken as approval: kill $k"
done
pass "no kill for any mixed or unclear answer; plain yes kills 41500"
