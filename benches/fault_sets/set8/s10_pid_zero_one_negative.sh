#!/usr/bin/env bash
# s10: a listing with uncapped vLLM rows whose pid is 0, 1 and -5 beside a good one
# (415002). In the chat, the yes gives `kill 415002` (control) and never a signal command for
# 0 (the owner's process group), 1 (init) or -5 (a process group). `headroom procs` shows
# rows 0 and 1 as "not judged" (no keep/stop cell) while 415002 is judged stop (control).
SID=s10
. "$(dirname "$0")/lib.sh" "$@"

LST="$PS_HDR
root           0  0.0  0.0      0      0 ?        S    08:00   0:00 /usr/bin/python3 /usr/local/bin/vllm serve Qwen/Qwen2.5-7B-Instruct --port 8002
root           1  1.0 30.0 98765432 38234567 ?    Ss   08:00   1:00 /usr/bin/python3 /usr/local/bin/vllm serve Qwen/Qwen2.5-7B-Instruct --port 8001
alice         -5  1.0 30.0 98765432 38234567 ?    Sl   08:00   1:00 /usr/bin/python3 /usr/local/bin/vllm serve Qwen/Qwen2.5-7B-Instruct --port 8003
$(vllm_row 415002)"
printf '%s\n' "$LST" >"$T/ps.txt"
D=$(mkdd a); P=$(mkdd p)
chat a "$NOW0" "$D" "$RUN_TXT

$LST

yes"
run p "$NOW0" "$P" procs "$T/ps.txt" --need 60 </dev/null

rc_is a 0 || bad "chat exited $(rc_of a)"
has_kill a 0 && bad "kill 0 shown (signals the owner's whole process group)"
has_kill a 1 && bad "kill 1 shown (init)"
has_kill a -5 && bad "a kill command for pid -5 shown (a process group)"
has_kill a 415002 || bad "control: the good row 415002 got no kill after yes"
sane_rc p || bad "procs exited $(rc_of p)"
panicked p && bad "procs panicked"
for pid in 0 1; do
  case " $(rows_of p $pid | tr '\n' ' ') " in *" stop "*|*" keep "*) bad "procs judged pid $pid (README: pid 0 or 1 is not judged)";; esac
done
case " $(rows_of p -5 | tr '\n' ' ') " in *" stop "*) bad "procs judged pid -5 stop";; esac
case " $(rows_of p 415002 | tr '\n' ' ') " in *" stop "*) : ;; *) bad "control: procs did not show 415002 as stop (the row check is blind)";; esac
has p 'not judged' || bad "[W] procs did not say 'not judged' for pid 0/1"
finish
