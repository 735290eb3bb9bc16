#!/usr/bin/env bash
# s39 (family 3): in the data directory, `pastes` is a regular file, so a paste over 64 KiB cannot be
# kept there. The owner pastes a 1,500-row `ps aux`, then asks a question.
# Expect: the listing is answered (41500 named), the question too (121.69), exit 0, no crash; and the
# paste is not silently lost: it is kept somewhere in the directory, or [W] a line says the turn is not
# saved. Control: in a normal directory the same paste lands in pastes/.
. "$(dirname "$0")/_lib.sh"; setup_env
"$PY" "$H/_gen.py" bigps "$W/big.txt"
dd="$W/d"; newdir "$dd"; echo 'not a directory' > "$dd/pastes"; chmod 600 "$dd/pastes"
chat o "$dd" "$T0" "$(steps turn "$RUN_TXT" file "$W/big.txt" wait 10 turn "$Q_GMU")"
crash_chat o && fail "crash (rc $(cat o/rc))"
chat oc "$W/dc" "$T0" "$(steps turn "$RUN_TXT" file "$W/big.txt" wait 10)"
ls "$W/dc/pastes/"* >/dev/null 2>&1 || fail "control: the paste was not kept in pastes/ in a normal directory"
[ -f "$dd/pastes" ] || fail "harness: pastes is no longer a regular file"
grep -q '41500' o/slice_2.txt || fail "the big listing was not answered (41500 not named)"
grep -q '121.69' o/slice_3.txt || fail "the session did not go on"
[ "$(cat o/rc)" = 0 ] || fail "exit $(cat o/rc)"
kept=no; grep -rlqs -- '--shard 1499 ' "$dd" && kept=yes
said=no; grep -Eiq "$NOTSAVED_RX" o/slice_2.txt o/slice_3.txt && said=yes
[ $kept = yes ] || [ $said = yes ] || fail "the paste was neither kept nor said to be unsaved"
pass "kept=$kept said=$said"
