#!/usr/bin/env bash
# s21: the data directory is on a small tmpfs. Session 1 (space) plans the run and reports
# an OOM (ladder step 1 pending). The disk is filled. Session 2 starts on the full disk:
# it starts (read-only), remembers the run and the pending ladder step, answers a 20 KB ps
# paste and "will it fit?", and says once that it cannot save. After space is freed,
# session 3 remembers the run; the transcript never holds a torn record.
SID=s21
. "$(dirname "$0")/lib.sh" "$@"

M="$T/mnt"; need_root_tmpfs "$M" 2m
D="$M/data"; mkdir "$D"; chmod 700 "$D"
python3 "$FX" biglisting "$T/ps20k.txt" 20000 S21MARK

chat a "$NOW0" "$D" "$RUN_TXT

OOM at step 340"
fill_disk "$M/fill"
chat b "2026-11-29T15:01:00Z" "$D" "$(cat "$T/ps20k.txt")

will it fit?

/status"
rm -f "$M/fill" "$M/fill.2"
chat c "2026-11-29T15:06:00Z" "$D" "will it fit?"

TR=$(transcript_of "$D")
rc_is a 0 || bad "session 1 exited $(rc_of a)"
has a "$NOTSAVED_RE" && bad "control: session 1 (space) already said it could not save (the message check is not specific)"
rc_is b 0 || bad "session 2 on a full disk exited $(rc_of b), want 0 (read-only start)"
panicked b && bad "session 2 panicked"
has b '415002' || bad "session 2: the reply to the ps paste was not shown"
has b "$PEAK2" || bad "session 2: the remembered run was not planned ($PEAK2)"
has b "$NOTSAVED_RE" || bad "[W] session 2 did not say it cannot save (read-only / not saved)"
has b 'oom|ladder|flush|page cache|drop.caches|step 1' || bad "[W] session 2 lost the pending OOM ladder step"
rc_is c 0 || bad "session 3 exited $(rc_of c)"
has c "$PEAK2" || bad "session 3 did not remember the run"
jb=$(jsonl_bad "$TR"); [ -z "$jb" ] || bad "transcript line $jb is not a whole record"
printf '{"torn": "ha' >"$T/selftest.jsonl"; [ -n "$(jsonl_bad "$T/selftest.jsonl")" ] || bad "control: the torn-line check cannot see a torn line"
finish
