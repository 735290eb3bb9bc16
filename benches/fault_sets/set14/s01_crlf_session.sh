#!/usr/bin/env bash
# s01: the whole piped session with Windows line endings (CRLF), as a clipboard from a Windows terminal gives it.
. "$(dirname "$0")/_lib.sh"; setup_env
crlf() { printf '%s' "$1" | sed 's/$/\r/'; }
R="$(crlf "$RUN_TXT")"; F="$(crlf "$FREE_G")"; Q="$(crlf "$Q_GMU")"; WF="$(crlf 'will it fit?')"
CR=$'\r'
chat outC "$W/dC" "$T0" "$(steps raw "$R"$'\n'"$CR"$'\n' raw "$F"$'\n'"$CR"$'\n' raw "$WF"$'\n'"$CR"$'\n' raw "$Q"$'\n'"$CR"$'\n')"
chat outL "$W/dL" "$T0" "$(steps turn "$RUN_TXT" turn "$FREE_G" turn 'will it fit?' turn "$Q_GMU")"
crash_chat outC && fail "crash on CRLF input (rc $(cat outC/rc))"
crash_chat outL && fail "crash on LF input (rc $(cat outL/rc))"
grep -Eq "$VERDICT_RX" outL/all.txt || fail "control: the LF session got no Verdict line"
[ "$(cnt outL/all.txt 121.69)" -ge 1 ] || fail "control: the LF session did not answer the question (121.69)"
fl="$("$PY" "$H/_hr.py" figures outL/all.txt)"; fc="$("$PY" "$H/_hr.py" figures outC/all.txt)"
[ "$fl" = "$fc" ] || fail "the CRLF session's GB figures differ from the LF session's: CRLF [$(echo $fc | head -c 300)] vs LF [$(echo $fl | head -c 300)]"
[ "$(vlines outC/all.txt)" = "$(vlines outL/all.txt)" ] || fail "Verdict lines differ between CRLF and LF"
[ "$(cnt outC/all.txt 121.69)" -ge 1 ] || fail "the CRLF question was not answered (no 121.69)"
b="$(badctl outC/all.txt)"; [[ " $b " == *" CR "* || " $b " == *" ESC "* ]] && fail "raw control bytes on screen after CRLF input: $b"
[ "$(cat outC/rc)" = 0 ] || fail "CRLF session exit $(cat outC/rc)"
pass "CRLF session read like LF: same figures and verdicts, no raw CR"
