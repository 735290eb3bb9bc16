#!/bin/bash
# s23: the transcript is edited by hand: a copy of the last record with absurd
# figures (2^64-1, "184467440737095516.15 GB", "0.00 GB", every verdict "fits"),
# a copy of the free -g record with available 99999 of a total 119, and a record
# of no known shape announcing a fit.  On restart, figures are recomputed from
# what the owner gave, exactly as an unedited copy of the directory recomputes them.
SID=s23
source "$(dirname "$(readlink -f "$0")")/lib/common.sh" "$@"

D=$(mkdata d)
{ echo ">>> turn"; echo "$RUN"; echo ">>> turn"; free_g 60; printf '>>> turn\nwill it fit?\n'; } >script1
drive s1 45 --env HEADROOM_NOW=$T0 -- --data-dir "$D" <script1
drive_ok s1
[ -n "$(tool peaks "$WORK/s1/all")" ] || fail "control: the first session shows no 'peak N.NN GB' figure"
[ -s "$D/transcript.jsonl" ] || { fail "control: the first session wrote no transcript, so there is nothing to forge"; finish; }
R=$(mkdata ref); cp -a "$D/." "$R/"; rm -f "$R/lock" "$D/lock"
python3 "$LIB/forge.py" "$D/transcript.jsonl" >&2
grep -aq 18446744 "$D/transcript.jsonl" || fail "control: the forged figures are not in the transcript"
grep -aq 99999 "$D/transcript.jsonl" || note "the free record was not found to forge (no 'Mem:' in the transcript)"
printf '>>> turn\nwill it fit?\n>>> turn\nfull plan\n' >script2
drive f 45 --env HEADROOM_NOW=$(at 600) -- --data-dir "$D" <script2
drive ref 45 --env HEADROOM_NOW=$(at 600) -- --data-dir "$R" <script2
drive_ok f; drive_ok ref
absent "forged figure shown" "18446744" "$WORK/f/all"
absent "forged figure shown" "184467440737095516" "$WORK/f/all"
big=$( (tool peaks "$WORK/f/all"; tool budgets "$WORK/f/all") | tr -d , | awk '$1 >= 1000' | head -3 | tr '\n' ' ')
[ -z "$big" ] || fail "a peak or budget of 1000 GB or more shown after the forgery (forged figures or available 99999 used): $big"
pf=$(tool peaks "$(S f 1)" | head -1); pr=$(tool peaks "$(S ref 1)" | head -1)
[ -n "$pr" ] || fail "control: the unedited copy's restart shows no peak for 'will it fit?'"
[ "$pf" = "$pr" ] || fail "the peak after the forgery is '$pf', the unedited copy's is '$pr' (not recomputed)"
pf0=$(tool peaks "$(S f 0)" | tr '\n' ' '); pr0=$(tool peaks "$(S ref 0)" | tr '\n' ' ')
[ "$pf0" = "$pr0" ] || fail "the greeting's peaks after the forgery ('$pf0') differ from the unedited copy's ('$pr0')"
finish
