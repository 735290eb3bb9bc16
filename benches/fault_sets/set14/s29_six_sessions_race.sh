#!/usr/bin/env bash
# s29: six sessions started at the same moment on one data dir that does not exist yet (a script launched from six
# terminals). Exactly one runs; the other five are refused (README: "A second session on the same directory is
# refused") without a crash: each of them answers nothing and either exits non-zero or says why (another session,
# the lock, in use); the transcript holds one session's turn and is whole JSON lines.
. "$(dirname "$0")/_lib.sh"; setup_env
for i in 1 2 3 4 5 6; do
  spec="$("$PY" -c 'import json,sys; W,T0,i=sys.argv[1:4]; print(json.dumps({"args":["--data-dir",W+"/race"],"env":{"HEADROOM_NOW":T0},"timeout":25,
  "steps":[{"turn":"QLoRA on Llama 3.1 70B, batch 1, packing 10%s0" % i,"wait":3},{"sleep":4}],"quiet":0.4,"start_wait":0.5}))' "$W" "$T0" "$i")"
  "$PY" "$H/_drive.py" "$HR" "$W/o$i" "$spec" &
  _JOBS+=($!)
done
wait_all
ran=0; refused=0; winners=""
for i in 1 2 3 4 5 6; do
  is_crash "$(cat $W/o$i/rc)" "$W/o$i/all.txt" && fail "session $i crashed (rc $(cat $W/o$i/rc))"
  if grep -Eq "$VERDICT_RX" "$W/o$i/all.txt"; then ran=$((ran+1)); winners="$winners $i"
  elif [ "$(cat $W/o$i/rc)" != 0 ] || [ "$(rcnt $W/o$i/all.txt 'another|session|lock|in use|already|running')" -ge 1 ]; then
    refused=$((refused+1)); fi
done
[ "$ran" = 1 ] || fail "$ran sessions answered at once (sessions:$winners)"
[ "$refused" = 5 ] || fail "$refused sessions were refused (non-zero exit or a reason), expected 5"
r="$("$PY" "$H/_hr.py" lines_ok "$W/race/transcript.jsonl")" || fail "transcript damaged: $r"
n=0; for i in 1 2 3 4 5 6; do grep -q "packing 10${i}0" "$W/race/transcript.jsonl" && n=$((n+1)); done
[ "$n" = 1 ] || fail "the transcript holds the turns of $n sessions"
pass "one session ran (#${winners# }), five refused, transcript whole ($r)"
