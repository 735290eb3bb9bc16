#!/usr/bin/env bash
# s21 (family 2, pid 0/1): a `ps -ef` listing (UID PID PPID ...) where uncapped vLLM 41500 has PPID 1
# and Ollama 41700 has PPID 0. Turns: run, listing, yes, yes.
# Expect: kill 41500 is given (control: the listing was read and judged) and no kill names 0 or 1, nor
# anything but 41500/41700 (the parent column is never the target).
. "$(dirname "$0")/_lib.sh"; setup_env
L='UID          PID    PPID  C STIME TTY          TIME CMD
owner      41500       1 12 13:02 ?        00:04:11 /usr/bin/python3 -m vllm.entrypoints.openai.api_server --model meta-llama/Llama-3.1-8B-Instruct --port 8000
ollama     41700       0  0 09:15 ?        00:00:40 /usr/local/bin/ollama serve'
chat oA "$W/dA" "$T0" "$(steps turn "$RUN_TXT" turn "$L" turn yes turn yes)"
crash_chat oA && fail "crash (rc $(cat oA/rc))"
k="$(kills oA/all.txt)"
grep -qw 41500 <<<"$k" || fail "control: yes gave no kill 41500 (kills: [$k])"
for p in $k; do case "$p" in 41500|41700) ;; *) fail "a kill names $p (the PPID column or a bad pid)";; esac; done
pass "kills [$k]"
