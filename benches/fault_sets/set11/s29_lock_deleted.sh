#!/usr/bin/env bash
# Family: one writer. Session A runs; the owner deletes the "stale" lock file and starts session B on the
# same data dir. The lock is flock on the directory itself, so B is refused (fast, not a crash) and writes
# nothing; A goes on and keeps its turns. Control: once A has ended, B starts and its turn is kept.
source "$(dirname "$0")/_lib.sh"; setup_env
newdir "$W/d"
printf '%s\n\n' "QLoRA on Gemma 2 9B, batch 3, packing 1024" > b_in.txt
cat > b.sh <<B
#!/usr/bin/env bash
rm -f "$W/d/lock"
s=\$(date +%s.%N)
HEADROOM_NOW=$(at 120) timeout 20 "$HR" --data-dir "$W/d" < "$W/b_in.txt" > "$W/b_out.txt" 2>&1
echo \$? > "$W/b_rc"
e=\$(date +%s.%N); python3 -c 'import sys; print("%.2f" % (float(sys.argv[2]) - float(sys.argv[1])))' \$s \$e > "$W/b_el"
B
chmod +x b.sh
chat outA "$W/d" "$T0" "$(steps turn "$RUN_TXT" sh "$W/b.sh" turn "actually packing 1024")" '[]' '{}' 60
rc=$(cat b_rc); el=$(cat b_el)
is_crash "$rc" b_out.txt && fail "B: crash or hang (rc $rc)"
[ "$rc" != 0 ] || fail "B was let in after the lock file was deleted (exit 0)"
lt "$el" 8 || fail "B took ${el}s to be refused"
crash_chat outA && fail "A: crash (rc $(cat outA/rc))"
grep -q 'Gemma 2 9B, batch 3' "$W/d/transcript.jsonl" && fail "B's turn was written while A held the directory"
"$PY" "$H/_hr.py" jsonl_has "$W/d/transcript.jsonl" 'packing 1024' >/dev/null || fail "A's turn after B's attempt is not kept"
HEADROOM_NOW=$(at 600) timeout 20 "$HR" --data-dir "$W/d" < b_in.txt > b2_out.txt 2>&1; rc2=$?
[ "$rc2" = 0 ] || fail "control: B after A ended exits $rc2"
grep -q 'Gemma 2 9B, batch 3' "$W/d/transcript.jsonl" || fail "control: B's turn is not found in the transcript even when B runs alone"
pass "B refused in ${el}s (rc $rc)"
