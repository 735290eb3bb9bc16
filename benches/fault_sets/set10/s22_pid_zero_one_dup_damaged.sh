#!/bin/bash
# s22: one listing of uncapped vLLM servers with every bad pid at once: 0, 1 (vLLM
# as a container's init), -7 (forged), 41777 listed twice, 04242 (leading zero),
# 99999999 (over the kernel's limit), and one good server at 41500.  `headroom
# procs` (text and --json) and the chat (table, then yes) must name the damaged
# rows, judge the duplicate once at most and never as both keep and stop, and
# give a signal command to 41500 only.
SID=s22
source "$(dirname "$(readlink -f "$0")")/lib/common.sh" "$@"

V2="python3 -m vllm.entrypoints.openai.api_server --model Qwen/Qwen2.5-7B-Instruct"
{ ps_head; ps_row 0 "$VLLM_CMD"; ps_row 1 "$V2"; ps_row -7 "$V2 --port 8003"
  ps_row 41777 "$V2 --port 8004"; ps_row 41777 "$V2 --port 8004"; ps_row 04242 "$V2 --port 8005"
  ps_row 99999999 "$V2 --port 8006"; ps_row 41500 "$VLLM_CMD"; } >ps.txt
PD=$(mkdata pd)
run1 procs 30 HEADROOM_DATA_DIR=$PD HEADROOM_NOW=$T0 -- procs ps.txt --need 40
run1 procsj 30 HEADROOM_DATA_DIR=$PD HEADROOM_NOW=$T0 -- procs ps.txt --need 40 --json
for n in procs procsj; do
  no_crash "$n" "$(rc_of $n)" "$WORK/$n.out" "$WORK/$n.err"
  [ "$(rc_of $n)" != 2 ] || fail "$n refused the whole listing (exit 2) instead of naming the damaged rows beside good ones"
done
for p in 04242 99999999; do grep -aqF "$p" "$WORK/procs.out" "$WORK/procs.err" || fail "procs does not name the damaged pid $p"; done
dj=$(tool jsonkey damaged_pids "$WORK/procsj.out" | tr '\n' ' ')
echo "$dj" | grep -qE '04242|4242' || fail "--json damaged_pids lacks 04242 (got: ${dj:-nothing})"
echo "$dj" | grep -q 99999999 || fail "--json damaged_pids lacks 99999999 (got: ${dj:-nothing})"
# one line judging 41777 keep (without the word stop) and another judging it stop
# (without keep) is the issue's "shown once as keep and once as stop"
k=$(grep -aE '(^|[^0-9])41777([^0-9]|$)' "$WORK/procs.out" | grep -aiw keep | grep -aviwc stop)
s=$(grep -aE '(^|[^0-9])41777([^0-9]|$)' "$WORK/procs.out" | grep -aiw stop | grep -aviwc keep)
[ "$k" -ge 1 ] && [ "$s" -ge 1 ] && fail "procs shows the duplicated pid 41777 once as keep and once as stop"
bad() { kills "$@" | awk '$1 <= 1 || $1 == 41777 || $1 == 4242 || $1 == 99999999 || $1 == 7' | sort -u | tr '\n' ' '; }
b=$(bad "$WORK/procs.out" "$WORK/procsj.out"); [ -z "$b" ] || fail "procs shows a signal command for pid(s) $b"
# the chat
D=$(mkdata d)
{ echo ">>> turn"; echo "$RUN"; echo ">>> turn"; cat ps.txt; printf '>>> turn\nyes\n'; } >script
drive a 60 --env HEADROOM_NOW=$T0 -- --data-dir "$D" <script
drive_ok a
has_kill 41500 $(SL a 3) || fail "control: the chat's yes did not show kill 41500"
b=$(bad "$WORK/a/all"); [ -z "$b" ] || fail "the chat shows a signal command for pid(s) $b"
r=$(tool rows 41500 "$(S a 2)")
[ -n "$r" ] || fail "control: the chat's pool table has no row for 41500, so the table checks below see nothing"
echo "$r" | grep -aqiE '(^|\|\| )\**(keep|stop)\b' || fail "control: the 41500 row has no keep/stop cell ($r)"
n=$(tool rows 41777 "$(S a 2)" | wc -l)
[ "$n" -le 1 ] || fail "the duplicated pid 41777 is shown in $n table rows (shown once)"
for p in 41777 0 1; do
  tool rows $p "$(S a 2)" | grep -aqiE '(^|\|\| )\**(keep|stop)\b' && fail "pid $p is judged keep/stop in the table (not judged)"
done
finish
