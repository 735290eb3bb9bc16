#!/usr/bin/env bash
# s24: a 300 KB ps paste is kept in pastes/. Restart with it intact: no "not used" notice
# (control). Cut the kept file to half: the restart's greeting says the paste given at 14:56
# was not used and asks for it fresh. Delete it: the same. A kept paste whose size is wrong
# or that is gone is never silently reused.
SID=s24
. "$(dirname "$0")/lib.sh" "$@"

python3 "$FX" biglisting "$T/big.txt" 300000 S24ENDMARK
D=$(mkdd data)
chat a "$NOW0" "$D" "$RUN_TXT

$(cat "$T/big.txt")"
P=$(python3 "$FX" first_with "$D/pastes" S24ENDMARK 2>/dev/null)
[ -n "$P" ] || { bad "setup: the 300 KB paste was not kept in pastes/ (README: pastes over 64 KiB are)"; finish; }
chat b "2026-11-29T15:00:00Z" "$D" "/status"
truncate -s $(( $(size_of "$P") / 2 )) "$P"
chat c "2026-11-29T15:02:00Z" "$D" "/status"
rm -f "$P"
chat d "2026-11-29T15:04:00Z" "$D" "/status"

NOTUSED='not used|was not used|could not be used|cannot be used|paste it (fresh|again)'
for n in a b c d; do rc_is $n 0 || bad "session $n exited $(rc_of $n)"; panicked $n && bad "$n panicked"; done
has a '415002' || bad "setup: the big ps paste was not read"
has b "$NOTUSED" && bad "control: an intact kept paste was reported as not used"
has c "$NOTUSED" || bad "[W] a kept paste cut to half was not reported as not used"
has c '14:56|29 nov|nov(ember)? 29|2026-11-29' || bad "[W] the notice about the cut paste lacks the time it was given"
has d "$NOTUSED" || bad "[W] a kept paste that is gone was not reported as not used"
finish
