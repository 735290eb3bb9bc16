#!/bin/bash
# s18: a stop proposed at T0 from a ps listing.  (a) A bare "yes" three days later
# in a new session gives no kill and asks for a fresh listing; the fresh listing
# then shows vLLM at a new pid (52210; 41500 is gone, pids get reused) and a yes
# kills 52210, never 41500.  (b) A bare "yes" 20 minutes later in a new session
# (under an hour, but another session) gives no kill either.
SID=s18
source "$(dirname "$(readlink -f "$0")")/lib/common.sh" "$@"

D=$(mkdata d)
{ echo ">>> turn"; echo "$RUN"; echo ">>> turn"; listing; } >script1
drive s1 45 --env HEADROOM_NOW=$T0 -- --data-dir "$D" <script1
drive_ok s1
nokill "the listing's own reply (before any yes)" $(S s1 2)
D2=$(mkdata d2); cp -a "$D/." "$D2/"; rm -f "$D2/lock"
# (a) three days later
{ printf '>>> turn\nyes\n>>> turn\n'; ps_head; ps_row 52210 "$VLLM_CMD"; printf '>>> turn\nyes\n'; } >script2
drive s2 45 --env HEADROOM_NOW=$(at $((3 * 86400))) -- --data-dir "$D" <script2
drive_ok s2
nokill "(a) a bare yes three days later" "$(S s2 1)"
wm '(fresh|new|current|again|re-?run|latest).{0,60}(ps|listing|list)|ps aux' $(SL s2 1) || fail "[W] (a) the stale yes did not ask for a fresh ps listing"
has_kill 52210 $(SL s2 3) || fail "(a) control: a fresh listing and a yes in this session did not show kill 52210"
kills "$WORK/s2/all" | grep -qx 41500 && fail "(a) kill 41500 shown three days later (a pid from an old listing)"
# (b) twenty minutes later, another session
printf '>>> turn\nyes\n' >script3
drive s3 45 --env HEADROOM_NOW=$(at 1200) -- --data-dir "$D2" <script3
drive_ok s3
nokill "(b) a bare yes in another session 20 minutes later" "$(S s3 1)"
finish
