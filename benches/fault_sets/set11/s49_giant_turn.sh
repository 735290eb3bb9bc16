#!/usr/bin/env bash
# Family: absurd data. A piped session: the run, then a 9 MiB turn of lines with no blank line (over the
# 8 MiB bound). Reading stops with one line; every earlier turn was answered and kept; no crash.
source "$(dirname "$0")/_lib.sh"; setup_env
newdir "$W/d"
{ printf '%s\n\n' "$RUN_TXT"
  "$PY" -c 'import sys
line = b"[rank0]: step_skipped buffer=0x7f3a9c000000 state=pending retry=0 " + b"q" * 40 + b"\n"
n = (9 << 20) // len(line) + 1
sys.stdout.buffer.write(line * n)'
  printf '\nwhat if batch 2?\n\n'; } > in.txt
s=$(now_s); HEADROOM_NOW=$T0 timeout 30 "$HR" --data-dir "$W/d" < in.txt > out.txt 2>&1; rc=$?; el=$(elapsed "$s" "$(now_s)")
is_crash $rc out.txt && fail "crash or timeout (rc $rc after ${el}s)"
grep -qi verdict out.txt || fail "the turn before the giant one was not answered"
"$PY" "$H/_hr.py" jsonl_has "$W/d/transcript.jsonl" "$RUN_TXT" >/dev/null || fail "the turn before the giant one was not kept"
"$PY" "$H/_hr.py" jsonl_ok "$W/d/transcript.jsonl" >/dev/null || fail "the transcript is not whole JSON lines"
lt "$el" 20 || fail "took ${el}s"
pass "rc $rc, ${el}s"
