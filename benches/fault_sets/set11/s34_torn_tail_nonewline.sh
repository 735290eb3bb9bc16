#!/usr/bin/env bash
# Family: torn transcript records. (a) A torn last record (cut mid-JSON, no newline): cut back on start,
# the original kept as transcript.jsonl.torn-<time>, the session works. (b) A whole, valid last record
# whose only fault is the missing final newline: kept, not cut as torn (no .torn- file), and its bytes
# are still a record of the transcript. (a) is the control that the check sees a .torn- file.
source "$(dirname "$0")/_lib.sh"; setup_env
chat out0 "$W/d" "$T0" "$(steps turn "$RUN_TXT" turn "actually packing 1024")"
crash_chat out0 && fail "first session crashed (rc $(cat out0/rc))"
cp -a "$W/d" "$W/da"; cp -a "$W/d" "$W/db"
printf '%s' '{"kind":"turn","text":"QLoRA on Gem' >> "$W/da/transcript.jsonl"
chat outa "$W/da" "$(at 3600)" "$(steps turn "will it fit?")"
crash_chat outa && fail "(a) crash (rc $(cat outa/rc))"
ls "$W/da" | grep -q '^transcript.jsonl.torn-' || fail "(a) no transcript.jsonl.torn-* kept for a torn record"
"$PY" "$H/_hr.py" jsonl_ok "$W/da/transcript.jsonl" >/dev/null || fail "(a) transcript not whole JSON lines after the repair"
grep -qi verdict outa/all.txt || fail "(a) no verdict after the repair"
last="$(tail -n 1 "$W/db/transcript.jsonl")"
"$PY" -c 'import json,sys; json.loads(sys.argv[1])' "$last" || fail "harness: the last record is not JSON"
truncate -s -1 "$W/db/transcript.jsonl"
[ "$(tail -c 1 "$W/db/transcript.jsonl" | od -An -c | tr -d ' ')" != '\n' ] || fail "harness: newline not removed"
chat outb "$W/db" "$(at 3600)" "$(steps turn "will it fit?")"
crash_chat outb && fail "(b) crash (rc $(cat outb/rc))"
ls "$W/db" | grep -q '^transcript.jsonl.torn-' && fail "(b) a valid last record without its newline was cut as torn"
grep -qxF -- "$last" "$W/db/transcript.jsonl" || fail "(b) the last record is no longer a line of the transcript"
"$PY" "$H/_hr.py" jsonl_ok "$W/db/transcript.jsonl" >/dev/null || fail "(b) transcript not whole JSON lines"
pass
