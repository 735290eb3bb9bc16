#!/usr/bin/env bash
# s31 (family 3): mid-session the whole data directory is deleted (rm -rf).
# Expect: the next turn ("packing 1024") is answered, the question too, no crash, exit 0 or 1; and the
# turn is not silently lost: either the directory holds it again in a regular file, or a line says it
# is not saved [W]. Control: the first turn was saved before the deletion.
. "$(dirname "$0")/_lib.sh"; setup_env
dd="$W/d"
chat o "$dd" "$T0" "$(steps turn "$RUN_TXT" sh "cp $dd/transcript.jsonl $W/before.jsonl; rm -rf $dd" turn 'packing 1024' turn "$Q_GMU")"
crash_chat o && fail "crash (rc $(cat o/rc))"
grep -q '70B' "$W/before.jsonl" 2>/dev/null || fail "control: the first turn was not saved before the deletion"
grep -q '1024' o/slice_2.txt || fail "the turn after the deletion was not answered"
grep -q '121.69' o/slice_3.txt || fail "the session did not go on"
case "$(cat o/rc)" in 0|1) ;; *) fail "exit $(cat o/rc)";; esac
saved=no; [ -d "$dd" ] && grep -rqs 'packing 1024' "$dd" && saved=yes
said=no; grep -Eiq "$NOTSAVED_RX|deleted|was removed|is gone|no longer exists|missing" o/slice_2.txt o/slice_3.txt && said=yes
[ $saved = yes ] || [ $said = yes ] || fail "the turn after the deletion is on no disk and no line said so"
pass "saved=$saved said=$said"
