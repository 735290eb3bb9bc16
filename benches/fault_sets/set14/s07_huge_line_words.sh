#!/usr/bin/env bash
# s07: one 6 MiB line of the owner's prose (under the 8 MiB piped-turn limit), then a question.
# Answered in bounded time and memory, and not echoed back whole.
. "$(dirname "$0")/_lib.sh"; setup_env
"$PY" -c 'import sys; open(sys.argv[1],"w").write("notes: " + "the quick brown fox jumps over the lazy dog " * 146000 + "end\n\n")' big.txt
chat out "$W/d" "$T0" "$(steps turn "$RUN_TXT" file "$W/big.txt" wait 30 turn "$Q_GMU" wait 30 until '121\.69')" '[]' '{}' 90
crash_chat out && fail "crash (rc $(cat out/rc))"
grep -Eq "$VERDICT_RX" out/slice_1.txt || fail "control: the run got no Verdict"
[ "$(cnt out/slice_3.txt 121.69)" -ge 1 ] || fail "the question after the 6 MiB line was not answered"
t2="$("$PY" -c 'import json; print("%.1f" % json.load(open("out/meta.json"))["turns"][1]["answered_after"])')"
lt "$t2" 30 || fail "the 6 MiB line took ${t2}s to answer (bound 30 s)"
rss=$(peak_kb out); [ "$rss" -gt 0 ] && [ "$rss" -lt 307200 ] || fail "peak RSS ${rss} KiB (bound 300 MiB)"
sz=$("$PY" "$H/_hr.py" size out/all.txt); [ "$sz" -lt 1048576 ] || fail "output is $sz bytes: the line was echoed back"
[ "$(cat out/rc)" = 0 ] || fail "exit $(cat out/rc)"
pass "6 MiB line answered in ${t2}s, RSS ${rss} KiB, output $sz bytes"
