#!/usr/bin/env bash
# s23: about 150 KB left on the data directory's tmpfs, then a 400 KB ps paste (over 64 KiB,
# so it is kept in pastes/). Writing it fails part-way: the reply is still shown, the turn
# is marked not saved, the session goes on. Nothing cut short may be left in pastes/ under a
# final name (README: temporary name, synced, renamed); after space is freed the run is
# remembered and the transcript is whole. Control: with space, the same paste IS kept in
# pastes/ whole (the check can see a kept paste).
SID=s23
. "$(dirname "$0")/lib.sh" "$@"

M="$T/mnt"; need_root_tmpfs "$M" 1m
D="$M/data"; mkdir "$D"; chmod 700 "$D"
python3 "$FX" biglisting "$T/big.txt" 400000 S23ENDMARK

chat a "$NOW0" "$D" "$RUN_TXT"
dd if=/dev/zero of="$M/keep" bs=4096 count=37 >/dev/null 2>&1
fill_disk "$M/fill"
rm -f "$M/keep"
chat b "2026-11-29T15:01:00Z" "$D" "$(cat "$T/big.txt")

what if batch 4?"
rm -f "$M/fill" "$M/fill.2"
chat c "2026-11-29T15:06:00Z" "$D" "will it fit?"

rc_is a 0 || bad "session 1 exited $(rc_of a)"
rc_is b 0 || bad "the big-paste session exited $(rc_of b), want 0"
panicked b && bad "panicked"
has b '415002' || bad "the reply to the big paste was not shown"
has b "$PEAK4" || bad "the session did not go on after the paste could not be kept"
has b "$NOTSAVED_RE" || bad "[W] the paste's turn was not marked not saved"
rc_is c 0 || bad "the session after freeing space exited $(rc_of c)"
has c "$PEAK2" || bad "the session after freeing space did not remember the run"
jb=$(jsonl_bad "$(transcript_of "$D")"); [ -z "$jb" ] || bad "transcript line $jb is torn"
if [ -d "$D/pastes" ]; then
  cut=$(python3 "$FX" kept_pastes "$D/pastes" S23ENDMARK | python3 -c 'import sys; print(" ".join(l.split(" ",1)[1].strip() for l in sys.stdin if l.startswith("cut ")))')
  [ -z "$cut" ] || bad "a cut-short paste is kept under a final name: $cut"
fi

E=$(mkdd ctl)
chat e "$NOW0" "$E" "$RUN_TXT

$(cat "$T/big.txt")"
python3 "$FX" kept_pastes "$E/pastes" S23ENDMARK 2>/dev/null | python3 "$FX" grep c '(^|\s)ok /' \
  || bad "control: with space the 400 KB paste was not kept whole in pastes/ (README: pastes over 64 KiB)"
finish
