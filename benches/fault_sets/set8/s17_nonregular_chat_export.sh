#!/usr/bin/env bash
# s17: non-regular paths typed in the chat: /dev/zero in a list beside a log, a directory
# after a role word, a symlink loop with a data extension; /export into a FIFO and into a
# directory even with --force. Each is explained in its turn, fast; nothing is written
# into the FIFO or directory; the session goes on (plan shown; /export to a new regular
# file works; regular thermal paths give a verdict: controls).
SID=s17
. "$(dirname "$0")/lib.sh" "$@"

F="$T/f"; fixtures "$F"
DIR="$T/samples.d"; mkdir "$DIR"
LOOP="$T/loop.csv"; ln -s "$LOOP" "$LOOP"
FIFO="$T/out.fifo"; mkfifo "$FIFO"
EXD="$T/exportdir"; mkdir "$EXD"
D=$(mkdd data)
unblock_later "$FIFO" 7
chat a "$NOW0" "$D" "is the slowdown thermal throttling? /dev/zero and $F/train.log

is the slowdown thermal throttling? the sampler log is at $DIR

is the slowdown thermal throttling? $LOOP and $F/train.log

/export $FIFO --force

/export $EXD --force

$RUN_TXT

/export $T/out.md

is the slowdown thermal throttling? $F/thermal.csv and $F/train.log"

rc_is a 0 || bad "the session exited $(rc_of a), want 0"
[ "$(ms_of a)" -lt 6000 ] || bad "the session took $(ms_of a) ms (blocked on /dev/zero or the FIFO?)"
panicked a && bad "panicked"
has a 'device|character special' || bad "[W] /dev/zero was not refused as a device"
has a 'director' || bad "[W] the directory was not refused as a directory"
has a 'loop|symlink|symbolic|too many levels' || bad "[W] the symlink loop was not named"
has a "$FIFO_RE" || bad "[W] /export into a FIFO was not refused by name"
[ -p "$FIFO" ] || bad "the FIFO was replaced by /export --force"
[ -z "$(ls -A "$EXD")" ] || bad "/export --force wrote into the directory"
has a "$PEAK2" || bad "the session did not go on to plan the run"
[ -s "$T/out.md" ] || bad "control: /export to a new regular file wrote nothing"
has a "$NOEVENT_RE" || bad "[W] control: regular thermal paths gave no verdict"
finish
