#!/usr/bin/env bash
# s35: the transcript ends in a torn record and is append-only (chattr +a: appends work, truncation and rename fail),
# so the start cannot cut the torn record back. README: a start that cannot repair a torn record is read-only; the
# transcript row: the next record starts on a line of its own. Either way the run is remembered and answered, and no
# new record is glued onto the torn one.
. "$(dirname "$0")/_lib.sh"; setup_env
mk_ext4 "$W/e" 32
newdir "$W/e/d"
chat out1 "$W/e/d" "$T0" "$(steps turn "$RUN_TXT")"
crash_chat out1 && fail "crash in the first session"
T="$W/e/d/transcript.jsonl"
[ -f "$T" ] || fail "control: no transcript after the first session"
TORN='{"t":"2026-11-29T14:01:00Z","kind":"turn","text":"actually pack'
printf '%s' "$TORN" >> "$T"
chattr +a "$T" || fail "harness: chattr +a failed"; _CHATTR+=("$T")
lsattr "$T" | cut -c1-20 | grep -q a || fail "harness: the append-only attribute did not hold"
chat out2 "$W/e/d" "$(at 120)" "$(steps turn 'will it fit?' turn 'actually packing 1024' turn "$Q_GMU")"
chattr -a "$T"
crash_chat out2 && fail "the restart crashed (rc $(cat out2/rc))"
grep -Eq "$VERDICT_ANY_RX" out2/slice_1.txt || fail "the restart did not answer 'will it fit?' for the remembered run"
grep -q '70B' out2/all.txt || fail "the 70B run was not remembered"
[ "$(cnt out2/all.txt 121.69)" -ge 1 ] || fail "the session did not go on"
r="$("$PY" "$H/_hr.py" lines_ok "$T" "$TORN")" || fail "a record was glued onto the torn one or left torn otherwise: $r"
[ "$(cat out2/rc)" = 0 ] || fail "exit $(cat out2/rc)"
pass "append-only torn transcript: run remembered, no glued record ($r)"
