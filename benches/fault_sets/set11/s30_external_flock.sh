#!/usr/bin/env bash
# Family: one writer. Another process holds flock on the data directory itself (as a running session
# would). headroom locks with flock on the directory, so it is refused, quickly and without a crash.
# Control: once the holder is gone, the same session runs (exit 0).
source "$(dirname "$0")/_lib.sh"; setup_env
newdir "$W/d"
"$PY" -c 'import fcntl,os,sys,time
fd=os.open(sys.argv[1], os.O_RDONLY); fcntl.flock(fd, fcntl.LOCK_EX); open(sys.argv[2],"w").write("locked")
time.sleep(60)' "$W/d" "$W/held" &
HOLDER=$!; _BGPIDS+=($HOLDER)
for i in $(seq 1 100); do [ -s held ] && break; sleep 0.05; done
[ -s held ] || fail "harness: the flock holder did not start"
printf '%s\n\n' "$RUN_TXT" > in.txt
s=$(now_s); HEADROOM_NOW=$T0 timeout 20 "$HR" --data-dir "$W/d" < in.txt > o1.txt 2>&1; rc=$?; el=$(elapsed "$s" "$(now_s)")
is_crash $rc o1.txt && fail "crash or hang with the directory locked (rc $rc)"
[ "$rc" != 0 ] || fail "a session ran while another process held flock on the directory"
rc1=$rc
lt "$el" 8 || fail "refusal took ${el}s"
kill "$HOLDER"; wait "$HOLDER" 2>/dev/null
HEADROOM_NOW=$T0 timeout 20 "$HR" --data-dir "$W/d" < in.txt > o2.txt 2>&1; rc=$?
[ "$rc" = 0 ] || fail "control: with the holder gone the session exits $rc"
grep -qi verdict o2.txt || fail "control: no verdict once the holder is gone"
pass "refused in ${el}s (rc $rc1)"
