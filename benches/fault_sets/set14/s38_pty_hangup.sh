#!/usr/bin/env bash
# s38: the terminal goes away (ssh drops, the window is closed): the pty master is closed under a running session.
# headroom exits within 5 s without spinning (under 2 s of CPU after the hangup), and what it took is on disk.
. "$(dirname "$0")/_lib.sh"; setup_env
newdir "$W/d"
spec="$("$PY" -c 'import json,sys
W,T0,R=sys.argv[1:4]
print(json.dumps({"args":["--data-dir",W+"/d"],"env":{"HEADROOM_NOW":T0},"rows":40,"cols":100,"timeout":20,"steps":[
 {"sleep":1.5},{"send":R+"\r"},{"until":"Verdict","wait":10},{"sleep":0.5},{"hangup":True},{"sleep":0.1}]}))' "$W" "$T0" "$RUN_TXT")"
pty_run out "$spec"
u="$("$PY" -c 'import json; print(json.load(open("out/meta.json"))["until"][0])')"
[ "$u" != None ] || fail "control: the run got no Verdict in the terminal"
to="$("$PY" -c 'import json; print(json.load(open("out/meta.json"))["timed_out"])')"
[ "$to" = False ] || fail "headroom was still running 18 s after the terminal hung up"
ah="$("$PY" -c 'import json; print("%.2f" % json.load(open("out/meta.json"))["after_hangup"])')"
cpu="$("$PY" -c 'import json; print("%.2f" % json.load(open("out/meta.json"))["cpu_after_hangup"])')"
lt "$ah" 5 || fail "exit ${ah}s after the hangup"
lt "$cpu" 2 || fail "${cpu}s of CPU after the hangup (busy loop on a dead terminal)"
grep -q 'packing 2048' "$W/d/transcript.jsonl" 2>/dev/null || fail "the typed run is not on disk"
r="$("$PY" "$H/_hr.py" lines_ok "$W/d/transcript.jsonl")" || fail "transcript damaged: $r"
pass "hangup: exit after ${ah}s (rc $PTY_RC), ${cpu}s CPU, transcript whole"
