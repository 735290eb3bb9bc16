#!/usr/bin/env bash
# s56: 150 distinct training-log pastes of about 70 KiB each (so each is kept in pastes/) in one piped session, then a
# restart. The session ends within 60 s; the restart answers within 5 s with a peak RSS under 200 MiB and the run kept.
. "$(dirname "$0")/_lib.sh"; setup_env
newdir "$W/d"
"$PY" - "$RUN_TXT" > in.txt <<'PYEOF'
import sys
out = [sys.argv[1]]
for p in range(150):
    lines = ["{'loss': %.4f, 'grad_norm': 0.%02d, 'learning_rate': 0.0002, 'epoch': %.3f}" % (2.0 - i * 0.0001 - p * 0.00001, (i + p) % 90 + 10, (p * 1000 + i) / 100000.0) for i in range(1000)]
    out.append('\n'.join(lines))
sys.stdout.write('\n\n'.join(out) + '\n\n')
PYEOF
RC_IN=in.txt rcall s1 90 --data-dir "$W/d"
is_crash "$TC_RC" s1.out && fail "crash (rc $TC_RC)"
[ "$TC_RC" = 124 ] && fail "the session did not finish within 90 s"
lt "$TC_EL" 60 || fail "150 pastes took ${TC_EL}s"
np=$(find "$W/d" -path '*pastes*' -type f | wc -l)
[ "$np" -ge 100 ] || [ "$(rcnt s1.out "$NOTSAVED_RX")" -ge 1 ] || fail "control: only $np pastes kept and nothing said (are pastes over 64 KiB kept?)"
printf 'will it fit?\n\n' > q.txt
RC_IN=q.txt rcall s2 30 --data-dir "$W/d"
is_crash "$TC_RC" s2.out && fail "the restart crashed (rc $TC_RC)"
lt "$TC_EL" 5 || fail "the restart took ${TC_EL}s with $np kept pastes"
[ "$TC_RSS" -lt 204800 ] || fail "restart peak RSS ${TC_RSS} KiB"
grep -Eq "$VERDICT_ANY_RX" s2.out || fail "the restart gave no verdict"
pass "150 pastes ($np kept); restart ${TC_EL}s, RSS ${TC_RSS} KiB"
