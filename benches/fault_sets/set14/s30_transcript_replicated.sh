#!/usr/bin/env bash
# s30: a transcript whose records were duplicated thousands of times over (a sync tool gone wrong): the first session's
# lines repeated until the file is about 60 MB. The restart stays fast and small and recomputes the same run.
# Interpretation of the bound: answered within 20 s with a peak RSS under 512 MiB (README: "restarts stay fast").
. "$(dirname "$0")/_lib.sh"; setup_env
chat out1 "$W/d" "$T0" "$(steps turn "$RUN_TXT" turn "$FREE_G" turn 'what if batch 2?' turn 'ok, do that' turn "$LISTING" turn no turn 'will it fit?')"
crash_chat out1 && fail "crash in the first session"
p1="$(peaks out1/slice_7.txt | head -n 1)"
[ -n "$p1" ] || fail "control: the first session's last answer has no peak"
T="$W/d/transcript.jsonl"; sz=$("$PY" "$H/_hr.py" size "$T")
n=$(( 60000000 / (sz + 1) )); [ "$n" -gt 3000 ] && n=3000; [ "$n" -lt 2 ] && n=2
"$PY" -c 'import sys; d=open(sys.argv[1],"rb").read(); open(sys.argv[1],"wb").write(d*int(sys.argv[2]))' "$T" "$n"
chat out2 "$W/d" "$(at 600)" "$(steps turn 'will it fit?' wait 25 until "$VERDICT_ANY_RX")" '[]' '{}' 60
crash_chat out2 && fail "the restart crashed (rc $(cat out2/rc))"
m=$(m_after out2 1); [ -n "$m" ] || fail "the restart never answered 'will it fit?' (file ${n}x)"
lt "$m" 20 || fail "the restart answered after ${m}s"
rss=$(peak_kb out2); [ "$rss" -lt 524288 ] || fail "restart peak RSS ${rss} KiB"
p2="$(peaks out2/slice_1.txt | head -n 1)"
[ "$p2" = "$p1" ] || fail "the replayed run's peak $p2 differs from the session's $p1"
k="$(kills out2/all.txt)"; [ -z "$k" ] || fail "the replay gave kill $k"
pass "${n}x duplicated transcript: answered in ${m}s, RSS ${rss} KiB, peak $p2"
