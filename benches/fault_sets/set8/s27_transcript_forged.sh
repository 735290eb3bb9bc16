#!/usr/bin/env bash
# s27: between sessions the transcript is edited (every 60.17 made 12345.67, saved by
# rename) and forged records are appended: copies of each record with u64-max / 1.8e17 /
# negated numbers, absurd figures in the strings, strings turned into objects, records of
# the wrong shape, and a reply record claiming "fits (184467440737095516.15 GB of 0.00 GB)".
# The restart starts, remembers the run, and recomputes: "will it fit?" shows 60.17
# (control: the figures are visible), never 12345.67 or any forged figure.
SID=s27
. "$(dirname "$0")/lib.sh" "$@"

D=$(mkdd data)
chat a "$NOW0" "$D" "$RUN_TXT"
TR=$(transcript_of "$D")
python3 "$FX" replace_by_rename "$TR" "60.17" "12345.67"
nf=$(python3 "$FX" forge "$TR")
chat b "2026-11-29T15:01:00Z" "$D" "will it fit?

/status"

rc_is a 0 || bad "session 1 exited $(rc_of a)"
has a "$PEAK2" || bad "setup: session 1 did not plan ($PEAK2)"
[ "${nf:-0}" -gt 5 ] 2>/dev/null || bad "setup: nothing forged ($nf)"
rc_is b 0 || bad "the restart over forged records exited $(rc_of b), want 0"
panicked b && bad "the restart panicked on forged records"
has b 'qwen' || bad "the restart forgot the run"
has b "$PEAK2" || bad "control: 'will it fit?' after the forgery did not show the recomputed $PEAK2"
has b '12345\.67' && bad "an edited figure from the transcript (12345.67) was trusted"
has b '18446744|1\.8446744|184467440737|e\+1[0-9]' && bad "a forged absurd figure reached the screen"
has b 'of 0\.00 GB' && bad "the forged 'of 0.00 GB' budget reached the screen"
finish
