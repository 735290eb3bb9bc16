#!/usr/bin/env bash
# Family 5. Odd paths typed in the chat: a FIFO named config.json ("here is the model's config.json: …"), a
# symlink link.csv pointing at a socket after a role word ("samples: …"), and a directory named run.log
# ("the training log is at …"). Each turn is answered within 3 s (no hang), the symlinked socket is
# explained in its own turn [W], and the session goes on to plan the run.
source "$(dirname "$0")/_lib.sh"; setup_env
mkdir -p c t; mkfifo c/config.json; mksock t/real.sock; ln -s "$W/t/real.sock" t/link.csv; mkdir t/run.log
ST="$(steps turn "here is the model's config.json: $W/c/config.json" turn "samples: $W/t/link.csv" \
  turn "the training log is at $W/t/run.log" turn "$RUN_TXT" until 'Verdict' wait 10)"
chat out "$W/d" "$T0" "$ST" '[]' '{}' 40
crash_chat out && fail "crash or hang (rc $(cat out/rc))"
"$PY" - out/meta.json <<'PY' || fail "a turn naming an odd path was not answered within 3 s: $(cat slow.txt)"
import json, sys
m = json.load(open(sys.argv[1]))['turns']
slow = [(i + 1, round(t['answered_after'], 2)) for i, t in enumerate(m[:3]) if t['bytes'] == 0 or t['answered_after'] > 3.5]
open('slow.txt', 'w').write(str(slow))
sys.exit(1 if slow else 0)
PY
grep -qiE 'socket|not a (regular )?file|symlink|symbolic link' out/slice_2.txt || fail "[W] the socket behind link.csv is not explained in the turn that names it"
grep -q 'Verdict' out/slice_4.txt || fail "the session did not go on: no verdict for the run"
[ "$(cat out/rc)" = 0 ] || fail "the session exits $(cat out/rc)"
pass "$(sess_s out)s"
