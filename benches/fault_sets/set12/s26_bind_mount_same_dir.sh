#!/usr/bin/env bash
# Family 4 / one writer. Session A runs on data dir d. While it runs, the owner deletes the lock file and
# starts session B on the same directory reached through a bind mount (another path, same directory), and C
# through a symlink to it. flock on the directory itself holds across paths: B and C are refused within 8 s
# (not a crash) and write nothing; A's later turn is kept. Control: after A ends, B via the bind mount runs
# and its turn is kept.
source "$(dirname "$0")/_lib.sh"; setup_env
newdir "$W/d"; mkdir -p "$W/alias"
mount --bind "$W/d" "$W/alias" || fail "cannot bind-mount (needs root)"; _MOUNTS+=("$W/alias")
ln -s "$W/d" "$W/link"
printf '%s\n\n' "QLoRA on Gemma 2 9B, batch 3, packing 1024" > b_in.txt
printf '%s\n\n' "LoRA on Qwen2.5 7B, batch 5, packing 512" > c_in.txt
cat > bc.sh <<B
#!/usr/bin/env bash
rm -f "$W/d/lock"
for x in b c; do
  if [ \$x = b ]; then dd="$W/alias"; else dd="$W/link"; fi
  s=\$(date +%s.%N)
  HEADROOM_NOW=$(at 120) timeout 20 "$HR" --data-dir "\$dd" < "$W/\${x}_in.txt" > "$W/\${x}_out.txt" 2>&1
  echo \$? > "$W/\${x}_rc"
  e=\$(date +%s.%N); python3 -c 'import sys; print("%.2f" % (float(sys.argv[2]) - float(sys.argv[1])))' \$s \$e > "$W/\${x}_el"
done
B
chmod +x bc.sh
chat outA "$W/d" "$T0" "$(steps turn "$RUN_TXT" sh "$W/bc.sh" turn "actually packing 1024")" '[]' '{}' 80
crash_chat outA && fail "A: crash (rc $(cat outA/rc))"
for x in b c; do
  rc=$(cat ${x}_rc); el=$(cat ${x}_el)
  is_crash "$rc" ${x}_out.txt && fail "$x: crash or hang (rc $rc)"
  [ "$rc" != 0 ] || fail "$x was let in on the same directory through another path (exit 0)"
  lt "$el" 8 || fail "$x took ${el}s to be refused"
done
grep -q 'Gemma 2 9B, batch 3' "$W/d/transcript.jsonl" && fail "B's turn was written while A held the directory"
grep -q 'Qwen2.5 7B, batch 5' "$W/d/transcript.jsonl" && fail "C's turn was written while A held the directory"
"$PY" "$H/_hr.py" jsonl_has "$W/d/transcript.jsonl" 'packing 1024' >/dev/null || fail "A's turn after B and C tried is not kept"
HEADROOM_NOW=$(at 600) timeout 20 "$HR" --data-dir "$W/alias" < b_in.txt > b2_out.txt 2>&1; rc2=$?
[ "$rc2" = 0 ] || fail "control: B via the bind mount after A ended exits $rc2"
grep -q 'Gemma 2 9B, batch 3' "$W/d/transcript.jsonl" || fail "control: B's turn is not kept even when B runs alone"
pass "B rc $(cat b_rc) in $(cat b_el)s, C rc $(cat c_rc) in $(cat c_el)s"
