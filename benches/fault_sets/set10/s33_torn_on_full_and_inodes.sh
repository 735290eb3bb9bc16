#!/bin/bash
# s33: a transcript whose last record was torn by a crash, opened where the repair
# cannot be written: (a) a tmpfs full by bytes, (b) a tmpfs out of inodes (appends
# would still fit, new files cannot be made).  The session must start read-only,
# answer, exit 0, and lose nothing: the transcript is either untouched or its
# original bytes are kept in transcript.jsonl.torn-*.  (c) control: with room the
# torn record is cut back and the original kept as transcript.jsonl.torn-*.
SID=s33
source "$(dirname "$(readlink -f "$0")")/lib/common.sh" "$@"

FRAG='{"t":"2026-11-29T14:05:00Z","kind":"turn","text":"what if ba'
prep() { # prep MOUNTPOINT OPTIONS: a directory with one saved turn and a torn record
  mount_tmpfs "$1" "$2"; mkdir -m 700 "$1/d"
  printf '>>> turn\n%s\n' "$RUN" >"$WORK/script0"
  drive "prep-$(basename "$1")" 25 --env HEADROOM_NOW=$T0 -- --data-dir "$1/d" <"$WORK/script0"
  rm -f "$1/d/lock"
  printf '%s' "$FRAG" >>"$1/d/transcript.jsonl"
}
kept() { # kept LABEL DIR SUM0: untouched, or the original kept in a torn-* file
  local now; now=$(sha256sum <"$2/transcript.jsonl")
  [ "$now" = "$3" ] && return 0
  local t; for t in "$2"/transcript.jsonl.torn-*; do
    [ -f "$t" ] && grep -aqF "$FRAG" "$t" && return 0
  done
  fail "$1: the transcript was changed and its torn original was not kept in transcript.jsonl.torn-*"
}
printf '>>> turn\nwill it fit?\n>>> turn\n%s\n' "$Q_GMU" >script
# (a) full by bytes
prep "$WORK/ma" size=1m; sa=$(sha256sum <"$WORK/ma/d/transcript.jsonl"); fill "$WORK/ma"
drive a 25 --env HEADROOM_NOW=$(at 3600) -- --data-dir "$WORK/ma/d" <script
# (b) out of inodes
prep "$WORK/mb" size=8m,nr_inodes=64; sb=$(sha256sum <"$WORK/mb/d/transcript.jsonl")
i=0; while : >"$WORK/mb/.i$i" 2>/dev/null; do i=$((i + 1)); [ $i -gt 5000 ] && break; done
note "(b) $i empty files made before the inodes ran out"
drive b 25 --env HEADROOM_NOW=$(at 3600) -- --data-dir "$WORK/mb/d" <script
for x in a b; do
  drive_ok $x
  [ "$(cat "$WORK/$x/rc")" = 0 ] || fail "($x) exit $(cat "$WORK/$x/rc"), not 0"
  present "($x) plan answered" "peak" $(SL $x 1)
  present "($x) question answered" "121.69" $(SL $x 2)
  wm 'read-only|read only|not saved|cannot write|can.t write|could not write|no space|disk is full|disk full|torn|repair' "$WORK/$x/all" "$WORK/$x/err" || fail "[W] ($x) the owner is not told why nothing is saved"
done
kept "(a) full by bytes" "$WORK/ma/d" "$sa"
kept "(b) out of inodes" "$WORK/mb/d" "$sb"
# (c) control with room
prep "$WORK/mc" size=8m
drive c 25 --env HEADROOM_NOW=$(at 3600) -- --data-dir "$WORK/mc/d" <script
drive_ok c
found=""; for t in "$WORK"/mc/d/transcript.jsonl.torn-*; do [ -f "$t" ] && grep -aqF "$FRAG" "$t" && found=$t; done
[ -n "$found" ] || fail "control: (c) with room, the torn record was not kept as transcript.jsonl.torn-* (the README's repair), so the checks above could not see one"
r=$(tool jsonl "$WORK/mc/d/transcript.jsonl") || fail "control: (c) after the repair the transcript is still not whole: $r"
finish
