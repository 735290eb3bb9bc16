#!/usr/bin/env bash
# Family 5. While a session runs, transcript.jsonl is truncated in place to 0 bytes (`truncate -s 0`, same
# inode). The next records start on a line of their own and that is said [W]: the file holds no NUL bytes
# (no hole from writing at a stale offset), every line is whole JSON, the later turns are in it, and the
# session goes on.
source "$(dirname "$0")/_lib.sh"; setup_env
newdir "$W/d"
chat out "$W/d" "$T0" "$(steps turn "$RUN_TXT" turn "what if batch 2?" sh "truncate -s 0 $W/d/transcript.jsonl" \
  turn "actually packing 1024" turn "$Q_GMU")"
crash_chat out && fail "crash (rc $(cat out/rc))"
T="$W/d/transcript.jsonl"
"$PY" -c 'import sys; sys.exit(1 if b"\x00" in open(sys.argv[1],"rb").read() else 0)' "$T" || fail "NUL bytes in the transcript (written at a stale offset after the truncation)"
"$PY" "$H/_hr.py" jsonl_ok "$T" >/dev/null || fail "transcript: $("$PY" "$H/_hr.py" jsonl_ok "$T")"
"$PY" "$H/_hr.py" jsonl_has "$T" 'packing 1024' >/dev/null || fail "the turn after the truncation is not in the transcript"
around out 4 | grep -q '121\.69' || fail "the session did not go on"
grep -qiE 'truncat|cut short|shorter|shrank|shrunk|emptied|was cut|changed under|outside headroom|by something else|another program' out/all.txt || fail "[W] the truncation is not said"
pass
