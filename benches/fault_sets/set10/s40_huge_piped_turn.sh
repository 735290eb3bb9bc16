#!/bin/bash
# s40: after two ordinary turns, a 10 MiB piped turn with no blank line (training
# log lines), then one more turn.  Reading stops with one line; every earlier turn
# was answered and is kept in the transcript; the session ends by itself, without
# a crash, and does not pour the 10 MiB back out.
SID=s40
source "$(dirname "$(readlink -f "$0")")/lib/common.sh" "$@"

python3 - <<'EOF'
with open("huge.txt", "w") as f:
    line = "{'loss': 2.3141, 'grad_norm': 0.8123, 'learning_rate': 0.0001, 'epoch': 0.42} step 1200/90000 [01:23:45<12:34:56, 2.10it/s]\n"
    n = (10 * 1024 * 1024) // len(line) + 1
    f.write(line * n)
    f.write("\n")
EOF
D=$(mkdata d)
cat >script <<EOF
>>> turn
$RUN
>>> turn
$Q_GMU
>>> rawfile $WORK/huge.txt
>>> turn start=4
will it fit?
EOF
drive a 100 --maxwait 40 --env HEADROOM_NOW=$T0 -- --data-dir "$D" <script
drive_ok a
et=$(cat "$WORK/a/exit_t"); awk -v e="$et" 'BEGIN{exit !(e < 90)}' || fail "the session took ${et}s to end after an over-long turn"
present "turn 1 answered before the huge turn" "peak" $(SL a 1)
present "turn 2 answered before the huge turn" "121.69" $(SL a 2)
grep -aq 'packing 2048' "$D/transcript.jsonl" 2>/dev/null || fail "turn 1 is not kept in the transcript"
grep -aq 'gpu-memory-utilization do for vllm' "$D/transcript.jsonl" 2>/dev/null || fail "turn 2 is not kept in the transcript"
after=$(cat "$(S a 3)" "$(S a 4)" 2>/dev/null | wc -c)
[ "$after" -lt 65536 ] || fail "$after bytes of output after the over-long turn (it was echoed back?)"
wm '8 ?MiB|too long|too big|limit|stopp|blank line|without a blank' "$(S a 3)" "$(S a 4)" "$WORK/a/err" || fail "[W] no line saying reading stopped at the turn limit"
finish
