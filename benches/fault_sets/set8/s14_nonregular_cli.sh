#!/usr/bin/env bash
# s14: paths that are not regular files on the command line: /dev/zero (a device that never
# ends), a directory, a symlink loop, a UNIX socket, each as thermal samples, and /dev/zero
# as --train-log, --free, --config and procs input; a directory as procs input. Each is
# refused in milliseconds (exit 2), by what it is. Control: regular files are not refused.
SID=s14
. "$(dirname "$0")/lib.sh" "$@"

F="$T/f"; fixtures "$F"
DIR="$T/adir.csv"; mkdir "$DIR"
LOOP="$T/loop.csv"; ln -s "$LOOP" "$LOOP"
SOCK="$T/sock.csv"; python3 "$FX" sock "$SOCK"
D=$(mkdd data)
c() { local n="$1"; shift; run "$n" "$NOW0" "$D" "$@" </dev/null; }

c zth thermal /dev/zero --train-log "$F/train.log"
c dth thermal "$DIR" --train-log "$F/train.log"
c lth thermal "$LOOP" --train-log "$F/train.log"
c sth thermal "$SOCK" --train-log "$F/train.log"
c ztl thermal "$F/thermal.csv" --train-log /dev/zero
c zfr plan --params 7B --method lora --batch 2 --pack 4096 --free /dev/zero
c zcf plan --config /dev/zero --method lora --batch 2 --pack 4096
c zpr procs /dev/zero --need 60
c dpr procs "$DIR" --need 60

chk() { # chk NAME REGEX WHAT
  rc_is "$1" 2 || bad "$1 ($3): exit $(rc_of "$1"), want 2"
  [ "$(ms_of "$1")" -lt 3000 ] || bad "$1 ($3): took $(ms_of "$1") ms"
  has "$1" "$2" || bad "[W] $1: the refusal does not say it is a $3"
  panicked "$1" && bad "$1 panicked"
}
DEV_RE='device|character special|not a (regular )?file'
chk zth "$DEV_RE" device
chk ztl "$DEV_RE" device
chk zfr "$DEV_RE" device
chk zcf "$DEV_RE" device
chk zpr "$DEV_RE" device
chk dth 'director' directory
chk dpr 'director' directory
chk lth 'loop|symlink|symbolic|too many levels' 'symlink loop'
chk sth 'socket' socket

c cth thermal "$F/thermal.csv" --train-log "$F/train.log"
c cpr procs "$F/ps.txt" --need 60
for n in cth cpr; do r=$(rc_of $n); { [ "$r" = 0 ] || [ "$r" = 1 ]; } || bad "control $n: exit $r on regular files"; done
finish
