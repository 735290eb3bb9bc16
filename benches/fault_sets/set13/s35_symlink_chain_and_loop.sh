#!/usr/bin/env bash
# s35 (family 3, symlinks): thermal samples given through (a) a two-link loop a -> b -> a and (b) a
# chain of 45 symlinks (past the kernel's 40) ending at a good CSV.
# Expect: each exits 2 within 2 s, no crash; [W] (a) names the loop/link. Control: a 3-link chain to
# the same CSV gives a verdict (exit 0).
. "$(dirname "$0")/_lib.sh"; setup_env
good_thermal "$W/t"
mkdir -p "$W/l"; ln -s "$W/l/b" "$W/l/a.csv"; ln -s "$W/l/a.csv" "$W/l/b"
prev="$W/t/thermal.csv"
for i in $(seq 1 45); do ln -s "$prev" "$W/l/c$i.csv"; prev="$W/l/c$i.csv"; done
tcall ctl 30 thermal "$W/l/c3.csv" --train-log "$W/t/train.log"
[ "$TC_RC" = 0 ] && grep -Eiq "$THERMAL_RX" "$W/ctl.out" || fail "control: a 3-link chain gave exit $TC_RC and no verdict"
tcall loop 10 thermal "$W/l/a.csv" --train-log "$W/t/train.log"
is_crash "$TC_RC" "$W/loop.out" && fail "(a) loop: crash or hang (exit $TC_RC)"
[ "$TC_RC" = 2 ] && lt "$TC_EL" 2 || fail "(a) loop: exit $TC_RC after ${TC_EL}s"
grep -Eiq 'loop|symlink|symbolic|link' "$W/loop.out" || fail "[W] (a) the refusal does not name the loop"
tcall chain 10 thermal "$W/l/c45.csv" --train-log "$W/t/train.log"
is_crash "$TC_RC" "$W/chain.out" && fail "(b) chain: crash or hang (exit $TC_RC)"
[ "$TC_RC" = 2 ] && lt "$TC_EL" 2 || fail "(b) 45-link chain: exit $TC_RC after ${TC_EL}s"
pass
