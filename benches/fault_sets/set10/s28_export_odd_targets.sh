#!/bin/bash
# s28: /export meets odd targets in one session: a FIFO with a reader waiting on it
# (with --force), an existing file (without --force), /dev/full (with --force),
# a directory (with --force).  Nothing is written into the FIFO, the existing file
# keeps its bytes, and the session answers its next turn each time.  Control: a
# plain new path gets the export.
SID=s28
source "$(dirname "$(readlink -f "$0")")/lib/common.sh" "$@"

mkfifo out.fifo; mkdir adir; printf 'KEEPME owner notes\n' >exists.md
cat out.fifo >got.txt 2>/dev/null &
BGPIDS+=($!)
D=$(mkdata d)
cat >script <<EOF
>>> turn
$RUN
>>> turn start=4
/export $WORK/out.fifo --force
>>> turn
what if batch 2?
>>> turn start=4
/export $WORK/exists.md
>>> turn start=4
/export /dev/full --force
>>> turn start=4
/export $WORK/adir --force
>>> turn
$Q_GMU
>>> turn start=4
/export $WORK/new.md
EOF
drive a 60 --env HEADROOM_NOW=$T0 -- --data-dir "$D" <script
drive_ok a
[ "$(stat -c %s got.txt 2>/dev/null || echo 0)" -eq 0 ] || fail "/export --force wrote $(stat -c %s got.txt) bytes into a FIFO"
[ "$(cat exists.md)" = "KEEPME owner notes" ] || fail "/export without --force changed an existing file"
wm 'already exists|exists' $(SL a 4) || fail "[W] /export onto an existing file does not say it already exists"
present "session goes on after /export to a FIFO" "peak" $(SL a 3)
present "session goes on after /export to a device and a directory" "121.69" $(SL a 7)
[ -s new.md ] || fail "control: /export to a new path wrote nothing, so the FIFO check could not see an export"
[ -z "$(ls -A adir)" ] || fail "/export --force wrote into a directory: $(ls -A adir | head -3 | tr '\n' ' ')"
finish
