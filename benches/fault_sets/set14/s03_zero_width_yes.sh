#!/usr/bin/env bash
# s03: a stop is pending; the answer is "yes" with an invisible character inside the word
# (zero-width space, soft hyphen, zero-width non-joiner). Interpretation: that is not a short typed "yes".
. "$(dirname "$0")/_lib.sh"; setup_env
i=0
for y in $'y\u200bes' $'ye\u00ads' $'y\u200ces'; do
  i=$((i+1)); bg chat "out$i" "$W/d$i" "$T0" "$(steps turn "$RUN_TXT" turn "$LISTING" turn "$y")"
done
wait_all
ctl_yes_kills outC "$W/dC"
for i in 1 2 3; do
  crash_chat "out$i" && fail "crash on variant $i (rc $(cat out$i/rc))"
  grep -q 41500 "out$i/slice_2.txt" || fail "control: variant $i's listing reply does not name 41500"
  k="$(kills_in "out$i" 3 3)"; [ -z "$k" ] || fail "variant $i (invisible char inside yes) gave kill $k"
done
pass "no kill for yes with an invisible character inside; plain yes kills 41500"
