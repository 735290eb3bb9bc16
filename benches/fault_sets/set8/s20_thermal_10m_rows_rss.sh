#!/usr/bin/env bash
# s20: a 10-million-row thermal CSV (about 530 MB, every row different so nothing merges)
# read in bounded memory: peak RSS under 100 MiB (README: 39.4 MiB), on the CLI and with the
# two paths typed in the chat; both finish with an answer. Peak RSS is measured with
# /usr/bin/time -v when present, else from the children's rusage (python3).
SID=s20
. "$(dirname "$0")/lib.sh" "$@"

LIMIT_KIB=102400
F="$T/f"; mkdir -p "$F"
python3 "$FX" big10m "$F/big.csv" 10000000 || { echo "FAIL $SID: setup: could not write the 10M-row CSV (disk space?)"; exit 0; }
python3 "$FX" trainlog "$F/train.log" 7200 1.0
D=$(mkdd data); D2=$(mkdd data2)
printf 'is the slowdown thermal throttling? %s and %s\n' "$F/big.csv" "$F/train.log" >"$T/chat.in"

measure() { # measure NAME DD STDIN ARGS... -> NAME.out/.err/.rc/.ms/.kib
  local name="$1" dd="$2" in="$3" t0 kib rc; shift 3
  t0=$(date +%s%3N)
  if [ -x /usr/bin/time ]; then
    HEADROOM_NOW="$NOW0" /usr/bin/time -v -o "$T/$name.time" timeout 30 "$BIN" --data-dir "$dd" "$@" \
      <"$in" >"$T/$name.out" 2>"$T/$name.err"
    rc=$?
    kib=$(python3 -c 'import re,sys; m=re.search(r"Maximum resident set size \(kbytes\): (\d+)", open(sys.argv[1]).read()); print(m.group(1) if m else 0)' "$T/$name.time")
  else
    read -r rc kib < <(HEADROOM_NOW="$NOW0" python3 "$FX" maxrss "$T/$name" --stdin "$in" -- timeout 30 "$BIN" --data-dir "$dd" "$@")
  fi
  echo "$rc" >"$T/$name.rc"; echo "$kib" >"$T/$name.kib"; echo $(( $(date +%s%3N) - t0 )) >"$T/$name.ms"
}
measure cli "$D" /dev/null thermal "$F/big.csv" --train-log "$F/train.log"
measure chat "$D2" "$T/chat.in"
rm -f "$F/big.csv"

r=$(rc_of cli); { [ "$r" = 0 ] || [ "$r" = 1 ]; } || bad "CLI on 10M rows exited $r"
rc_is chat 0 || bad "chat on 10M rows exited $(rc_of chat)"
for n in cli chat; do
  k=$(cat "$T/$n.kib")
  [ "$k" -gt 0 ] || bad "$n: peak RSS not measured"
  [ "$k" -lt "$LIMIT_KIB" ] || bad "$n: peak RSS $((k / 1024)) MiB on 10M rows (limit 100 MiB)"
  has $n "$VERDICT_RE" || bad "[W] $n: no thermal verdict for the 10M-row file"
  panicked $n && bad "$n panicked"
  [ "$(ms_of $n)" -lt 25000 ] || bad "$n: took $(ms_of $n) ms"
done
finish
