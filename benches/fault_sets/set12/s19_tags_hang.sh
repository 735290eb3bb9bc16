#!/usr/bin/env bash
# Family 3. `--llm ollama@URL` with no model named, so headroom asks /api/tags for the first installed model.
# The server accepts that request and never answers it. With HEADROOM_LLM_FIRST_TEXT_S=3 the owner is not
# held: the answer (121.69) is on screen within 12 s of the start, and the session exits 0.
# Interpretation (README silent on the model listing): the first-text limit ("no text within 15 s of the
# request, headers included") bounds every request headroom makes to the model server, the listing too.
source "$(dirname "$0")/_lib.sh"; setup_env
llm_start A echo --behave tags_hang
ENVJ='{"HEADROOM_LLM_FIRST_TEXT_S":"3","HEADROOM_LLM_DEADLINE_S":"60"}'
CHAT_START_WAIT=1 chat outL "$W/dL" "$T0" "$(steps turn "$Q_GMU" until '121\.69' wait 40)" \
  "[\"--llm\",\"ollama@http://127.0.0.1:$LLM_PORT_A\"]" "$ENVJ" 60
crash_chat outL && fail "crash or hang (rc $(cat outL/rc))"
grep -q '/api/tags' "$W/llm_A.log" || fail "control: /api/tags was never requested, nothing was tested"
t=$("$PY" -c 'import json,sys; m=json.load(open("outL/meta.json"))["turns"][0]; print("" if m["matched_after"] is None else "%.2f" % (m["sent"]+m["matched_after"]))')
[ -n "$t" ] || fail "the answer (121.69) never came while /api/tags hung"
lt "$t" 12 || fail "the answer came ${t}s after the start (limit 12 s)"
[ "$(cat outL/rc)" = 0 ] || fail "the session exits $(cat outL/rc)"
pass "${t}s"
