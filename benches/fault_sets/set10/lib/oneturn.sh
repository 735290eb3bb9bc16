#!/bin/bash
# oneturn.sh BIN DATA_DIR NOW OUTPREFIX TIMEOUT TEXT: one piped turn in a new session;
# leaves OUTPREFIX.out .err .rc .ms
bin=$1 d=$2 now=$3 out=$4 to=$5 text=$6
s=$(date +%s%N)
printf '%s\n\n' "$text" | HEADROOM_NOW=$now timeout -k 5 "$to" "$bin" --data-dir "$d" >"$out.out" 2>"$out.err"
echo $? >"$out.rc"
echo $(( ($(date +%s%N) - s) / 1000000 )) >"$out.ms"
