#!/usr/bin/env bash
# s29 (family 3, FIFO): mid-session, transcript.jsonl is replaced by a FIFO (rm + mkfifo). Then a
# restart on the same directory with the FIFO still there.
# Expect: the next turn is answered within 5 s and the question within 5 s more (a FIFO never blocks
# the session); the session ends by itself (no timeout); the restart either answers "will it fit?" or
# refuses, within 10 s, never hangs. Control: the first turn was saved before the swap.
. "$(dirname "$0")/_lib.sh"; setup_env
dd="$W/d"
chat o "$dd" "$T0" "$(steps turn "$RUN_TXT" sh "cp $dd/transcript.jsonl $W/before.jsonl; rm -f $dd/transcript.jsonl; mkfifo -m 600 $dd/transcript.jsonl" turn 'packing 1024' wait 10 until '1024' turn "$Q_GMU" wait 10 until '121\.69')" '[]' '{}' 40
crash_chat o && fail "crash or hang (rc $(cat o/rc))"
grep -q '70B' "$W/before.jsonl" 2>/dev/null || fail "control: the first turn was not saved before the swap"
t=$(m_after o 1); [ -n "$t" ] && lt "$t" 5 || fail "the turn after the swap was not answered within 5 s (${t:-never})"
t2=$(m_after o 2); [ -n "$t2" ] && lt "$t2" 5 || fail "the question was not answered within 5 s (${t2:-never})"
[ -p "$dd/transcript.jsonl" ] || true
s=$(now_s)
printf 'will it fit?\n\n' | HEADROOM_NOW="$(at 120)" timeout 20 "$HR" --data-dir "$dd" > r.out 2>&1; rc=$?
el=$(elapsed "$s" "$(now_s)")
is_crash "$rc" r.out && fail "the restart crashed or hung (exit $rc after ${el}s)"
lt "$el" 10 || fail "the restart took ${el}s"
pass "restart exit $rc in ${el}s"
