#!/usr/bin/env bash
# s43 (family 4, terminal escapes in names): `headroom thermal` given (a) a FIFO named
# "fifo ESC]0;FNTITLE BEL ESC[2J.csv", (b) a good CSV named "ok ESC]0;FNTITLE2 BEL.csv", (c) a good CSV
# whose name holds the byte 0xFF (not UTF-8).
# Expect: (a) exit 2 within 2 s naming a FIFO/named pipe; (b)(c) no crash; no raw ESC or BEL on
# stdout/stderr in any of them. Control: (b) gives a verdict.
. "$(dirname "$0")/_lib.sh"; setup_env
good_thermal "$W/t"
FN="$W/t/fifo"$'\e]0;FNTITLE\a\e[2J'".csv"; mkfifo "$FN"
OK="$W/t/ok"$'\e]0;FNTITLE2\a'".csv"; cp "$W/t/thermal.csv" "$OK"
BAD="$W/t/bad"$'\xff'".csv"; cp "$W/t/thermal.csv" "$BAD"
tcall b 30 thermal "$OK" --train-log "$W/t/train.log"
is_crash "$TC_RC" "$W/b.out" && fail "(b) crash (exit $TC_RC)"
grep -Eiq "$THERMAL_RX" "$W/b.out" || fail "control (b): no verdict for a good CSV with an escape in its name (exit $TC_RC)"
tcall a 10 thermal "$FN" --train-log "$W/t/train.log"
is_crash "$TC_RC" "$W/a.out" && fail "(a) crash or hang on the FIFO (exit $TC_RC)"
[ "$TC_RC" = 2 ] && lt "$TC_EL" 2 || fail "(a) the FIFO: exit $TC_RC after ${TC_EL}s"
grep -Eiq 'fifo|named pipe' "$W/a.out" || fail "control (a): the refusal does not say FIFO (was the type checked?)"
tcall c 30 thermal "$BAD" --train-log "$W/t/train.log"
is_crash "$TC_RC" "$W/c.out" && fail "(c) crash on a non-UTF-8 name (exit $TC_RC)"
for x in a b c; do
  bc="$(badctl "$W/$x.out")"; for c in $bc; do case $c in ESC|BEL) fail "($x) raw $c from the file name reached the terminal";; esac; done
done
pass
