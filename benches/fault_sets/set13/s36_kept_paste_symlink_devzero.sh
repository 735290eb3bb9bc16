#!/usr/bin/env bash
# s36 (family 3, kept paste tampered): session A pastes a 1,500-row `ps aux` (over 64 KiB, so it is kept
# in pastes/). Every file in pastes/ is then replaced by a symlink to /dev/zero.
# Expect: the restart answers "will it fit?" (Verdict) within 5 s, peak RSS under 100 MB, exit 0, and
# [W] says a paste was not used. Control: pastes/ held at least one regular file before the tampering.
. "$(dirname "$0")/_lib.sh"; setup_env
dd="$W/d"
"$PY" "$H/_gen.py" bigps "$W/big.txt"
chat oA "$dd" "$T0" "$(steps turn "$RUN_TXT" file "$W/big.txt" wait 10)"
crash_chat oA && fail "crash in A (rc $(cat oA/rc))"
n=0
for f in "$dd"/pastes/*; do [ -f "$f" ] && [ ! -L "$f" ] || continue; n=$((n+1)); rm -f "$f"; ln -s /dev/zero "$f"; done
[ "$n" -ge 1 ] || fail "control: no kept paste in pastes/ (the 150 KB paste was not kept there)"
chat oB "$dd" "$(at 600)" "$(steps turn 'will it fit?' wait 10 until "$VERDICT_ANY_RX")" '[]' '{}' 30
crash_chat oB && fail "crash or hang on restart (rc $(cat oB/rc))"
t=$(m_after oB 1); [ -n "$t" ] && lt "$t" 5 || fail "'will it fit?' not answered within 5 s (${t:-never})"
kb=$(peak_kb oB); [ "$kb" -lt 97656 ] || fail "peak RSS $((kb/1024)) MiB reading a paste linked to /dev/zero"
[ "$(cat oB/rc)" = 0 ] || fail "exit $(cat oB/rc)"
grep -Eiq 'not used|paste it fresh|could not use|cannot use|was not read|not read' oB/all.txt || fail "[W] the restart did not say the kept paste was not used"
pass "$n paste(s); ${t}s, $((kb/1024)) MiB"
