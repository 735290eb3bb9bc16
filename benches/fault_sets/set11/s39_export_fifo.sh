#!/usr/bin/env bash
# Family: FIFOs / directories as paths in the chat. /export never writes into a FIFO, device or directory,
# even with --force. A reader is waiting on the FIFO (so a write-open would succeed at once); it must
# receive nothing. Control: /export to a regular file writes it.
source "$(dirname "$0")/_lib.sh"; setup_env
mkfifo "$W/x.fifo"; mkdir "$W/outdir"
ST="$(steps turn "$RUN_TXT" sh "cat $W/x.fifo > $W/got.txt & echo \$! > $W/catpid" sleep 0.3 \
  turn "/export $W/x.fifo --force" turn "/export $W/outdir --force" turn "/export $W/reg.md" turn "$Q_GMU")"
chat out "$W/d" "$T0" "$ST"
CP=$(cat catpid 2>/dev/null)
if [ -n "$CP" ] && kill -0 "$CP" 2>/dev/null; then
  timeout 3 bash -c "exec 3>'$W/x.fifo'" 2>/dev/null; sleep 0.3; kill "$CP" 2>/dev/null
fi
crash_chat out && fail "crash or hang (rc $(cat out/rc))"
[ -s reg.md ] || fail "control: /export to a regular file wrote nothing"
[ -s got.txt ] && fail "/export --force wrote $(wc -c < got.txt) bytes into a FIFO"
[ -z "$(ls -A outdir)" ] || fail "/export --force wrote into a directory: $(ls -A outdir)"
grep -q '121\.69' out/all.txt || fail "the session did not go on after the refused exports"
pass
