#!/usr/bin/env bash
# Family 5. After a saved session, a 17 MiB record (over the 16 MiB limit) is appended as the last line,
# without a final newline. Longer records are skipped: the restart starts within 10 s, answers against the
# saved run (a verdict word and 70B), and its own new record starts on a line of its own (the line holding
# the restart's turn is whole JSON).
source "$(dirname "$0")/_lib.sh"; setup_env
newdir "$W/d"
chat outA "$W/d" "$T0" "$(steps turn "$RUN_TXT")"
crash_chat outA && fail "A: crash (rc $(cat outA/rc))"
"$PY" - "$W/d/transcript.jsonl" <<'PY'
import json, sys
with open(sys.argv[1], 'ab') as f:
    f.write(json.dumps({"kind": "turn", "at": "2026-11-29T14:05:00Z", "text": "Z" * (17 * 1024 * 1024)}).encode())
PY
chat outB "$W/d" "$(at 600)" "$(steps turn "will it fit? zqx-restart-turn" wait 8)" '[]' '{}' 30
crash_chat outB && fail "restart: crash or hang (rc $(cat outB/rc))"
lt "$(sess_s outB)" 10 || fail "restart took $(sess_s outB)s"
grep -qiE 'does not fit|\bfits\b|\btight\b' outB/slice_1.txt && grep -q '70B' outB/slice_1.txt || fail "'will it fit?' got no verdict from the saved run"
"$PY" "$H/_hr.py" jsonl_has "$W/d/transcript.jsonl" 'zqx-restart-turn' >/dev/null || fail "the restart's turn is not a whole JSON line (glued to the oversized line, or not saved)"
pass "$(sess_s outB)s"
