#!/usr/bin/env bash
# s29: (a) the transcript's last record is whole but lacks its newline: it is kept (no
# transcript.jsonl.torn-* file, the adopted what-if is remembered, and the next record is
# not glued onto it). (b) Control: a last record cut mid-JSON is cut back, the original kept
# as transcript.jsonl.torn-<time>, and that is said. (c) A 64 MiB record (over the 16 MiB
# limit) is skipped: the restart is fast, small (peak RSS under 60 MiB) and remembers.
SID=s29
. "$(dirname "$0")/lib.sh" "$@"

BODY="$RUN_TXT

what if batch 4?

ok, do that"
A=$(mkdd a); B=$(mkdd b); C=$(mkdd c)
chat a1 "$NOW0" "$A" "$BODY"
chat b1 "$NOW0" "$B" "$BODY"
chat c1 "$NOW0" "$C" "$RUN_TXT"

TA=$(transcript_of "$A")
last=$(tail -c 1 "$TA" | od -An -c | tr -d ' ')
[ "$last" = '\n' ] && truncate -s -1 "$TA"
chat a2 "2026-11-29T15:01:00Z" "$A" "will it fit?"
rc_is a2 0 || bad "(a) the restart exited $(rc_of a2)"
has a2 "$PEAK4" || bad "(a) the newline-less last record was lost (the adopted batch 4 is gone)"
[ -z "$(python3 "$FX" torn_files "$A")" ] || bad "(a) a whole last record without newline was treated as torn: $(python3 "$FX" torn_files "$A")"
jb=$(jsonl_bad "$TA"); [ -z "$jb" ] || bad "(a) line $jb is not a whole record (the next record was glued on?)"
printf '{"a": 1}{"b": 2}\n' >"$T/selftest.jsonl"; [ -n "$(jsonl_bad "$T/selftest.jsonl")" ] || bad "control: the glued-record check is blind"

TB=$(transcript_of "$B")
truncate -s -20 "$TB"
chat b2 "2026-11-29T15:01:00Z" "$B" "will it fit?"
rc_is b2 0 || bad "(b) the restart after a torn record exited $(rc_of b2)"
[ -n "$(python3 "$FX" torn_files "$B")" ] || bad "control (b): a torn last record left no transcript.jsonl.torn-* copy"
has b2 'torn|cut back|incomplete|damaged|repaired|partial' || bad "[W] (b) the torn record was not said"

TC=$(transcript_of "$C")
python3 "$FX" hugeline "$TC" 64
t0=$(date +%s%3N)
read -r rc kib < <(HEADROOM_NOW="2026-11-29T15:01:00Z" python3 "$FX" maxrss "$T/c2" --stdin <(printf 'will it fit?\n') -- timeout 30 "$BIN" --data-dir "$C")
echo "$rc" >"$T/c2.rc"; ms=$(( $(date +%s%3N) - t0 ))
[ "$ms" -lt 6000 ] || bad "(c) the restart over a 64 MiB record took $ms ms"
rc_is c2 0 || bad "(c) the restart over a 64 MiB record exited $rc"
has c2 "$PEAK2" || bad "(c) the restart over a 64 MiB record forgot the run"
[ "${kib:-0}" -gt 0 ] && [ "$kib" -lt 61440 ] || bad "(c) peak RSS $((${kib:-0} / 1024)) MiB reading a transcript with a 64 MiB record (want < 60)"
finish
