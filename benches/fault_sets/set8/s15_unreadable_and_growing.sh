#!/usr/bin/env bash
# s15: (a) an unreadable samples file (mode 000; run as uid 65534 when we are root, since
# root reads anything) on the CLI, as --train-log, and typed in the chat: refused at once
# with what was wrong (exit 2 on the CLI; the chat goes on). Control: a readable copy works.
# (b) samples and a training log that keep growing while read (the run is still writing
# them): the CLI and the chat finish with a verdict instead of following the growth.
SID=s15
. "$(dirname "$0")/lib.sh" "$@"

PERM_RE='permission|denied|not readable|cannot (be )?read|can.t read|unreadable|not allowed|no access'
F="$T/f"; fixtures "$F"
NB="$T/nb"; mkdir -p "$NB/home/.config" "$NB/dd"
cp "$F/thermal.csv" "$F/train.log" "$NB/"; cp "$F/thermal.csv" "$NB/secret.csv"; cp "$F/train.log" "$NB/secret.log"
if [ "$(id -u)" = 0 ]; then
  chown -R 65534:65534 "$NB"; chmod 755 "$NB"; chmod 700 "$NB/dd" "$NB/home"
  chown 0:0 "$NB/secret.csv" "$NB/secret.log"; chmod 000 "$NB/secret.csv" "$NB/secret.log"
  chmod 711 "$T"
  if ! setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$BIN" 2>/dev/null; then
    cp "$BIN" "$NB/headroom"; chmod 755 "$NB/headroom"; BIN="$NB/headroom"
  fi
  setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null \
    || { echo "FAIL $SID: setup: cannot run as uid 65534 (setpriv)"; exit 0; }
  RUN_PREFIX=(setpriv --reuid=65534 --regid=65534 --clear-groups env HOME="$NB/home"
    XDG_CONFIG_HOME="$NB/home/.config" XDG_DATA_HOME="$NB/home" XDG_CACHE_HOME="$NB/home"
    XDG_STATE_HOME="$NB/home" XDG_RUNTIME_DIR="$NB/home")
else
  chmod 000 "$NB/secret.csv" "$NB/secret.log"; chmod 700 "$NB/dd"
fi
run u1 "$NOW0" "$NB/dd" thermal "$NB/secret.csv" --train-log "$NB/train.log" </dev/null
run u2 "$NOW0" "$NB/dd" thermal "$NB/thermal.csv" --train-log "$NB/secret.log" </dev/null
run uc "$NOW0" "$NB/dd" thermal "$NB/thermal.csv" --train-log "$NB/train.log" </dev/null
printf '%s\n' "is the slowdown thermal throttling? $NB/secret.csv and $NB/train.log

$RUN_TXT" | run u3 "$NOW0" "$NB/dd"
RUN_PREFIX=()
for n in u1 u2; do
  rc_is $n 2 || bad "$n: unreadable file: exit $(rc_of $n), want 2"
  [ "$(ms_of $n)" -lt 3000 ] || bad "$n: took $(ms_of $n) ms"
  has $n "$PERM_RE" || bad "[W] $n: the refusal does not say the file cannot be read"
  panicked $n && bad "$n panicked"
done
r=$(rc_of uc); { [ "$r" = 0 ] || [ "$r" = 1 ]; } || bad "control: the readable copy exited $r (setup or product)"
has uc "$NOEVENT_RE" || bad "[W] control: the readable copy gave no verdict"
rc_is u3 0 || bad "chat with an unreadable typed path exited $(rc_of u3)"
has u3 "$PERM_RE" || bad "[W] chat: the unreadable typed path was not explained"
has u3 "$PEAK2" || bad "chat: the session did not go on after the unreadable path"

# (b) growing files
G="$T/g"; fixtures "$G"
python3 "$FX" grow "$G/thermal.csv" thermal 40 7>&- & BGPIDS+=("$!"); W1=$!
python3 "$FX" grow "$G/train.log" log 40 7>&- & BGPIDS+=("$!"); W2=$!
sleep 0.5
D=$(mkdd data); D2=$(mkdd data2)
run gr "$NOW0" "$D" thermal "$G/thermal.csv" --train-log "$G/train.log" </dev/null
chat gc "$NOW0" "$D2" "is the slowdown thermal throttling? $G/thermal.csv and $G/train.log

$RUN_TXT"
kill "$W1" "$W2" 2>/dev/null
r=$(rc_of gr); { [ "$r" = 0 ] || [ "$r" = 1 ]; } || bad "growing files (CLI): exit $r"
[ "$(ms_of gr)" -lt 15000 ] || bad "growing files (CLI): took $(ms_of gr) ms (following the growth?)"
has gr "$VERDICT_RE" || bad "[W] growing files (CLI): no verdict"
rc_is gc 0 || bad "growing files (chat): exit $(rc_of gc)"
[ "$(ms_of gc)" -lt 15000 ] || bad "growing files (chat): took $(ms_of gc) ms"
has gc "$PEAK2" || bad "growing files (chat): the next turn was not answered"
finish
