#!/bin/bash
# s34: editors save transcript.jsonl while a session runs.
# 1. an editor that writes a new file and renames it over the old one (same bytes);
# 2. a vim-style save: the old file is renamed to transcript.jsonl~ and a copy is
#    written under the old name.
# Every later turn must land in the file now named transcript.jsonl (never in the
# renamed-away one), replies keep coming, and the first replacement is said once.
SID=s34
source "$(dirname "$(readlink -f "$0")")/lib/common.sh" "$@"

D=$(mkdata d); T=$D/transcript.jsonl
cat >script <<EOF
>>> turn
$RUN
>>> sh
grep -aq 'packing 2048' '$T' && touch '$WORK/turn1-seen'
python3 -c "import os; b=open('$T','rb').read(); open('$D/.tx.tmp','wb').write(b); os.rename('$D/.tx.tmp','$T')"
>>> turn
what if batch 2?
>>> turn
$Q_GMU
>>> sh
mv '$T' '$T~' && cp '$T~' '$T' && sha256sum <'$T~' >'$WORK/backup.sum'
>>> turn
what if batch 3?
>>> turn
what if batch 4?
EOF
drive a 60 --env HEADROOM_NOW=$T0 -- --data-dir "$D" <script
drive_ok a
[ -f "$WORK/turn1-seen" ] || fail "control: turn 1 was not in transcript.jsonl before the edit, so the record checks below could not see turns"
for m in 'what if batch 2?' 'gpu-memory-utilization do for vllm' 'what if batch 3?' 'what if batch 4?'; do
  grep -aqF "$m" "$T" || fail "the turn '$m' is not in the file now named transcript.jsonl (lost after an editor's save)"
done
[ -f "$WORK/backup.sum" ] && { [ "$(sha256sum <"$T~")" = "$(cat "$WORK/backup.sum")" ] || fail "records were still written to the renamed-away transcript.jsonl~"; }
present "reply after the first replacement" "peak" $(SL a 2)
present "reply after the second replacement" "peak" $(SL a 4)
r=$(tool jsonl "$T") || fail "transcript.jsonl is not whole after the edits: $r"
n=0; for k in 2 3; do wm 'replac|renam|changed on disk|new file|another program|edited|moved|swapped|follow' "$(S a $k)" && n=$((n + 1)); done
[ "$n" -ge 1 ] || fail "[W] the first replacement of the transcript is not said"
[ "$n" -le 1 ] || fail "[W] the first replacement of the transcript is said in $n turns (said once)"
finish
