#!/bin/bash
# s31: the disk has about 24 KiB left when the owner pastes 3,000 thermal samples
# (about 150 KB, so the paste is kept in pastes/).  The paste's reply (a thermal
# verdict) is still shown with "not saved", the session goes on, the transcript is
# whole.  After space is freed, a restart starts at once; and if a cut-short copy
# of the paste was left in pastes/ under a kept (not temporary) name, the
# greeting says it was not used.
SID=s31
source "$(dirname "$(readlink -f "$0")")/lib/common.sh" "$@"

M=$WORK/m; mount_tmpfs "$M" size=3m
D=$M/d; mkdir -m 700 "$D"
python3 "$LIB/gen.py" smi "$WORK/paste.csv" 3000 2026-11-29T11:00:00Z 10 60..96 100 2405
{ echo ">>> turn"; echo "$RUN"
  echo ">>> sh"
  echo "for i in 1 2 3; do dd if=/dev/zero of='$M'/.filler\$i bs=\$((65536 >> (i * 3))) 2>/dev/null; done; truncate -s -24K '$M'/.filler1"
  echo ">>> turn quiet=1"; cat "$WORK/paste.csv"; echo ">>> turn"; echo "$Q_GMU"; } >script
drive a 60 --env HEADROOM_NOW=$T0 -- --data-dir "$D" <script
drive_ok a
[ "$(cat "$WORK/a/rc")" = 0 ] || fail "the session did not end with exit 0 (rc=$(cat "$WORK/a/rc"))"
wm "$VERDICT_RX" $(SL a 2) || fail "the big paste's reply (a thermal verdict) is not shown on a nearly full disk"
wm 'not saved' $(SL a 2) || fail "[W] the paste that could not be kept does not say 'not saved'"
present "the session goes on" "121.69" $(SL a 3)
r=$(tool jsonl "$D/transcript.jsonl") || fail "the transcript is torn after the failed paste write: $r"
grep -aq 'packing 2048' "$D/transcript.jsonl" || fail "control: turn 1 is not in the transcript, so the torn-record check saw nothing"
cut_short=$(python3 - "$D" "$WORK/paste.csv" <<'EOF'
import os, sys
d, p = sys.argv[1], sys.argv[2]
full = open(p, "rb").read().rstrip(b"\n")
for root, _, files in os.walk(os.path.join(d, "pastes")):
    for f in files:
        low = f.lower()
        if f.startswith(".") or "tmp" in low or "temp" in low or "part" in low:
            continue  # a temporary name, not a kept paste
        b = open(os.path.join(root, f), "rb").read().rstrip(b"\n")
        if 0 < len(b) < len(full) and full.startswith(b):
            print(os.path.join(root, f))
EOF
)
unfill "$M"
printf '>>> turn\n%s\n' "$Q_GMU" >script2
drive b 60 --env HEADROOM_NOW=$(at 1800) -- --data-dir "$D" <script2
drive_ok b
[ "$(cat "$WORK/b/rc")" = 0 ] || fail "the restart after freeing space did not end with exit 0"
fb=$(tool firstbyte "$WORK/b"); awk -v f="$fb" 'BEGIN{exit !(f >= 0 && f <= 3)}' || fail "the restart's greeting came after ${fb}s"
if [ -n "$cut_short" ]; then
  note "a cut-short copy of the paste is in pastes/: $cut_short"
  wm 'not used|paste it fresh|paste it again' "$(S b 0)" "$(S b 1)" || fail "[W] a cut-short copy of the paste was left in pastes/ and the restart does not say it was not used"
fi
finish
