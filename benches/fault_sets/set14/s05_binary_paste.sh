#!/usr/bin/env bash
# s05: 200 KB of binary (seeded random bytes: NUL, ESC, BEL, C1, invalid UTF-8) pasted as a turn, then a question.
# The session goes on, nothing raw from the binary reaches the screen, and the transcript stays valid JSON lines.
. "$(dirname "$0")/_lib.sh"; setup_env
"$PY" -c 'import random,sys; r=random.Random(14); d=bytes(r.randrange(256) for _ in range(200000)); d=d.replace(b"\n\n", b"\n"); open(sys.argv[1],"wb").write(d+b"\n\n")' bin.txt
chat out "$W/d" "$T0" "$(steps turn "$RUN_TXT" file "$W/bin.txt" wait 10 turn "$Q_GMU" wait 20 until '121\.69')" '[]' '{}' 60
crash_chat out && fail "crash (rc $(cat out/rc))"
[ "$(cnt out/all.txt 121.69)" -ge 1 ] || fail "the question after the binary paste was not answered (no 121.69)"
grep -Eq "$VERDICT_RX" out/slice_1.txt || fail "control: the run got no Verdict"
b="$(badctl out/all.txt)"
for k in ESC BEL C1 NUL BS BIDI; do [[ " $b " == *" $k "* ]] && fail "raw $k on screen after the binary paste (found: $b)"; done
[ -f "$W/d/transcript.jsonl" ] || fail "no transcript.jsonl"
r="$("$PY" "$H/_hr.py" lines_ok "$W/d/transcript.jsonl")" || fail "transcript damaged: $r"
[ "$(cat out/rc)" = 0 ] || fail "exit $(cat out/rc)"
pass "binary paste survived: question answered, no raw controls, transcript valid ($r)"
