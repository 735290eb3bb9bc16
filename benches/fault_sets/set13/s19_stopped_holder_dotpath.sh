#!/usr/bin/env bash
# s19 (family 2, two sessions): session A runs on dA and is frozen with SIGSTOP (Ctrl-Z); the `lock`
# file is deleted; session B starts on the same directory spelled "dA/./" with a Gemma turn.
# Expect: B is refused (non-zero exit, not the 10 s timeout) within 8 s and its turn is not written;
# after SIGCONT, A's next turn ("packing 1024") is saved. Control: after A has ended, B on "dA/./"
# starts (exit 0) and its turn is written.
. "$(dirname "$0")/_lib.sh"; setup_env
cat > "$W/b.sh" <<EOB
s=\$(date +%s.%N)
printf 'QLoRA on Gemma 2 9B, batch 3, packing 1024\n\n' | HEADROOM_NOW="$(at 60)" timeout 10 "$HR" --data-dir "$W/dA/./" > "\$1.out" 2>&1
echo \$? > "\$1.rc"
"$PY" -c 'import sys,time; print("%.2f" % (time.time()-float(sys.argv[1])))' "\$s" > "\$1.el"
EOB
ST='[{"turn": "'"$RUN_TXT"'"}, {"kill": "STOP"}, {"sh": "rm -f '"$W"'/dA/lock; bash '"$W"'/b.sh '"$W"'/b1"}, {"kill": "CONT"}, {"sleep": 0.5}, {"turn": "packing 1024"}]'
chat oA "$W/dA" "$T0" "$ST" '[]' '{}' 40
crash_chat oA && fail "crash in A (rc $(cat oA/rc))"
grep -q '70B' "$W/dA/transcript.jsonl" 2>/dev/null || fail "control: A's first turn was not saved"
rc=$(cat "$W/b1.rc"); el=$(cat "$W/b1.el")
grep -q 'Gemma' "$W/dA/transcript.jsonl" 2>/dev/null && fail "B's turn was written while A held the directory"
[ "$rc" != 0 ] || fail "B was let in beside A (exit 0)"
[ "$rc" != 124 ] && lt "$el" 8 || fail "B was not refused promptly (exit $rc after ${el}s)"
is_crash "$rc" "$W/b1.out" && fail "B crashed (exit $rc)"
grep -q 'packing 1024' "$W/dA/transcript.jsonl" 2>/dev/null || fail "A's turn after SIGCONT was not saved"
bash "$W/b.sh" "$W/b2"
[ "$(cat "$W/b2.rc")" = 0 ] || fail "control: B on dA/./ after A ended exited $(cat "$W/b2.rc")"
grep -q 'Gemma' "$W/dA/transcript.jsonl" || fail "control: B's turn was not written after A ended"
pass "B refused: exit $rc in ${el}s"
