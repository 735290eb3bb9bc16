#!/usr/bin/env bash
# s33 (family 3, torn record): a power loss leaves 8 KiB of NUL bytes after the last record (what a
# journaling filesystem shows for a size update without its data).
# Expect: the restart starts, answers "will it fit?" for the remembered 70B run with a Verdict; the
# NUL tail is cut back (no NUL left; every line whole JSON) and the original kept as
# transcript.jsonl.torn-*; the restart's own turn is saved.
. "$(dirname "$0")/_lib.sh"; setup_env
dd="$W/d"
chat oA "$dd" "$T0" "$(steps turn "$RUN_TXT" turn "$FREE_G")"
crash_chat oA && fail "crash in A (rc $(cat oA/rc))"
grep -Eq "$VERDICT_RX" oA/all.txt || fail "control: A gave no Verdict"
head -c 8192 /dev/zero >> "$dd/transcript.jsonl"
chat oB "$dd" "$(at 600)" "$(steps turn 'will it fit?')"
crash_chat oB && fail "crash on restart (rc $(cat oB/rc))"
grep -q '70B' oB/all.txt || fail "the run was forgotten (no 70B on restart)"
grep -Eq "$VERDICT_ANY_RX" oB/slice_1.txt || fail "'will it fit?' got no Verdict"
"$PY" -c 'import sys; sys.exit(1 if b"\0" in open(sys.argv[1],"rb").read() else 0)' "$dd/transcript.jsonl" || fail "the NUL tail is still in the transcript"
"$PY" "$H/_hr.py" jsonl_ok "$dd/transcript.jsonl" >/dev/null || fail "the transcript is not whole JSON lines: $("$PY" "$H/_hr.py" jsonl_ok "$dd/transcript.jsonl")"
ls "$dd"/transcript.jsonl.torn-* >/dev/null 2>&1 || fail "no transcript.jsonl.torn-* copy was kept"
grep -q 'will it fit' "$dd/transcript.jsonl" || fail "the restart's turn was not saved"
pass
