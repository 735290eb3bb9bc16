#!/bin/bash
# s17: the data directory meets odd files.
# (a) while A runs on D, B is started on a symlink that points at D: the lock is
#     on the directory itself, so B is refused and writes nothing.
# (b) the lock file in a directory is a FIFO: a session must not hang on it.
# (c) transcript.jsonl is a symlink to a file outside the directory: no file in
#     the directory is opened through a symlink, so that file stays byte-identical.
SID=s17
source "$(dirname "$(readlink -f "$0")")/lib/common.sh" "$@"

D=$(mkdata d); ln -s "$D" "$WORK/link-to-d"
{ echo ">>> turn"; echo "$RUN"
  cat <<EOF
>>> sh
bash "$LIB/oneturn.sh" "$BIN" "$WORK/link-to-d" "$(at 60)" "$WORK/b" 20 "what if batch 7?"
>>> turn
$Q_GMU
EOF
} >script_a
drive a 50 --env HEADROOM_NOW=$T0 -- --data-dir "$D" <script_a
drive_ok a
if [ -f "$WORK/b.rc" ]; then
  no_crash "(a) session through the symlink" "$(cat "$WORK/b.rc")" "$WORK/b.out" "$WORK/b.err"
  [ "$(cat "$WORK/b.ms")" -lt 10000 ] || fail "(a) the session through the symlink took $(cat "$WORK/b.ms") ms (it waited)"
  grep -aqiE 'peak [0-9]' "$WORK/b.out" && fail "(a) the session through a symlink to a locked directory answered its turn"
else fail "setup: (a) B never ran"; fi
grep -aq 'batch 7' "$D/transcript.jsonl" 2>/dev/null && fail "(a) the session through the symlink wrote into the transcript"
grep -aq 'QLoRA on Llama' "$D/transcript.jsonl" 2>/dev/null || fail "control: (a) A's own turn is not in the transcript, so the 'batch 7' check could not see a record"

# (b) a FIFO where the lock file would be
F=$(mkdata f); mkfifo "$F/lock"
printf '>>> turn\n%s\n' "$RUN" >script_b
drive fb 30 --env HEADROOM_NOW=$T0 -- --data-dir "$F" <script_b
rcb=$(cat "$WORK/fb/rc")
case $rcb in 124|137) fail "(b) a session on a directory whose lock file is a FIFO hung (killed by the timeout)" ;; esac
no_crash "(b) lock FIFO" "$rcb" "$WORK/fb/all" "$WORK/fb/err"
eb=$(cat "$WORK/fb/exit_t"); awk -v e="$eb" 'BEGIN{exit !(e < 20)}' || fail "(b) the session took ${eb}s with a FIFO for a lock file"

# (c) transcript.jsonl as a symlink to an outside file
G=$(mkdata g)
printf '>>> turn\n%s\n' "$RUN" >script_g0
drive g0 30 --env HEADROOM_NOW=$T0 -- --data-dir "$G" <script_g0
sz0=$(stat -c %s "$G/transcript.jsonl" 2>/dev/null || echo 0)
if [ "$sz0" -eq 0 ]; then fail "control: (c) a normal session wrote no transcript, so a write through the symlink could not be seen either"; finish; fi
rm -f "$G/lock"
mv "$G/transcript.jsonl" "$WORK/outside.jsonl"; ln -s "$WORK/outside.jsonl" "$G/transcript.jsonl"
sum0=$(sha256sum <"$WORK/outside.jsonl")
printf '>>> turn\nwhat if batch 3?\n' >script_g1
drive g1 30 --env HEADROOM_NOW=$(at 600) -- --data-dir "$G" <script_g1
case $(cat "$WORK/g1/rc") in 124|137) fail "(c) the session hung on a symlinked transcript" ;; esac
no_crash "(c) symlinked transcript" "$(cat "$WORK/g1/rc")" "$WORK/g1/all" "$WORK/g1/err"
[ "$(sha256sum <"$WORK/outside.jsonl")" = "$sum0" ] || fail "(c) the file outside the data directory was written through the transcript symlink"
finish
