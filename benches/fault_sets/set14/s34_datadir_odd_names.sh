#!/usr/bin/env bash
# s34: --data-dir names with a newline, with an OSC title and clear-screen, with bytes that are not UTF-8, and a path of
# about 4,000 bytes. Each either works (answers, writes its transcript there) or is refused quickly with exit 2 and a
# reason; never a crash, and the escape never reaches the screen raw.
. "$(dirname "$0")/_lib.sh"; setup_env
LONG="$W/$(printf 'x%.0s' $(seq 1 200))"; for i in $(seq 1 18); do LONG="$LONG/$(printf 'y%.0s' $(seq 1 200))"; done
H14="$H" HR14="$HR" "$PY" - "$W" "$T0" "$RUN_TXT" "$Q_GMU" "$LONG" <<'PYEOF'
import json, os, subprocess, sys
W, T0, RUN, Q, LONG = sys.argv[1:6]
names = {'nl': W.encode() + b'/d\nnewline', 'esc': W.encode() + b'/d\x1b]0;PWNED\x07\x1b[2J', 'bad': W.encode() + b'/d\xff\xfe',
         'long': LONG.encode()}
for k, n in names.items():
    os.makedirs(n, mode=0o700, exist_ok=True); os.chmod(n, 0o700)
    spec = {'args': ['--data-dir', os.fsdecode(n)], 'env': {'HEADROOM_NOW': T0}, 'timeout': 20,
            'steps': [{'turn': RUN}, {'turn': Q}], 'quiet': 0.4, 'start_wait': 2}
    subprocess.run([sys.executable, os.path.join(os.environ['H14'], '_drive.py'), os.environ['HR14'], W + '/o_' + k,
                    json.dumps(spec)])
    with open(W + '/o_' + k + '/transcript_exists', 'w') as f:
        f.write('1' if os.path.isfile(n + b'/transcript.jsonl') else '0')
PYEOF
[ -d "$W/o_nl" ] || fail "harness: the driver did not run"
for k in nl esc bad long; do
  o="$W/o_$k"
  crash_chat "$o" && fail "($k) crash (rc $(cat $o/rc))"
  rc=$(cat $o/rc)
  if [ "$(cnt $o/all.txt 121.69)" -ge 1 ]; then
    [ "$(cat $o/transcript_exists)" = 1 ] || fail "($k) answered but no transcript.jsonl in the named dir"
  else
    [ "$rc" = 2 ] || fail "($k) neither answered nor refused with exit 2 (rc $rc): $(head -c 200 $o/all.txt | tr '\n' ' ')"
    e=$(sess_s $o); lt "$e" 5 || fail "($k) the refusal took ${e}s"
  fi
  b="$(badctl $o/all.txt)"; [[ " $b " == *" ESC "* || " $b " == *" BEL "* ]] && fail "($k) raw $b on screen"
done
pass "odd data-dir names: no crash, no raw escape"
