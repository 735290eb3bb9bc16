#!/usr/bin/env bash
# s50 (family 4, absurd data): `free -g` output whose available column is "nan", "inf" or "1e309",
# (a) as `plan --free FILE` and (b) "nan" pasted in the chat.
# Expect: (a) each exits 2, no crash, [W] names available/free; (b) no crash, no NaN/inf figure, and
# "will it fit?" still gets a Verdict. Control: a sane free -g file gives exit 0 or 1.
. "$(dirname "$0")/_lib.sh"; setup_env
mk() { printf '               total        used        free      shared  buff/cache   available\nMem:             119           4          80           0          35  %10s\nSwap:             15           0          15\n' "$1"; }
mk 115 > "$W/ok.txt"
tcall ctl 15 plan --params 70B --method qlora --batch 1 --pack 2048 --free "$W/ok.txt"
case "$TC_RC" in 0|1) ;; *) fail "control: a sane free -g file gave exit $TC_RC";; esac
grep -Eiq 'fits|does not fit|tight' "$W/ctl.out" || fail "control: a sane free -g file printed no verdict"
for v in nan inf 1e309; do
  mk "$v" > "$W/f_$v.txt"
  tcall f_$v 15 plan --params 70B --method qlora --batch 1 --pack 2048 --free "$W/f_$v.txt"
  is_crash "$TC_RC" "$W/f_$v.out" && fail "(a) available=$v: crash (exit $TC_RC)"
  [ "$TC_RC" = 2 ] || fail "(a) available=$v: exit $TC_RC (expected 2)"
  grep -Eiq 'available|free' "$W/f_$v.out" || fail "[W] (a) available=$v: the refusal names neither available nor free"
done
chat o "$W/d" "$T0" "$(steps turn "$RUN_TXT" turn "$(mk nan)" turn 'will it fit?')"
crash_chat o && fail "(b) crash (rc $(cat o/rc))"
grep -Eq '(^|[^A-Za-z])(NaN|nan|inf|Infinity) ?(GB|%)' o/all.txt && fail "(b) a non-finite figure was shown"
grep -Eq "$VERDICT_ANY_RX" o/slice_3.txt || fail "(b) 'will it fit?' got no Verdict after the nan paste"
pass
