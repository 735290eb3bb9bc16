#!/bin/bash
# s36: a whole last record without its final newline (as some editors save) is
# kept: no torn-* copy, the line is still there whole, the correction it carries
# ("actually packing 1536") still holds, and the next record starts on its own
# line.  Control: a copy of the directory whose last record is really cut (6 bytes
# short) gets a transcript.jsonl.torn-* on restart, as the README says.
SID=s36
source "$(dirname "$(readlink -f "$0")")/lib/common.sh" "$@"

D=$(mkdata d); T=$D/transcript.jsonl
printf '>>> turn\n%s\n>>> turn\nactually packing 1536\n' "$RUN" >script1
drive s1 45 --env HEADROOM_NOW=$T0 -- --data-dir "$D" <script1
drive_ok s1
rm -f "$D/lock"
[ -s "$T" ] || { fail "control: the first session wrote no transcript"; finish; }
C=$(mkdata c); cp -a "$D/." "$C/"
[ "$(tail -c 1 "$T" | od -An -c | tr -d ' ')" = '\n' ] || fail "setup: the transcript did not end with a newline"
truncate -s -1 "$T"
LAST=$(tail -n 1 "$T")
python3 -c "import json,sys; json.loads(sys.argv[1])" "$LAST" 2>/dev/null || fail "setup: the last record is not JSON"
truncate -s -6 "$C/transcript.jsonl"
printf '>>> turn\nwill it fit?\n' >script2
drive s2 45 --env HEADROOM_NOW=$(at 3600) -- --data-dir "$D" <script2
drive s3 45 --env HEADROOM_NOW=$(at 3600) -- --data-dir "$C" <script2
drive_ok s2; drive_ok s3
ls "$D"/transcript.jsonl.torn-* >/dev/null 2>&1 && fail "a whole last record without its newline was treated as torn (transcript.jsonl.torn-* made)"
grep -aqxF -- "$LAST" "$T" || fail "the whole last record (without its newline) is no longer a line of its own in the transcript"
r=$(tool jsonl "$T") || fail "the transcript is not whole after the restart: $r"
present "the last record's correction still holds" "1536" $(SL s2 1)
ls "$C"/transcript.jsonl.torn-* >/dev/null 2>&1 || fail "control: a really cut last record made no transcript.jsonl.torn-*, so the check above could not see one"
finish
