#!/usr/bin/env bash
# s28 (family 3, filesystem fault): the data directory is on a small ext4 filesystem; after the first
# turn the transcript is made immutable (`chattr +i`: every write to it, through an open descriptor
# too, fails with EPERM).
# Expect: the next turn ("packing 1024") is still answered (1024 shown) with [W] a not-saved line; the
# session goes on (the question gets 121.69); exit 0. Control: the first turn was saved, and the
# attribute really held.
. "$(dirname "$0")/_lib.sh"; setup_env
mk_ext4 "$W/fs" 16
dd="$W/fs/d"; newdir "$dd"
chat o "$dd" "$T0" "$(steps turn "$RUN_TXT" sh "cp $dd/transcript.jsonl $W/before.jsonl; chattr +i $dd/transcript.jsonl; lsattr $dd/transcript.jsonl > $W/attr.txt" turn 'packing 1024' turn "$Q_GMU")"
chattr -i "$dd/transcript.jsonl" 2>/dev/null
crash_chat o && fail "crash (rc $(cat o/rc))"
grep -q '70B' "$W/before.jsonl" 2>/dev/null || fail "control: the first turn was not saved before the fault"
grep -q -- '-i-' "$W/attr.txt" || grep -Eq '^[^ ]*i' "$W/attr.txt" || fail "harness: chattr +i did not hold ($(cat "$W/attr.txt"))"
grep -q '1024' o/slice_2.txt || fail "the turn after the fault was not answered (no 1024)"
grep -Eiq "$NOTSAVED_RX" o/slice_2.txt o/slice_3.txt || fail "[W] no line says the turn is not saved"
grep -q '121.69' o/slice_3.txt || fail "the session did not go on (question unanswered)"
[ "$(cat o/rc)" = 0 ] || fail "exit $(cat o/rc)"
pass
