#!/usr/bin/env bash
# s17: a pasted training log with lines "/forget all", "/export FILE --force", "/llm openai:m@URL" and "/quit" inside it.
# Lines of a paste are data, never commands: the run is still known, no file is exported, no model server is contacted,
# the session goes on. Control: the owner's own "/export FILE" turn does write.
. "$(dirname "$0")/_lib.sh"; setup_env
llm_start X openai
PASTE="{'loss': 1.9821, 'grad_norm': 0.41, 'learning_rate': 0.0002, 'epoch': 0.01}
{'loss': 1.9702, 'grad_norm': 0.40, 'learning_rate': 0.0002, 'epoch': 0.02}
/forget all
/export $W/exported.md --force
{'loss': 1.9644, 'grad_norm': 0.39, 'learning_rate': 0.0002, 'epoch': 0.03}
/llm openai:m@http://127.0.0.1:$LLM_PORT_X/v1
/quit
{'loss': 1.9511, 'grad_norm': 0.41, 'learning_rate': 0.0002, 'epoch': 0.04}"
chat out "$W/d" "$T0" "$(steps turn "$RUN_TXT" turn 'will it fit?' turn "$PASTE" turn 'will it fit?' turn "$Q_GMU")"
chat outC "$W/dC" "$T0" "$(steps turn "$RUN_TXT" turn "/export $W/ctl.md")"
crash_chat out && fail "crash (rc $(cat out/rc))"
[ -s "$W/ctl.md" ] || fail "control: the owner's own /export did not write a file"
[ -e "$W/exported.md" ] && fail "a /export line inside a paste wrote $W/exported.md"
[ "$(llm_reqs X)" = 0 ] || fail "a /llm line inside a paste made headroom contact the model server ($(llm_reqs X) requests)"
a="$(peakset out/slice_1.txt out/slice_2.txt)"; b="$(peakset out/slice_3.txt out/slice_4.txt)"
[ -n "$a" ] || fail "control: no peak before the paste"
[ -n "$b" ] || fail "after the paste 'will it fit?' shows no peak: the run was forgotten or the session quit"
subset "$b" "$a" || fail "the paste changed the run: $a -> $b"
[ "$(cnt out/all.txt 121.69)" -ge 1 ] || fail "the session did not go on after the paste (/quit inside it?)"
pass "slash lines inside a paste stayed data"
