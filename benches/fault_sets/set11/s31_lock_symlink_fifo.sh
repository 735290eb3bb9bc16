#!/usr/bin/env bash
# Family: one writer / faults in the data dir. (a) `lock` is a symlink to a file outside; (b)
# `transcript.jsonl` is a symlink to a file outside; (c) `lock` is a FIFO. No file in the data dir is opened
# through a symlink, so the outside files never change; a FIFO in the lock's place is never opened, so the
# start cannot hang: the session answers.
source "$(dirname "$0")/_lib.sh"; setup_env
printf '%s\n\n' "$RUN_TXT" > in.txt
echo "VICTIM-ORIGINAL-1" > victim1.txt; echo "VICTIM-ORIGINAL-2" > victim2.txt
h1=$(sha256sum < victim1.txt); h2=$(sha256sum < victim2.txt)
newdir "$W/da"; ln -s "$W/victim1.txt" "$W/da/lock"
HEADROOM_NOW=$T0 timeout 20 "$HR" --data-dir "$W/da" < in.txt > oa.txt 2>&1; rc=$?
is_crash $rc oa.txt && fail "(a) crash or hang (rc $rc)"
[ -s oa.txt ] || fail "control (a): no output at all"
[ "$(sha256sum < victim1.txt)" = "$h1" ] || fail "(a) a write went through the lock symlink into the outside file"
newdir "$W/db"; ln -s "$W/victim2.txt" "$W/db/transcript.jsonl"
HEADROOM_NOW=$T0 timeout 20 "$HR" --data-dir "$W/db" < in.txt > ob.txt 2>&1; rc=$?
is_crash $rc ob.txt && fail "(b) crash or hang (rc $rc)"
[ -s ob.txt ] || fail "control (b): no output at all"
[ "$(sha256sum < victim2.txt)" = "$h2" ] || fail "(b) the transcript was written through a symlink"
newdir "$W/dc"; mkfifo "$W/dc/lock"
s=$(now_s); HEADROOM_NOW=$T0 timeout 20 "$HR" --data-dir "$W/dc" < in.txt > oc.txt 2>&1; rc=$?; el=$(elapsed "$s" "$(now_s)")
is_crash $rc oc.txt && fail "(c) a FIFO named lock hung or crashed the start (rc $rc, ${el}s)"
grep -qi verdict oc.txt || fail "(c) no verdict with a FIFO named lock (rc $rc)"
lt "$el" 8 || fail "(c) start took ${el}s"
pass
