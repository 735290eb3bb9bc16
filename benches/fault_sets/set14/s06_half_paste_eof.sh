#!/usr/bin/env bash
# s06: stdin ends in the middle of an nvidia-smi table row (no newline, no blank line): half a paste, then EOF.
# Exit 0, the plan was shown, the transcript is whole JSON lines, and a restart remembers the run.
. "$(dirname "$0")/_lib.sh"; setup_env
HALF='Sat Nov 29 14:02:11 2026
+-----------------------------------------------------------------------------------------+
| NVIDIA-SMI 580.95.05              Driver Version: 580.95.05      CUDA Version: 13.0     |
+-----------------------------------------+------------------------+----------------------+
| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |
| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |
|=========================================+========================+======================|
|   0  NVIDIA GB10                    On  |   0000000F:01:00.0 Off |                  N/A |
| N/A   4'
chat out "$W/d" "$T0" "$(steps turn "$RUN_TXT" raw "$HALF" wait 3)"
crash_chat out && fail "crash (rc $(cat out/rc))"
grep -Eq "$VERDICT_RX" out/all.txt || fail "the run got no Verdict before the half paste"
p1="$(peaks out/slice_1.txt | head -n 1)"
[ "$(cat out/rc)" = 0 ] || fail "exit $(cat out/rc) after EOF inside a paste (README: exit 0 at the end)"
[ -f "$W/d/transcript.jsonl" ] || fail "no transcript.jsonl"
r="$("$PY" "$H/_hr.py" lines_ok "$W/d/transcript.jsonl")" || fail "transcript not whole JSON lines after EOF mid-paste: $r"
chat out2 "$W/d" "$(at 120)" "$(steps turn 'will it fit?')"
crash_chat out2 && fail "restart crashed (rc $(cat out2/rc))"
grep -Eq "$VERDICT_ANY_RX" out2/slice_1.txt || fail "after the restart 'will it fit?' got no verdict"
p2="$(peaks out2/slice_1.txt | head -n 1)"
[ "$p1" = "$p2" ] || fail "the restart's peak $p2 is not the first session's $p1"
pass "EOF mid-paste: exit 0, transcript whole ($r), restart remembers peak $p1"
