#!/usr/bin/env bash
# s34 (family 3, full disk): `headroom thermal S --train-log L --svg F` and `--png F` where F is on a
# full 256 KiB tmpfs.
# Expect: the verdict is still printed, exit 1, and [W] a line about the chart; no crash.
# Control: the same with F on a roomy disk exits 0 and writes a non-empty chart.
. "$(dirname "$0")/_lib.sh"; setup_env
good_thermal "$W/t"
mk_tmpfs "$W/full" 256k; fill_fs "$W/full"
tcall ok 30 thermal "$W/t/thermal.csv" --train-log "$W/t/train.log" --svg "$W/ok.svg"
[ "$TC_RC" = 0 ] && [ -s "$W/ok.svg" ] && grep -Eiq "$THERMAL_RX" "$W/ok.out" || fail "control: a chart on a roomy disk: exit $TC_RC, $(wc -c < "$W/ok.svg" 2>/dev/null) bytes"
for kind in svg png; do
  tcall full_$kind 30 thermal "$W/t/thermal.csv" --train-log "$W/t/train.log" --$kind "$W/full/chart.$kind"
  is_crash "$TC_RC" "$W/full_$kind.out" && fail "--$kind on a full disk crashed or hung (exit $TC_RC)"
  grep -Eiq "$THERMAL_RX" "$W/full_$kind.out" || fail "--$kind on a full disk hid the verdict"
  [ "$TC_RC" = 1 ] || fail "--$kind on a full disk exited $TC_RC (expected 1)"
  grep -Eiq 'chart|svg|png|space|write|written' "$W/full_$kind.out" || fail "[W] --$kind: no line about the chart that was not written"
done
pass
