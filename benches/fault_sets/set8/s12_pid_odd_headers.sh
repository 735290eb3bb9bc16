#!/usr/bin/env bash
# s12: listings whose header is not `ps aux`'s. (a) `ps -ef`: PPID (1) sits right after PID;
# (b) `ps -o ppid,pid,rss,args`: PPID comes FIRST. The pid read must be 415002, never the
# parent 1: the yes never gives `kill 1` (control: (a)'s `kill 415002`); (b) is read (kill
# 415002 / a procs row) or refused as unreadable. `procs` never judges a row with pid 1.
# (c) A `pgrep -fa` listing (no header) is read by its pid.
SID=s12
. "$(dirname "$0")/lib.sh" "$@"

VCMD="/home/alice/.venv/bin/python3 /home/alice/.venv/bin/vllm serve meta-llama/Llama-3.1-8B-Instruct --port 8000"
EF="UID          PID    PPID  C STIME TTY          TIME CMD
alice     415002       1 12 09:12 ?        00:41:07 $VCMD"
PO="   PPID     PID      RSS COMMAND
      1  415002 48234567 $VCMD"
PG="415002 $VCMD"
printf '%s\n' "$EF" >"$T/ef.txt"; printf '%s\n' "$PO" >"$T/po.txt"; printf '%s\n' "$PG" >"$T/pg.txt"

A=$(mkdd a); B=$(mkdd b); P=$(mkdd p)
chat a "$NOW0" "$A" "$RUN_TXT

$EF

yes"
chat b "$NOW0" "$B" "$RUN_TXT

$PO

yes"
run pa "$NOW0" "$P" procs "$T/ef.txt" --need 60 </dev/null
run pb "$NOW0" "$P" procs "$T/po.txt" --need 60 </dev/null
run pc "$NOW0" "$P" procs "$T/pg.txt" --need 60 </dev/null

rc_is a 0 || bad "chat a exited $(rc_of a)"
rc_is b 0 || bad "chat b exited $(rc_of b)"
has_kill a 1 && bad "ps -ef: kill 1 shown (PPID taken as the pid)"
has_kill a 415002 || bad "control: ps -ef: no kill 415002 after yes"
has_kill b 1 && bad "ps -o ppid,pid: kill 1 shown (PPID taken as the pid)"
# (b) is not one of the README's listed formats: either it is read (kill 415002 after yes) or
# the paste is said to be unreadable; the detector's control is (a)
has_kill b 415002 || has b "could not (be )?read|cannot (be )?read|can.t read|not read|unreadable|did not recognise|didn.t recognise|not recogni|what to paste|looked like" \
  || bad "[W] ps -o ppid,pid: neither read (no kill 415002) nor said to be unreadable"
for n in pa pb pc; do
  sane_rc $n || bad "procs $n exited $(rc_of $n)"
  panicked $n && bad "procs $n panicked"
  case " $(rows_of $n 1 | tr '\n' ' ') " in *" stop "*|*" keep "*) bad "procs $n judged a row with pid 1 (the PPID)";; esac
done
for n in pa pc; do
  [ -n "$(rows_of $n 415002)" ] || bad "control: procs $n has no row for 415002"
done
rc_is pb 2 || [ -n "$(rows_of pb 415002)" ] || bad "procs on ps -o ppid,pid: neither a row for 415002 nor a refusal (exit 2)"
finish
