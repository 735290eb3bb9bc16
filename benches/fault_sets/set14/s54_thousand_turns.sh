#!/usr/bin/env bash
# s54: 1,200 short turns piped in one go (settings, what-ifs, questions, in a loop): no per-turn cost that grows with the
# session. Done within 60 s with a peak RSS under 200 MiB, every turn answered, transcript whole; the restart replays
# it and answers within 10 s.
. "$(dirname "$0")/_lib.sh"; setup_env
newdir "$W/d"
"$PY" - "$RUN_TXT" "$Q_GMU" > in.txt <<'PYEOF'
import sys
run, q = sys.argv[1], sys.argv[2]
cyc = ['packing 1024', 'packing 2048', 'batch 2', 'batch 1', 'what if batch 4?', q]
out = [run]
for i in range(1199):
    out.append(cyc[i % len(cyc)])
sys.stdout.write('\n\n'.join(out) + '\n\n')
PYEOF
RC_IN=in.txt rcall big 90 --data-dir "$W/d"
is_crash "$TC_RC" big.out && fail "crash (rc $TC_RC)"
[ "$TC_RC" = 124 ] && fail "not done within 90 s"
[ "$TC_RC" = 0 ] || fail "exit $TC_RC"
lt "$TC_EL" 60 || fail "1,200 turns took ${TC_EL}s"
[ "$TC_RSS" -lt 204800 ] || fail "peak RSS ${TC_RSS} KiB"
n=$(cnt big.out 121.69); [ "$n" -ge 190 ] || fail "only $n of 200 questions answered"
r="$("$PY" "$H/_hr.py" lines_ok "$W/d/transcript.jsonl")" || fail "transcript damaged: $r"
HEADROOM_NOW="$(at 600)"
s=$(now_s); printf 'will it fit?\n\n' | HEADROOM_NOW="$(at 600)" timeout 30 "$HR" --data-dir "$W/d" > re.out 2>&1; rrc=$?
e=$(elapsed "$s" "$(now_s)")
is_crash "$rrc" re.out && fail "the restart crashed (rc $rrc)"
lt "$e" 10 || fail "the restart took ${e}s"
grep -Eq "$VERDICT_ANY_RX" re.out || fail "the restart gave no verdict"
pass "1,200 turns in ${TC_EL}s, RSS ${TC_RSS} KiB, $n answers; restart ${e}s"
