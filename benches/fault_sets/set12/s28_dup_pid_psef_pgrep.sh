#!/usr/bin/env bash
# Family 4. Duplicated pids in the other listing shapes the README reads: (a) `ps -ef` with pid 41500 on two
# rows (an uncapped vLLM and an Ollama), (b) `pgrep -fa` with 41500 on two rows. A pid listed twice is shown
# once, flagged, not judged: no kill 41500 after yes, and [W] the reply flags it. Control: (c) a clean
# `ps -ef` and (d) a clean `pgrep -fa`, then yes, kill 41500.
source "$(dirname "$0")/_lib.sh"; setup_env
H_EF='UID          PID    PPID  C STIME TTY          TIME CMD'
V_EF='owner      41500       1 12 13:02 ?        00:04:11 /usr/bin/python3 -m vllm.entrypoints.openai.api_server --model meta-llama/Llama-3.1-8B-Instruct --port 8000'
O_EF='ollama     41500       1  0 09:15 ?        00:00:40 /usr/local/bin/ollama serve'
V_PG='41500 /usr/bin/python3 -m vllm.entrypoints.openai.api_server --model meta-llama/Llama-3.1-8B-Instruct --port 8000'
O_PG='41500 /usr/local/bin/ollama serve'
printf '%s\n' "$H_EF" "$V_EF" "$O_EF" > a.txt
printf '%s\n' "$V_PG" "$O_PG" > b.txt
printf '%s\n' "$H_EF" "$V_EF" > c.txt
printf '%s\n' "$V_PG" > d.txt
for x in a b c d; do
  chat out$x "$W/d$x" "$T0" "$(steps turn "$RUN_TXT" file "$W/$x.txt" turn "yes")"
  crash_chat out$x && fail "($x) crash (rc $(cat out$x/rc))"
done
has_kill outc/all.txt 41500 || fail "control (c): a clean ps -ef listing and yes did not show kill 41500"
has_kill outd/all.txt 41500 || fail "control (d): a clean pgrep -fa listing and yes did not show kill 41500"
for x in a b; do
  has_kill out$x/all.txt 41500 && fail "($x) a pid listed twice got kill 41500"
  grep -qiE 'twice|duplicate|more than once|not judged|two rows|listed 2' out$x/all.txt || fail "[W] ($x) the duplicated pid is not flagged"
done
pass
