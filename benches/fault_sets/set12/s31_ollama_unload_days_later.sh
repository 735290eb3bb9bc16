#!/usr/bin/env bash
# Family 4. The stop is an Ollama unload this time. Session A pastes `ollama ps` (gpt-oss:120b 65 GB and
# qwen2.5:32b 22 GB loaded) beside the 70B QLoRA run, so unloading is proposed; A ends unanswered. Session B
# two days later types "yes" and "yes, unload them": an unload applies only in the session that proposed it
# and while its listing is under an hour old, so no `ollama stop` command is shown. Control: in another data
# dir the same turns with a yes in the proposing session show `ollama stop`.
source "$(dirname "$0")/_lib.sh"; setup_env
cat > ops.txt <<'P'
NAME                ID              SIZE     PROCESSOR    CONTEXT    UNTIL
gpt-oss:120b        a951a23b46a1    65 GB    100% GPU     8192       Forever
qwen2.5:32b         9f13ba1299af    22 GB    100% GPU     4096       4 minutes from now
P
UNLOAD_RX='ollama stop|keep_alive'
chat outC "$W/dc" "$T0" "$(steps turn "$RUN_TXT" file "$W/ops.txt" turn "yes")"
crash_chat outC && fail "control: crash (rc $(cat outC/rc))"
grep -qE "$UNLOAD_RX" outC/slice_3.txt || fail "control: yes in the proposing session shows no unload command (ollama stop)"
chat outA "$W/d" "$T0" "$(steps turn "$RUN_TXT" file "$W/ops.txt")"
crash_chat outA && fail "A: crash (rc $(cat outA/rc))"
chat outB "$W/d" "$(at $(( 2*86400 )))" "$(steps turn "yes" turn "yes, unload them")"
crash_chat outB && fail "B: crash (rc $(cat outB/rc))"
grep -qE "$UNLOAD_RX" outB/all.txt && fail "a two-day-old listing from another session got an ollama stop command"
pass
