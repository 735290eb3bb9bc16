#!/usr/bin/env bash
# s16: thermal paths typed in the chat are remembered. Session 1 reads regular files (a
# verdict: control). Between sessions the samples file is replaced by a FIFO of the same
# name. Session 2 asks again: refused by name in milliseconds, no hang; session 3 (greeting
# only) starts at once. Session 4 types the FIFO path itself: refused, and the session goes
# on to plan the run.
SID=s16
. "$(dirname "$0")/lib.sh" "$@"

F="$T/f"; fixtures "$F"
D=$(mkdd data); D4=$(mkdd data4)
chat s1 "$NOW0" "$D" "is the slowdown thermal throttling? $F/thermal.csv and $F/train.log"
rm -f "$F/thermal.csv"; mkfifo "$F/thermal.csv"
unblock_later "$F/thermal.csv" 6
chat s2 "2026-11-29T15:06:00Z" "$D" "is it thermal throttling? check the same two files again"
unblock_later "$F/thermal.csv" 6
chat s3 "2026-11-29T15:07:00Z" "$D" ""
unblock_later "$F/thermal.csv" 6
chat s4 "$NOW0" "$D4" "is the slowdown thermal throttling? $F/thermal.csv and $F/train.log

$RUN_TXT"

rc_is s1 0 || bad "session 1 exited $(rc_of s1)"
has s1 "$NOEVENT_RE" || bad "[W] control: typed regular paths gave no thermal verdict"
for n in s2 s3 s4; do
  rc_is $n 0 || bad "session $n exited $(rc_of $n), want 0"
  [ "$(ms_of $n)" -lt 4000 ] || bad "session $n took $(ms_of $n) ms with a FIFO at a remembered/typed path"
  panicked $n && bad "session $n panicked"
done
has s2 "$FIFO_RE" || bad "[W] the remembered path, now a FIFO, was not refused by name"
has s4 "$FIFO_RE" || bad "[W] the typed FIFO path was not refused by name"
has s4 "$PEAK2" || bad "the session did not go on after the FIFO path"
[ -p "$F/thermal.csv" ] || bad "the FIFO was replaced"
finish
