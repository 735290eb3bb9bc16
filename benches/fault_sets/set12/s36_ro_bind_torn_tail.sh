#!/usr/bin/env bash
# Family 5. A saved session's transcript ends in a torn record (a crash mid-write), and the data directory is
# now read-only (a read-only bind mount over it: EROFS for every write through its path). The start can
# neither repair the torn record nor write: it is read-only. What was saved before the torn record is replayed
# and answered against ("will it fit?" gets a verdict word for the 70B run), the question is answered, one
# line says nothing is saved [W], exit 0, and the directory is byte-for-byte unchanged (no .torn- copy).
source "$(dirname "$0")/_lib.sh"; setup_env
newdir "$W/d"
chat outA "$W/d" "$T0" "$(steps turn "$RUN_TXT" turn "actually packing 1024")"
crash_chat outA && fail "A: crash (rc $(cat outA/rc))"
grep -q 'Verdict' outA/all.txt || fail "control: no verdict in the first session"
printf '{"kind":"turn","text":"QLoRA on Llama 3.1 8B, ba' >> "$W/d/transcript.jsonl"
(cd "$W/d" && find . -type f -exec sha256sum {} + | sort -k2) > before.sha
mount --bind "$W/d" "$W/d" && mount -o remount,bind,ro "$W/d" || fail "cannot make a read-only bind mount (needs root)"
_MOUNTS+=("$W/d")
touch "$W/d/.probe" 2>/dev/null && fail "harness: the data dir is still writable"
chat outB "$W/d" "$(at 600)" "$(steps turn "will it fit?" turn "$Q_GMU")"
crash_chat outB && fail "start crashed or hung (rc $(cat outB/rc))"
[ "$(cat outB/rc)" = 0 ] || fail "exit $(cat outB/rc), want 0"
grep -qiE 'does not fit|\bfits\b|\btight\b' outB/slice_1.txt && grep -q '70B' outB/slice_1.txt || fail "'will it fit?' got no verdict from the saved run"
grep -q '121\.69' outB/all.txt || fail "the question was not answered"
grep -qiE 'read-only|read only|not (be )?saved|cannot save|can.t save|cannot write|can.t write|cannot repair|can.t repair' outB/all.txt || fail "[W] no line says the session is read-only / not saved"
(cd "$W/d" && find . -type f -exec sha256sum {} + | sort -k2) > after.sha
cmp -s before.sha after.sha || fail "the read-only data dir changed: $(diff before.sha after.sha | head -2 | tr '\n' ' ')"
pass
