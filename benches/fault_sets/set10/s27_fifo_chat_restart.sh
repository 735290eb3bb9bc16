#!/bin/bash
# s27: odd files typed in the chat, and a remembered path that turns into a FIFO.
# Session 1: "the sampler log is at .../pipe.csv" (a FIFO), "samples: .../sock.csv"
# (a unix socket), then the real thermal.csv and train.log (control), then a
# question.  Then thermal.csv is replaced by a FIFO; session 2 greets and answers
# "is it throttling?" at once; then the FIFO gets a writer that sends valid CSV and
# holds it open, and session 3 must still not wait on it.
SID=s27
source "$(dirname "$(readlink -f "$0")")/lib/common.sh" "$@"

make_thermal
cp good.csv thermal.csv
mkfifo pipe.csv
python3 -c "
import socket,time
s=socket.socket(socket.AF_UNIX); s.bind('$WORK/sock.csv'); s.listen(1); time.sleep(170)" &
BGPIDS+=($!)
for i in $(seq 1 50); do [ -S sock.csv ] && break; sleep 0.05; done
D=$(mkdata d)
cat >script1 <<EOF
>>> turn start=4
the sampler log is at $WORK/pipe.csv
>>> turn start=4
samples: $WORK/sock.csv
>>> turn start=10 quiet=1
$WORK/thermal.csv and $WORK/train.log
>>> turn
$Q_GMU
EOF
drive s1 60 --env HEADROOM_NOW=$(at 10800) -- --data-dir "$D" <script1
drive_ok s1
within() { # within LABEL SESSION K SECONDS: turn K's reply began within SECONDS
  local tf ts; read -r _ ts tf _ < <(awk -v k="$3" '$1==k' "$WORK/$2/times")
  if [ -z "$tf" ] || [ "${tf%.*}" = "-1" ]; then fail "$1: no reply"; return; fi
  awk -v a="$tf" -v b="$ts" -v s="$4" 'BEGIN{exit !(a - b <= s)}' || fail "$1: the reply began $(awk -v a="$tf" -v b="$ts" 'BEGIN{print a-b}') s after the turn"
}
within "FIFO typed in the chat" s1 1 3
within "socket typed in the chat" s1 2 3
wm 'fifo|named pipe' $(SL s1 1) || fail "[W] the FIFO typed in the chat is not named as a FIFO / named pipe"
wm 'socket' $(SL s1 2) || fail "[W] the socket typed in the chat is not named as a socket"
wm "$VERDICT_RX" $(SL s1 3) || fail "control: the real thermal.csv and train.log typed in the chat gave no verdict"
present "the session goes on after odd paths" "121.69" $(SL s1 4)
# the remembered path becomes a FIFO
rm thermal.csv; mkfifo thermal.csv
printf '>>> turn start=4\nis it throttling?\n>>> turn\n%s\n' "$Q_GMU" >script2
drive s2 40 --env HEADROOM_NOW=$(at 14400) -- --data-dir "$D" <script2
drive_ok s2
fb=$(tool firstbyte "$WORK/s2"); awk -v f="$fb" 'BEGIN{exit !(f >= 0 && f <= 3)}' || fail "restart with a remembered path now a FIFO: the greeting came after ${fb}s"
within "thermal question with the remembered path a FIFO" s2 1 3
present "the session goes on (remembered FIFO)" "121.69" $(SL s2 2)
# now with a writer holding it open
( exec 3>thermal.csv; cat good.csv >&3; exec sleep 120 ) &
BGPIDS+=($!)
drive s3 40 --env HEADROOM_NOW=$(at 18000) -- --data-dir "$D" <script2
drive_ok s3
fb=$(tool firstbyte "$WORK/s3"); awk -v f="$fb" 'BEGIN{exit !(f >= 0 && f <= 3)}' || fail "restart with a held-open FIFO: the greeting came after ${fb}s"
within "thermal question with a held-open FIFO" s3 1 3
present "the session goes on (held-open FIFO)" "121.69" $(SL s3 2)
finish
