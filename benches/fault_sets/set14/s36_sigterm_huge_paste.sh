#!/usr/bin/env bash
# s36: SIGTERM (a `kill`, a systemd stop, a closing tmux) arrives while a 6 MB `ps aux` paste is being taken in.
# Afterwards the transcript is whole JSON lines (after the restart's cut-back at most), the restart is quick and the
# earlier run is remembered.
. "$(dirname "$0")/_lib.sh"; setup_env
"$PY" "$H/_gen.py" bigps big.txt rows=55000
chat out1 "$W/d" "$T0" "$(steps turn "$RUN_TXT" file "$W/big.txt" wait 0.3 kill TERM sleep 2)" '[]' '{}' 40
is_crash "$(cat out1/rc)" out1/all.txt && [ "$(cat out1/rc)" != 124 ] && fail "panic or abort on SIGTERM (rc $(cat out1/rc))"
[ "$(cat out1/rc)" = 124 ] && fail "SIGTERM did not end the session (timeout)"
grep -Eq "$VERDICT_RX" out1/slice_1.txt || fail "control: the run got no Verdict before the paste"
p1="$(peaks out1/slice_1.txt | head -n 1)"
chat out2 "$W/d" "$(at 60)" "$(steps turn 'will it fit?' wait 10 until "$VERDICT_ANY_RX")"
crash_chat out2 && fail "the restart crashed (rc $(cat out2/rc))"
m=$(m_after out2 1); [ -n "$m" ] || fail "the restart did not answer 'will it fit?'"
lt "$m" 5 || fail "the restart took ${m}s"
p2="$(peaks out2/slice_1.txt | head -n 1)"; [ "$p2" = "$p1" ] || fail "the restart's peak $p2, before $p1"
r="$("$PY" "$H/_hr.py" lines_ok "$W/d/transcript.jsonl")" || fail "transcript not whole after the restart: $r"
pass "SIGTERM mid-paste (rc $(cat out1/rc)); restart in ${m}s, run kept, transcript whole"
