#!/usr/bin/env bash
# s08: $COLUMNS at its extremes and nonsense (1, 0, -3, abc, 100000, 2^64+1): every reply still comes, in bounded size
# and time, with the figures intact (compared with all whitespace removed).
. "$(dirname "$0")/_lib.sh"; setup_env
chat outR "$W/dR" "$T0" "$(steps turn "$RUN_TXT" turn "$Q_GMU")"
crash_chat outR && fail "crash at COLUMNS=100 (rc $(cat outR/rc))"
[ "$(sqcnt outR/all.txt 121.69)" -ge 1 ] || fail "control: COLUMNS=100 did not answer (121.69)"
ref=$("$PY" "$H/_hr.py" size outR/all.txt)
i=0
for c in 1 0 -3 abc 100000 18446744073709551617; do
  i=$((i+1)); bg chat "out$i" "$W/d$i" "$T0" "$(steps turn "$RUN_TXT" wait 8 turn "$Q_GMU" wait 8)" '[]' "{\"COLUMNS\":\"$c\"}" 25
done
wait_all
i=0
for c in 1 0 -3 abc 100000 18446744073709551617; do
  i=$((i+1))
  crash_chat "out$i" && fail "crash at COLUMNS=$c (rc $(cat out$i/rc))"
  [ "$(cat out$i/rc)" = 0 ] || fail "exit $(cat out$i/rc) at COLUMNS=$c"
  [ "$(sqcnt out$i/all.txt 121.69)" -ge 1 ] || fail "COLUMNS=$c: the question was not answered (no 121.69)"
  [ "$(sqcnt out$i/all.txt 'Verdict:')" -ge 1 ] || fail "COLUMNS=$c: no Verdict"
  s=$("$PY" "$H/_hr.py" size out$i/all.txt); [ "$s" -le $((ref * 20)) ] || fail "COLUMNS=$c: output $s bytes vs $ref at 100 columns"
  e=$(sess_s out$i); lt "$e" 20 || fail "COLUMNS=$c: session took ${e}s"
done
pass "all six COLUMNS values answered, output within 20x of 100 columns"
