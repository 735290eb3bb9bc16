#!/usr/bin/env bash
# Family: one writer / transcript replaced. While a session runs, the owner "edits" transcript.jsonl with
# an editor that saves by writing a new file and renaming it over the old one. headroom follows the
# replaced file (later turns land in the file now named transcript.jsonl) and says so once.
source "$(dirname "$0")/_lib.sh"; setup_env
newdir "$W/d"
cat > edit.sh <<E
#!/usr/bin/env bash
ln "$W/d/transcript.jsonl" "$W/old_inode.jsonl"
cp "$W/d/transcript.jsonl" "$W/d/.transcript.jsonl.swp-new"
mv -f "$W/d/.transcript.jsonl.swp-new" "$W/d/transcript.jsonl"
E
chmod +x edit.sh
chat out "$W/d" "$T0" "$(steps turn "$RUN_TXT" sh "$W/edit.sh" turn "actually packing 1024" turn "what if batch 2?" turn "$Q_GMU")"
crash_chat out && fail "crash (rc $(cat out/rc))"
[ -e old_inode.jsonl ] || fail "harness: the transcript did not exist after turn 1"
"$PY" "$H/_hr.py" jsonl_has old_inode.jsonl "$RUN_TXT" >/dev/null || fail "control: turn 1 is not found in the transcript as a JSON line"
"$PY" "$H/_hr.py" jsonl_has "$W/d/transcript.jsonl" 'packing 1024' >/dev/null || fail "turn 2 is not in the file now named transcript.jsonl (lost on disk)"
"$PY" "$H/_hr.py" jsonl_has "$W/d/transcript.jsonl" 'what if batch 2' >/dev/null || fail "turn 3 is not in the file now named transcript.jsonl"
around out 2 | grep -q '1024' || fail "the reply to 'actually packing 1024' does not show 1024"
# [W] said once: lines naming the transcript being replaced / renamed / a new file
n=$(grep -icE 'transcript.*(replac|renam|moved|new file|swapped|follow)|(replac|renam|moved).*transcript' out/all.txt)
[ "$n" -ge 1 ] || fail "[W] the replacement was not said"
[ "$n" -le 1 ] || fail "[W] the replacement was said $n times (once wanted)"
pass
