#!/usr/bin/env bash
# s37: the reader of headroom's output goes away (`headroom | head -c 20`, a closed ssh pipe): writes fail with EPIPE.
# headroom ends without a panic or a hang; whatever transcript it wrote is whole JSON lines. Control: the 20 bytes
# that did get through are headroom's greeting ("headroom plans memory …", README session).
. "$(dirname "$0")/_lib.sh"; setup_env
newdir "$W/d"
printf '%s\n\n%s\n\n%s\n\n' "$RUN_TXT" "$Q_GMU" 'what if batch 2?' > in.txt
s=$(now_s)
( HEADROOM_NOW="$T0" timeout 20 "$HR" --data-dir "$W/d" < in.txt 2> err.txt; echo $? > rc.txt ) | head -c 20 > head.txt
el=$(elapsed "$s" "$(now_s)")
rc=$(cat rc.txt)
grep -q '^headroom' head.txt || fail "control: the first bytes are not headroom's greeting: $(head -c 20 head.txt | tr '\n' ' ')"
[ "$rc" = 124 ] && fail "headroom hung after its reader went away (timeout)"
is_crash "$rc" err.txt && fail "crash when stdout closed (rc $rc): $(grep -m1 -o 'panicked.*' err.txt | head -c 200)"
lt "$el" 15 || fail "took ${el}s"
r=none; if [ -s "$W/d/transcript.jsonl" ]; then r="$("$PY" "$H/_hr.py" lines_ok "$W/d/transcript.jsonl")" || fail "transcript damaged: $r"; fi
pass "closed stdout: rc $rc in ${el}s, no panic (transcript: $r)"
