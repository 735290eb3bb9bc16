#!/usr/bin/env bash
# s25 (family 2, stale listing): `ollama ps` shows gpt-oss:120b (65 GB) and qwen2.5:32b beside the run,
# so an unload is proposed; then a fresh `ollama ps` shows nothing loaded; then "yes".
# Expect: after the empty listing no unload command names gpt-oss. Control: the same without the
# empty listing gives an unload command naming gpt-oss:120b after "yes".
. "$(dirname "$0")/_lib.sh"; setup_env
chat oA "$W/dA" "$T0" "$(steps turn "$RUN_TXT" turn "$ollama_ps_two" turn "$ollama_ps_empty" turn yes)"
crash_chat oA && fail "crash (rc $(cat oA/rc))"
chat oC "$W/dC" "$T0" "$(steps turn "$RUN_TXT" turn "$ollama_ps_two" turn yes)"
unload_lines gpt-oss oC/slice_3.txt >/dev/null || fail "control: yes gave no unload command for gpt-oss"
unload_lines gpt-oss oA/slice_3.txt oA/slice_4.txt >/dev/null && fail "an unload of gpt-oss was given after a listing showing it gone: $(unload_lines gpt-oss oA/slice_3.txt oA/slice_4.txt | head -1)"
pass
