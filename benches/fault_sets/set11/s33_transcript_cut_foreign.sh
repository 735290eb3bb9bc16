#!/usr/bin/env bash
# Family: transcript changed under a running session. (a) Truncated in place mid-record; (b) something
# else appends a torn foreign record (no newline). Either way the next record starts on a line of its own:
# later turns are whole, valid JSON lines.
source "$(dirname "$0")/_lib.sh"; setup_env
for c in a b; do
  newdir "$W/d$c"
  if [ $c = a ]; then act="truncate -s -9 $W/d$c/transcript.jsonl"
  else act="printf '%s' '{\"kind\":\"note\",\"by\":\"sync-tool\",\"text\":\"half a rec' >> $W/d$c/transcript.jsonl"; fi
  chat "out$c" "$W/d$c" "$T0" "$(steps turn "$RUN_TXT" turn "$Q_GMU" sh "cp $W/d$c/transcript.jsonl $W/pre$c.jsonl; $act" turn "actually packing 1024" turn "what if batch 2?")"
  crash_chat "out$c" && fail "($c) crash (rc $(cat out$c/rc))"
  "$PY" "$H/_hr.py" jsonl_has "$W/pre$c.jsonl" "$RUN_TXT" >/dev/null || fail "control ($c): turn 1 not found as a JSON line before the change"
  "$PY" "$H/_hr.py" jsonl_has "$W/d$c/transcript.jsonl" 'packing 1024' >/dev/null || fail "($c) the turn after the change is not a whole JSON line"
  "$PY" "$H/_hr.py" jsonl_has "$W/d$c/transcript.jsonl" 'what if batch 2' >/dev/null || fail "($c) the second turn after the change is not a whole JSON line"
  HEADROOM_NOW=$(at 900) timeout 20 "$HR" --data-dir "$W/d$c" < /dev/null > "r$c.txt" 2>&1; rc=$?
  is_crash $rc "r$c.txt" && fail "($c) the restart crashed (rc $rc)"
done
pass
