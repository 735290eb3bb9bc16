#!/bin/bash
# s35: the transcript is changed under a running session in two more ways:
# 1. truncated in place in the middle of its last record (truncate -s SIZE-9);
# 2. something else appends a torn record of its own ('{"note":"from another tool","half'
#    with no newline).
# Each next record must start on a line of its own (the lines holding the next
# turns parse as JSON), replies keep coming, and each change is said.
SID=s35
source "$(dirname "$(readlink -f "$0")")/lib/common.sh" "$@"

D=$(mkdata d); T=$D/transcript.jsonl
cat >script <<EOF
>>> turn
$RUN
>>> turn
what if batch 2?
>>> sh
python3 "$LIB/tools.py" linejson '$T' 'batch 2?' >'$WORK/ctl.txt'
truncate -s -9 '$T'
>>> turn
what if batch 3?
>>> sh
printf '%s' '{"note":"from another tool","half' >>'$T'
>>> turn
what if batch 5?
EOF
drive a 60 --env HEADROOM_NOW=$T0 -- --data-dir "$D" <script
drive_ok a
[ "$(cat "$WORK/ctl.txt" 2>/dev/null)" = ok ] || fail "control: before the cut the line holding 'batch 2?' was not whole JSON ($(cat "$WORK/ctl.txt" 2>/dev/null)), so the line checks saw nothing"
r=$(tool linejson "$T" 'what if batch 3?') || fail "after the cut, the next turn's record does not start on a line of its own: $r"
r=$(tool linejson "$T" 'what if batch 5?') || fail "after a foreign torn record, the next turn's record does not start on a line of its own: $r"
present "reply after the cut" "peak" $(SL a 3)
present "reply after the foreign record" "peak" $(SL a 4)
RX='cut|truncat|shorter|shrank|shrunk|own line|damaged|torn|changed|another program|something else|not ours|foreign|unexpected'
wm "$RX" $(SL a 3) || fail "[W] the cut under the running session is not said"
wm "$RX" $(SL a 4) || fail "[W] the foreign torn record is not said"
finish
