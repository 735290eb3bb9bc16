#!/bin/bash
# s37: a paste over 64 KiB (3,000 thermal samples) is kept in pastes/.  Then the
# kept file is (b) cut to half, (c) deleted, (d) grown by a line, each in its own
# copy of the directory.  Each restart's greeting says the paste was not used,
# with the time it was given; the intact copy (a) says no such thing (control).
SID=s37
source "$(dirname "$(readlink -f "$0")")/lib/common.sh" "$@"

python3 "$LIB/gen.py" smi "$WORK/paste.csv" 3000 2026-11-29T11:00:00Z 10 60..96 100 2405
D=$(mkdata d)
{ echo ">>> turn"; echo "$RUN"; echo ">>> turn quiet=1"; cat paste.csv; } >script1
drive s1 40 --env HEADROOM_NOW=$T0 -- --data-dir "$D" <script1
drive_ok s1
rm -f "$D/lock"
PF=$(python3 - "$D" "$WORK/paste.csv" <<'EOF'
import os, sys
d, p = sys.argv[1], sys.argv[2]
row = open(p).read().split("\n")[1].encode()
for root, _, files in os.walk(os.path.join(d, "pastes")):
    for f in files:
        q = os.path.join(root, f)
        if os.path.getsize(q) >= 65536 and row in open(q, "rb").read():
            print(os.path.relpath(q, d)); raise SystemExit
# not stored as plain text: take the largest file in pastes/ (noted below)
best = None
for root, _, files in os.walk(os.path.join(d, "pastes")):
    for f in files:
        q = os.path.join(root, f)
        if os.path.getsize(q) >= 1024 and (best is None or os.path.getsize(q) > os.path.getsize(best)):
            best = q
if best:
    print(os.path.relpath(best, d))
EOF
)
if [ -z "$PF" ]; then fail "the 150 KB paste was not kept in pastes/ (no file there holds it)"; finish; fi
note "kept paste: $PF"
for x in a b c e; do X=$(mkdata $x); cp -a "$D/." "$X/"; done
truncate -s $(( $(stat -c %s "$WORK/b/$PF") / 2 )) "$WORK/b/$PF"
rm -f "$WORK/c/$PF"
echo "2026/11/29 19:20:00.000, 50, 40.00 W, 2405 MHz, 99 %" >>"$WORK/e/$PF"
printf '>>> turn\n%s\n' "$Q_GMU" >script2
NOTUSED='not used|paste it fresh|paste it again|was not used'
for x in a b c e; do
  drive r$x 25 --env HEADROOM_NOW=$(at 3600) -- --data-dir "$WORK/$x" <script2
  drive_ok r$x
  fb=$(tool firstbyte "$WORK/r$x"); awk -v f="$fb" 'BEGIN{exit !(f >= 0 && f <= 3)}' || fail "($x) the greeting came after ${fb}s"
done
for x in b c e; do
  case $x in b) what="cut to half" ;; c) what="deleted" ;; e) what="grown by a line" ;; esac
  if wm "$NOTUSED" "$(S r$x 0)" "$(S r$x 1)"; then
    wm '2026-11-29|29 Nov|Nov(ember)? 29|14:00|14:0[0-9]' "$(S r$x 0)" "$(S r$x 1)" || fail "[W] ($x, $what) the greeting does not give the time the paste was given"
  else
    fail "[W] ($x, kept paste $what) the restart's greeting does not say the paste was not used"
  fi
done
wm "$NOTUSED" "$(S ra 0)" "$(S ra 1)" && fail "control [W]: (a) the intact paste is also said to be not used, so the check cannot tell"
present "(a) the intact restart answers" "121.69" $(SL ra 1)
finish
