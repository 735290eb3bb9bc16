#!/usr/bin/env bash
# s09: "yes, but not vllm" must keep vLLM (no kill of its pid); "can't unload gpt-oss" must
# keep gpt-oss (no unload command naming it) and narrow the unload to the rest (qwen3 is
# unloaded after yes). Control: a plain yes on the same listing shows kill 415002.
SID=s09
. "$(dirname "$0")/lib.sh" "$@"

LST="$(listing 415002)
$(ollama_row 415100)"
OPS='NAME              ID              SIZE     PROCESSOR    CONTEXT    UNTIL
gpt-oss:120b      a951a23b46a1    65 GB    100% GPU     8192       4 minutes from now
qwen3:32b         030ee887880f    24 GB    100% GPU     8192       3 minutes from now'
A=$(mkdd a); B=$(mkdd b); C=$(mkdd c)
chat a "$NOW0" "$A" "$RUN_TXT

$LST

yes, but not vllm"
chat b "$NOW0" "$B" "$RUN_TXT

$LST

yes"
chat c "$NOW0" "$C" "$RUN_TXT

$OPS

can't unload gpt-oss

yes"

for n in a b c; do rc_is $n 0 || bad "session $n exited $(rc_of $n), want 0"; done
has_kill a 415002 && bad "'yes, but not vllm' printed kill 415002 (vLLM's pid)"
has_kill b 415002 || bad "control: plain yes showed no kill 415002"
UNLOAD_GPT='ollama[ \t]+stop[ \t]+gpt-oss|keep_alive[^\n]{0,80}gpt-oss|gpt-oss[^\n]{0,80}keep_alive'
UNLOAD_QWEN='ollama[ \t]+stop[ \t]+qwen3|keep_alive[^\n]{0,80}qwen3|qwen3[^\n]{0,80}keep_alive'
has c "$UNLOAD_GPT" && bad "\"can't unload gpt-oss\" still gave an unload command for gpt-oss"
has c "$UNLOAD_QWEN" || bad "[W] control: the narrowed unload gave no unload command for qwen3:32b"
finish
