#!/usr/bin/env bash
# s37 (family 3, files edited while running): in one chat the owner types the samples and log paths
# (calm data: flat 50 C, 60 W, no slowdown), the files are then replaced by rename with a throttling
# signature (62 -> 95 C at flat 98.5 W, clock 2400 -> 1700, slowdown after 60 min), and the owner types
# the same two paths again.
# Expect: the second verdict is the one the new files give on their own (the source is reread, not
# remembered). Control: the calm and the throttling files give different verdicts in fresh sessions.
. "$(dirname "$0")/_lib.sh"; setup_env
mkdir -p "$W/calm" "$W/hot" "$W/x"
"$PY" "$H/_gen.py" thermal "$W/calm/thermal.csv" t_start=50 t_end=52 power=60
"$PY" "$H/_gen.py" trainlog "$W/calm/train.log" slow_after_min=999
"$PY" "$H/_gen.py" thermal "$W/hot/thermal.csv" t_start=62 t_end=95 power=98.5 clock_start=2400 clock_end=1700
"$PY" "$H/_gen.py" trainlog "$W/hot/train.log" slow_after_min=60
vword() { grep -Eio "$THERMAL_RX" "$1" | head -1 | tr 'A-Z' 'a-z'; }
chat oc "$W/dc" "$T0" "$(steps turn "check $W/calm/thermal.csv and $W/calm/train.log for throttling" wait 10)"
chat oh "$W/dh" "$T0" "$(steps turn "check $W/hot/thermal.csv and $W/hot/train.log for throttling" wait 10)"
vc="$(vword oc/slice_1.txt)"; vh="$(vword oh/slice_1.txt)"
[ -n "$vc" ] && [ -n "$vh" ] || fail "control: no verdict for the calm ($vc) or hot ($vh) files"
[ "$vc" != "$vh" ] || fail "control: calm and hot files give the same verdict ($vc); nothing to test"
cp "$W/calm/thermal.csv" "$W/calm/train.log" "$W/x/"
SW="cp $W/hot/thermal.csv $W/x/.t.tmp && mv -f $W/x/.t.tmp $W/x/thermal.csv && cp $W/hot/train.log $W/x/.l.tmp && mv -f $W/x/.l.tmp $W/x/train.log"
T="check $W/x/thermal.csv and $W/x/train.log for throttling"
chat o "$W/d" "$T0" "$(steps turn "$T" wait 10 sh "$SW" turn "$T" wait 10)"
crash_chat o && fail "crash (rc $(cat o/rc))"
v1="$(vword o/slice_1.txt)"; v2="$(vword o/slice_2.txt)"
[ "$v1" = "$vc" ] || fail "control: the first check gave '$v1', the calm files alone '$vc'"
[ "$v2" = "$vh" ] || fail "after the files were replaced, the same paths gave '$v2' (the new files alone give '$vh')"
pass "$vc -> $vh"
