#!/usr/bin/env bash
# s32 (family 3, transcript edited between runs): the owner opens transcript.jsonl in a Windows editor
# and saves it unchanged: a UTF-8 BOM in front, CRLF line ends, saved by rename (mode 0600 kept).
# Interpretation: every line is still a whole JSON record (JSON allows CR as whitespace, and the BOM
# is an encoding mark), so the run is remembered. Expect: the restart answers "will it fit?" with a
# Verdict for the 70B run; its own turn is appended as a whole record; no crash.
. "$(dirname "$0")/_lib.sh"; setup_env
dd="$W/d"
chat oA "$dd" "$T0" "$(steps turn "$RUN_TXT" turn "$FREE_G")"
crash_chat oA && fail "crash in A (rc $(cat oA/rc))"
grep -Eq "$VERDICT_RX" oA/all.txt || fail "control: A gave no Verdict"
"$PY" - "$dd/transcript.jsonl" <<'PYEOF' || fail "harness: could not rewrite the transcript"
import os, sys
p = sys.argv[1]
d = open(p, 'rb').read()
lines = d.split(b'\n')
out = b'\xef\xbb\xbf' + b'\r\n'.join(lines)
open(p + '.tmp', 'wb').write(out); os.chmod(p + '.tmp', 0o600); os.rename(p + '.tmp', p)
PYEOF
chat oB "$dd" "$(at 600)" "$(steps turn 'will it fit?')"
crash_chat oB && fail "crash on restart (rc $(cat oB/rc))"
grep -q '70B' oB/all.txt || fail "the run was forgotten after a BOM/CRLF save (no 70B on restart)"
grep -Eq "$VERDICT_ANY_RX" oB/slice_1.txt || fail "'will it fit?' got no Verdict after the restart"
"$PY" -c 'import sys,json; l=[x for x in open(sys.argv[1],"rb").read().split(b"\n") if x.strip()]; json.loads(l[-1])' "$dd/transcript.jsonl" || fail "the restart's record is not a whole JSON line"
grep -q 'will it fit' "$dd/transcript.jsonl" || fail "the restart's turn was not saved"
pass
