#!/usr/bin/env bash
# s09: in a real terminal (pty) one column by one row, then resized to 0x0 mid-session (SIGWINCH), then to 3x2:
# questions are still answered, Ctrl-D leaves with exit 0.
. "$(dirname "$0")/_lib.sh"; setup_env
newdir "$W/d"
spec="$("$PY" -c 'import json,sys
W,T0,Q=sys.argv[1:4]
print(json.dumps({"args":["--data-dir",W+"/d"],"env":{"HEADROOM_NOW":T0},"rows":1,"cols":1,"timeout":40,"steps":[
 {"sleep":1.5},{"send":Q+"\r"},{"until":"121\\.69","wait":12},
 {"resize":[0,0]},{"sleep":0.5},{"send":Q+"\r"},{"until":"121\\.69","wait":12},
 {"resize":[2,3]},{"sleep":0.5},{"send":"what does the page cache flush do?\r"},{"sleep":3},
 {"send":"\u0004"},{"sleep":0.5}]}))' "$W" "$T0" "$Q_GMU")"
pty_run out "$spec"
is_crash "$PTY_RC" out/all.txt && fail "crash in the tiny terminal (rc $PTY_RC)"
u="$("$PY" -c 'import json; print(" ".join(str(x) for x in json.load(open("out/meta.json"))["until"]))')"
set -- $u
[ "${1:-None}" != None ] || fail "1x1 terminal: the question was not answered within 12 s (no 121.69)"
[ "${2:-None}" != None ] || fail "after a resize to 0x0 the question was not answered within 12 s"
to="$("$PY" -c 'import json; print(json.load(open("out/meta.json"))["timed_out"])')"
[ "$to" = False ] || fail "Ctrl-D did not end the session (killed at the timeout)"
[ "$PTY_RC" = 0 ] || fail "exit $PTY_RC after Ctrl-D"
pass "answered at 1x1 (${1}s) and after 0x0 (${2}s); Ctrl-D exit 0"
