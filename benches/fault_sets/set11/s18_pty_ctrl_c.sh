#!/usr/bin/env bash
# Family: slow-drip model server, in a real terminal. The server drips forever under the default 180 s
# deadline; the owner presses Ctrl-C while the model works. Ctrl-C skips the phrasing: headroom's own
# text comes, the session goes on (a next question is answered the same way) and Ctrl-D leaves, exit 0.
source "$(dirname "$0")/_lib.sh"; setup_env
llm_start A drip --drip 1.0 --marker PTYDRIP-2280
newdir "$W/d"
"$PY" - "$HR" "$W/d" "$T0" "http://127.0.0.1:$LLM_PORT_A/v1" "$W/llm_A.log" "$RUN_TXT" "$Q_GMU" > pty_result.txt 2>&1 <<'PY'
import os, pty, re, select, sys, time, json
hr, dd, now, url, log, run, q = sys.argv[1:8]
def posts():
    try:
        return sum(1 for l in open(log) if '"POST"' in l)
    except FileNotFoundError:
        return 0
env = dict(os.environ, HEADROOM_NOW=now, TERM='xterm-256color', COLUMNS='100', LINES='50')
t_start = time.time()
pid, fd = pty.fork()
if pid == 0:
    os.execvpe('timeout', ['timeout', '--foreground', '120', hr, '--data-dir', dd, '--llm', 'openai:m@' + url], env)
buf = bytearray()
def pump(t):
    end = time.time() + t
    while time.time() < end:
        r, _, _ = select.select([fd], [], [], 0.05)
        if r:
            try:
                b = os.read(fd, 65536)
            except OSError:
                return False
            if not b:
                return False
            buf.extend(b)
    return True
def text():
    return re.sub(r'\x1b\[[0-9;?]*[A-Za-z]', '', bytes(buf).decode('utf-8', 'replace'))
def wait_for(rx, t, pos=0):
    end = time.time() + t
    while time.time() < end:
        if re.search(rx, text()[pos:], re.I):
            return True
        if not pump(0.1):
            return False
    return False
pump(2.0)
res = {}
def turn(line, target, key):
    pos = len(text())
    p0 = posts()
    os.write(fd, line.encode() + b'\r')
    # wait for a phrasing request to be in flight (or the answer, if none was made)
    end = time.time() + 6
    nudged = False
    while time.time() < end and posts() == p0 and not re.search(target, text()[pos:], re.I):
        pump(0.1)
        if not nudged and time.time() > end - 4:
            os.write(fd, b'\r'); nudged = True
    res[key + '_posts'] = posts() - p0
    t_c = None; presses = 0; last = p0; t_turn = time.time()
    while not re.search(target, text()[pos:], re.I):
        if posts() > last and presses < 6:
            last = posts()
            pump(1.0)
            os.write(fd, b'\x03'); presses += 1
            if t_c is None:
                t_c = time.time()
        if not pump(0.1):
            break
        if (t_c is None and time.time() - t_turn > 25) or (t_c is not None and time.time() - t_c > 12) \
           or time.time() - t_start > 90:
            break
    res[key + '_answered'] = bool(re.search(target, text()[pos:], re.I))
    res[key + '_presses'] = presses
    res[key + '_after_ctrlc_s'] = (time.time() - t_c) if t_c else None
    pump(0.6)
turn(run, r'verdict', 'run')
turn(q, r'121\.69', 'q')
os.write(fd, b'\x04')
end = time.time() + 8
rc = None
while time.time() < end:
    pump(0.1)
    p, st = os.waitpid(pid, os.WNOHANG)
    if p:
        rc = os.waitstatus_to_exitcode(st); break
if rc is None:
    os.kill(pid, 9); os.waitpid(pid, 0); rc = 'still running'
res['rc'] = rc
res['elapsed'] = time.time() - t_start
res['marker_shown'] = 'PTYDRIP-2280' in text()
res['panic'] = 'panicked at' in text()
open('pty_out.txt', 'w').write(text())
print(json.dumps(res))
PY
r="$(tail -1 pty_result.txt)"
get() { "$PY" -c 'import json,sys; print(json.loads(sys.argv[1]).get(sys.argv[2]))' "$r" "$1" 2>/dev/null; }
[ -n "$(get rc)" ] || fail "harness: pty driver failed: $(tail -3 pty_result.txt | tr '\n' ' ')"
[ "$(get panic)" = False ] || fail "panic in the terminal session"
[ "$(get run_posts)" != 0 ] || fail "control: no phrasing request was made for the run turn, so Ctrl-C had nothing to skip"
[ "$(get run_answered)" = True ] || fail "no verdict after Ctrl-C on the run turn ($r)"
[ "$(get q_answered)" = True ] || fail "the next question was not answered after Ctrl-C ($r)"
[ "$(get marker_shown)" = False ] || fail "unchecked streamed text reached the screen"
[ "$(get rc)" = 0 ] || fail "Ctrl-D did not leave with exit 0 (rc $(get rc))"
lt "$(get elapsed)" 60 || fail "the terminal session took $(get elapsed)s: Ctrl-C did not skip the phrasing"
pass "$r"
