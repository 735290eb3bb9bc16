#!/usr/bin/env bash
# s33: the `lock` file (which README says only names the pid; the lock is a flock on the directory) left as (a) "1",
# init's pid; (b) the pid of a live unrelated process; (c) a 1 GiB sparse file; (d) "-1"; (e) binary garbage. No
# session holds the directory, so each start runs: the turn is answered within 5 s and saved, RSS stays small.
. "$(dirname "$0")/_lib.sh"; setup_env
sleep 120 & _BGPIDS+=($!); LIVE=$!
for v in init live sparse neg garbage; do
  chat "o0_$v" "$W/d_$v" "$T0" "$(steps turn "$RUN_TXT")"
  L="$W/d_$v/lock"
  rm -f "$L"
  case $v in
    init) echo 1 > "$L";; live) echo "$LIVE" > "$L";; sparse) truncate -s 1G "$L";; neg) printf '%s\n' -1 > "$L";;
    garbage) head -c 4096 /dev/urandom > "$L";;
  esac
  chat "o_$v" "$W/d_$v" "$(at 60)" "$(steps turn 'actually packing 1024' wait 8 until 'peak')"
done
for v in init live sparse neg garbage; do
  crash_chat "o_$v" && fail "($v) crash (rc $(cat o_$v/rc))"
  m=$(m_after "o_$v" 1); [ -n "$m" ] || fail "($v) the start with that lock file did not answer (rc $(cat o_$v/rc)): $(head -c 200 o_$v/all.txt | tr '\n' ' ')"
  lt "$m" 5 || fail "($v) answered after ${m}s"
  grep -q 'packing 1024' "$W/d_$v/transcript.jsonl" || fail "($v) the turn was not saved"
  rss=$(peak_kb "o_$v"); [ "$rss" -lt 102400 ] || fail "($v) peak RSS ${rss} KiB"
done
pass "stale lock files of every kind let the start run"
