#!/usr/bin/env bash
# s04: "batch " followed by an overlong UTF-8 encoding of the digit 4 (C0 B4) and "packing " with E0 80 B8 + 192:
# invalid UTF-8 that a lax decoder turns into "4" / "8192". It must not change the run, and one line says so.
. "$(dirname "$0")/_lib.sh"; setup_env
printf 'batch \xc0\xb4 and packing \xe0\x80\xb8192\n\n' > bad.txt
chat out "$W/d" "$T0" "$(steps turn "$RUN_TXT" turn 'will it fit?' file "$W/bad.txt" turn 'will it fit?')"
chat outC "$W/dC" "$T0" "$(steps turn "$RUN_TXT" turn 'will it fit?' turn 'batch 4 and packing 8192' turn 'will it fit?')"
crash_chat out && fail "crash (rc $(cat out/rc))"
crash_chat outC && fail "crash in the control (rc $(cat outC/rc))"
a="$(peakset out/slice_2.txt)"; b="$(peakset out/slice_3.txt out/slice_4.txt)"
ca="$(peakset outC/slice_2.txt)"; cb="$(peakset outC/slice_3.txt outC/slice_4.txt)"
[ -n "$ca" ] && [ "$ca" != "$cb" ] || fail "control: ASCII 'batch 4 and packing 8192' did not change the peak ($ca -> $cb)"
[ -n "$a" ] || fail "no peak before the bad bytes"
subset "$b" "$a" || fail "the overlong bytes changed the run: peaks $a -> $b"
[ "$(rcnt out/slice_3.txt 'utf-?8|not valid|invalid|replaced|U\+FFFD|unreadable|bytes')" -ge 1 ] || fail "[W] no line saying the bytes were not UTF-8"
[ "$(cat out/rc)" = 0 ] || fail "exit $(cat out/rc)"
pass "overlong UTF-8 digits did not change the run ($a); a line said so"
