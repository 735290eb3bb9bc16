#!/usr/bin/env bash
# Family 5. A brand-new, empty data directory on a tmpfs that is already full (no transcript, no lock file
# yet: the fault comes before anything was ever saved). The start cannot write, so it is read-only: the run
# is planned (a Verdict), the question is answered, one line says nothing is saved [W], exit 0, and any
# transcript left is whole JSON lines. Control: the same on a tmpfs with room saves the run and says nothing
# of the sort.
source "$(dirname "$0")/_lib.sh"; setup_env
NS_RX='read-only|read only|not (be )?saved|cannot save|can.t save|no space|disk is full|full disk|not be kept|won.t be saved'
mk_tmpfs "$W/ok" 4M; newdir "$W/ok/d"
chat outC "$W/ok/d" "$T0" "$(steps turn "$RUN_TXT" turn "$Q_GMU")"
crash_chat outC && fail "control: crash (rc $(cat outC/rc))"
grep -q "$RUN_TXT" "$W/ok/d/transcript.jsonl" 2>/dev/null || fail "control: with room, the run is not saved"
grep -qiE "$NS_RX" outC/all.txt && fail "control: with room, a line still says nothing is saved"
mk_tmpfs "$W/m" 1M; newdir "$W/m/d"; fill_fs "$W/m"
chat out "$W/m/d" "$T0" "$(steps turn "$RUN_TXT" turn "$Q_GMU")"
crash_chat out && fail "crash or hang (rc $(cat out/rc))"
grep -q 'Verdict' out/all.txt || fail "the run got no verdict on the full disk"
grep -q '121\.69' out/all.txt || fail "the question was not answered on the full disk"
grep -qiE "$NS_RX" out/all.txt || fail "[W] no line says nothing is saved"
[ "$(cat out/rc)" = 0 ] || fail "exit $(cat out/rc), want 0"
if [ -e "$W/m/d/transcript.jsonl" ]; then
  "$PY" "$H/_hr.py" jsonl_ok "$W/m/d/transcript.jsonl" >/dev/null || fail "transcript: $("$PY" "$H/_hr.py" jsonl_ok "$W/m/d/transcript.jsonl")"
fi
pass
