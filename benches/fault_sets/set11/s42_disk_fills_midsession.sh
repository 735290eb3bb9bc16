#!/usr/bin/env bash
# Family: full disk. The data dir is on a small tmpfs that fills up after the first turn. The next turn (a
# 30 KiB training-log paste, so its record cannot fit) is still answered, with "This turn is not saved";
# the session goes on (the next question is answered); the transcript never ends inside a record.
# Control: the first turn (before the fill) is saved and not marked "not saved".
source "$(dirname "$0")/_lib.sh"; setup_env
mk_tmpfs "$W/m" 1M; newdir "$W/m/d"
"$PY" "$H/_gen.py" hflog "$W/log.txt" kib=30
ST="$(steps turn "$RUN_TXT" sh "dd if=/dev/zero of=$W/m/.filler bs=4096 2>/dev/null; dd if=/dev/zero of=$W/m/.filler2 bs=512 2>/dev/null; true" \
  file "$W/log.txt" turn "$Q_GMU" turn "what if batch 2?")"
chat out "$W/m/d" "$T0" "$ST"
crash_chat out && fail "crash (rc $(cat out/rc))"
grep -qi 'not saved' out/slice_1.txt && fail "control: the turn before the fill already says 'not saved'"
"$PY" "$H/_hr.py" jsonl_has "$W/m/d/transcript.jsonl" "$RUN_TXT" >/dev/null || fail "control: the first turn was not saved"
[ -s out/slice_2.txt ] || fail "no reply to the paste on the full disk"
around out 2 | grep -qi 'not saved' || fail "[W] the reply on the full disk does not say 'This turn is not saved'"
around out 3 | grep -q '121\.69' || fail "the session did not go on (question after the full disk unanswered)"
[ "$(cat out/rc)" = 0 ] || fail "piped session exits $(cat out/rc) at the end, want 0"
"$PY" "$H/_hr.py" jsonl_ok "$W/m/d/transcript.jsonl" >/dev/null || fail "transcript ends inside a record: $("$PY" "$H/_hr.py" jsonl_ok "$W/m/d/transcript.jsonl")"
pass
