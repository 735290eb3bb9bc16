#!/usr/bin/env bash
# Family 5 (faults). Character and block devices that read as empty or fail on open: /dev/null as thermal
# samples, as --train-log, as `plan --free`, as `plan --config` and as `procs` input; /dev/full as --free; a
# block device node (mknod b 7 250, no such loop device) as samples. Only regular files are read: each exits
# 2 within 2 s. Control: good files give a thermal verdict.
source "$(dirname "$0")/_lib.sh"; setup_env
newdir "$W/oneshot"; good_thermal "$W/t"
mknod "$W/t/blk.csv" b 7 250 2>/dev/null || fail "harness: cannot mknod a block device (needs root)"
tcall ctl 30 thermal "$W/t/thermal.csv" --train-log "$W/t/train.log"
is_crash $TC_RC "$W/ctl.out" && fail "control: crash on good thermal inputs (rc $TC_RC)"
grep -qiE "$THERMAL_RX" "$W/ctl.out" || fail "control: no thermal verdict on good inputs (rc $TC_RC)"
P=(plan --params 70B --method qlora --batch 1 --pack 2048)
check() { local l="$1"; shift
  tcall c 10 "$@"
  is_crash $TC_RC "$W/c.out" && fail "$l: hang or crash (rc $TC_RC after ${TC_EL}s)"
  [ "$TC_RC" = 2 ] || fail "$l: exit $TC_RC, want 2 ($(head -c 120 "$W/c.out" | tr '\n' ' '))"
  lt "$TC_EL" 2 || fail "$l: took ${TC_EL}s"
}
check "thermal /dev/null samples" thermal /dev/null --train-log "$W/t/train.log"
check "thermal /dev/null --train-log" thermal "$W/t/thermal.csv" --train-log /dev/null
check "plan --free /dev/null" "${P[@]}" --free /dev/null
check "plan --free /dev/full" "${P[@]}" --free /dev/full
check "plan --config /dev/null" "${P[@]}" --config /dev/null
check "procs /dev/null" procs /dev/null --need 40
check "thermal block device" thermal "$W/t/blk.csv" --train-log "$W/t/train.log"
pass
