#!/usr/bin/env bash
# s46 (family 4, gigantic / negative / non-numbers): `headroom plan --params X --method qlora --batch 1
# --pack 2048` for X = 1e400, -7B, NaN, inf, 0B, and 99999999999999999999999999B.
# Expect: no crash or panic, no "NaN"/"inf" figure; exit 2 for 1e400, -7B, NaN, inf, 0B; never exit 0
# ("fits") for the 26-digit count. Control: --params 70B gives exit 0 or 1 with a verdict.
. "$(dirname "$0")/_lib.sh"; setup_env
tcall ctl 15 plan --params 70B --method qlora --batch 1 --pack 2048
case "$TC_RC" in 0|1) ;; *) fail "control: --params 70B exited $TC_RC";; esac
grep -Eiq 'fits|does not fit|tight' "$W/ctl.out" || fail "control: --params 70B printed no verdict"
i=0
for x in 1e400 -7B NaN inf 0B 99999999999999999999999999B; do
  i=$((i+1))
  tcall p$i 15 plan --params "$x" --method qlora --batch 1 --pack 2048
  is_crash "$TC_RC" "$W/p$i.out" && fail "--params $x: crash or panic (exit $TC_RC)"
  grep -Eq '(^|[^A-Za-z])(NaN|nan|inf|Infinity) ?(GB|GiB|%)' "$W/p$i.out" && fail "--params $x printed a non-finite figure"
  if [ "$x" = 99999999999999999999999999B ]; then [ "$TC_RC" != 0 ] || fail "--params $x exited 0 (fits)"
  else [ "$TC_RC" = 2 ] || fail "--params $x exited $TC_RC (expected 2, bad input)"; fi
done
pass
