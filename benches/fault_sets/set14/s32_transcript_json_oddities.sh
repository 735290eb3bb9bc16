#!/usr/bin/env bash
# s32: after a real session, lines that are valid JSON of the wrong shape are appended to the transcript: null, [], a
# string, a number, {}, wrong field types, 1e99999, a 2^64 integer, and 100,000-deep nested arrays and objects.
# The restart neither crashes (stack overflow included) nor loses the run, and its own new record is valid JSON.
. "$(dirname "$0")/_lib.sh"; setup_env
chat out1 "$W/d" "$T0" "$(steps turn "$RUN_TXT")"
crash_chat out1 && fail "crash in the first session"
p1="$(peaks out1/slice_1.txt | head -n 1)"; [ -n "$p1" ] || fail "control: no peak in the first session"
T="$W/d/transcript.jsonl"
"$PY" - "$T" <<'PYEOF'
import sys
lines = ['null', '[]', '"just a string"', '42', '{}', '{"kind": ["turn"], "text": {"x": 1}, "t": 17}',
         '{"t": "2026-11-29T14:05:00Z", "kind": "turn", "text": 1e99999}',
         '{"t": "2026-11-29T14:05:00Z", "kind": "turn", "seq": 18446744073709551616}',
         '[' * 100000 + ']' * 100000, '{"a":' * 100000 + '1' + '}' * 100000]
with open(sys.argv[1], 'a') as f:
    for l in lines:
        f.write(l + '\n')
PYEOF
chat out2 "$W/d" "$(at 120)" "$(steps turn 'will it fit?' wait 10)"
crash_chat out2 && fail "the restart crashed (rc $(cat out2/rc)): $(grep -m1 -o 'panicked.*\|overflowed.*' out2/all.txt)"
grep -Eq "$VERDICT_ANY_RX" out2/slice_1.txt || fail "the restart lost the run (no verdict)"
p2="$(peaks out2/slice_1.txt | head -n 1)"; [ "$p2" = "$p1" ] || fail "peak $p2 after the restart, $p1 before"
last="$(tail -n 1 "$T")"
"$PY" -c 'import json,sys; json.loads(sys.argv[1])' "$last" 2>/dev/null || fail "the restart's new last record is not JSON: $(head -c 100 <<<"$last")"
pass "odd JSON records skipped; run kept (peak $p1)"
