#!/usr/bin/env bash
# s53: a 6 MB `ps aux` (55,000 rows, vLLM at 41500 among them) pasted in the chat, under the 8 MiB turn limit.
# The listing is read (41500 named) within 30 s with a peak RSS under 400 MiB (memory on a Spark is the training
# run's), and the session goes on.
. "$(dirname "$0")/_lib.sh"; setup_env
"$PY" "$H/_gen.py" bigps big.txt rows=55000
sz=$("$PY" "$H/_hr.py" size big.txt); [ "$sz" -gt 5000000 ] || fail "harness: the listing is only $sz bytes"
chat out "$W/d" "$T0" "$(steps turn "$RUN_TXT" file "$W/big.txt" wait 40 until '41500' turn "$Q_GMU" wait 20 until '121\.69')" '[]' '{}' 90
crash_chat out && fail "crash (rc $(cat out/rc))"
m=$(m_after out 2); [ -n "$m" ] || fail "the 6 MB listing was never answered with 41500"
lt "$m" 30 || fail "the listing took ${m}s"
[ -n "$(m_after out 3)" ] || fail "the question after the listing was not answered"
rss=$(peak_kb out); [ "$rss" -gt 0 ] && [ "$rss" -lt 409600 ] || fail "peak RSS ${rss} KiB"
[ "$(cat out/rc)" = 0 ] || fail "exit $(cat out/rc)"
pass "6 MB listing read in ${m}s, RSS ${rss} KiB"
