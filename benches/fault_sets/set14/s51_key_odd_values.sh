#!/usr/bin/env bash
# s51: HEADROOM_API_KEY set to values no HTTP header can carry or that make no sense: 120 KB long, non-ASCII
# ("ключ-секрет-ÄÖ"), whitespace only, a tab inside. No crash (a header builder that panics), the question answered
# within 20 s, the value never on screen and in no file.
. "$(dirname "$0")/_lib.sh"; setup_env
llm_start S openai
LONGK="sk-long-$("$PY" -c 'print("Q" * 120000)')"
V=("$LONGK" 'sk-ключ-секрет-ÄÖ-51' '   ' $'sk-tab\tinside-51')
for i in 0 1 2 3; do
  k="${V[$i]}"
  xe="$("$PY" -c 'import json,sys; print(json.dumps({"HEADROOM_API_KEY": sys.argv[1]}))' "$k")"
  bg chat "out$i" "$W/d$i" "$T0" "$(steps turn "$Q_GMU" wait 25 until '121\.69')" "[\"--llm\",\"openai:m@http://127.0.0.1:$LLM_PORT_S/v1\"]" "$xe" 40
  [ $((i % 2)) = 1 ] && wait_all
done
wait_all
[ "$(llm_reqs S)" -ge 1 ] || fail "control: the server was never asked"
for i in 0 1 2 3; do
  k="${V[$i]}"; nm="$(printf '%q' "${k:0:20}")"
  crash_chat "out$i" && fail "key $nm: crash (rc $(cat out$i/rc)): $(grep -m1 -o 'panicked.*' out$i/all.txt | head -c 200)"
  m=$(m_after "out$i" 1); [ -n "$m" ] || fail "key $nm: the question was never answered"
  lt "$m" 20 || fail "key $nm: answered after ${m}s"
  if [ "$i" != 2 ]; then
    [ "$(cnt out$i/all.txt "$k")" = 0 ] || fail "key $nm shown on screen"
    f="$("$PY" "$H/_hr.py" sweep "$W" "$k" "$W/out" "$W/llm_S.log")"; [ -z "$f" ] || fail "key $nm written in: $f"
  fi
done
pass "odd key values handled"
