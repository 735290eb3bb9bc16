#!/usr/bin/env python3
"""Drive headroom in a pseudo-terminal (set14; stdlib only).

usage: _pty.py HEADROOM OUTDIR SPEC_JSON
SPEC: {"args": [...], "env": {...}, "rows": 24, "cols": 80, "timeout": 30,
       "steps": [{"send": "text"}, {"paste": "text"}, {"sleep": s}, {"resize": [rows, cols]},
                 {"until": "regex", "wait": s}, {"hangup": true}]}
"send" types the text as is (use \\r for Enter); "paste" wraps it in bracketed-paste marks and adds \\r;
"until" waits (up to "wait" s) for the regex in the output seen so far with terminal escapes and all
whitespace removed, counted from the previous "until"'s match (so the same text can be waited for twice);
"hangup" closes the terminal's master side (the kernel hangs the session up).
After the steps the driver waits for the process to end (up to timeout). It writes all.txt (raw
output), text.txt (escapes removed), meta.json: rc (negative: killed by that signal), elapsed,
after_hangup (seconds from hangup to exit), cpu_after_hangup (child's user+sys CPU seconds spent after the
hangup), until (per until step: seconds or null), timed_out.
"""
import fcntl, json, os, re, select, signal, struct, sys, termios, threading, time

hr, outdir, spec = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
os.makedirs(outdir, exist_ok=True)
env = dict(os.environ)
env.update({k: str(v) for k, v in spec.get('env', {}).items()})
env.pop('COLUMNS', None) if spec.get('drop_columns', True) else None
timeout = float(spec.get('timeout', 30))

def winsz(fd, r, c):
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack('HHHH', r, c, 0, 0))

master, slave = os.openpty()
winsz(slave, int(spec.get('rows', 24)), int(spec.get('cols', 80)))
t_start = time.time()
pid = os.fork()
if pid == 0:
    os.close(master)
    os.setsid()
    fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
    for fd in (0, 1, 2):
        os.dup2(slave, fd)
    if slave > 2:
        os.close(slave)
    try:
        os.execve(hr, [hr] + list(spec.get('args', [])), env)
    finally:
        os._exit(127)
os.close(slave)

buf = bytearray()
lock = threading.Lock()
state = {'rc': None, 'ru': None, 'end': None}
closed = [False]

def reader():
    while True:
        if closed[0]:
            return
        try:
            r, _, _ = select.select([master], [], [], 0.1)
        except (OSError, ValueError):
            return
        if not r:
            if state['rc'] is not None:
                return
            continue
        try:
            b = os.read(master, 65536)
        except OSError:
            return
        if not b:
            return
        with lock:
            buf.extend(b)

def waiter():
    _, st, ru = os.wait4(pid, 0)
    state['ru'] = ru
    state['end'] = time.time()
    state['rc'] = os.waitstatus_to_exitcode(st)

threading.Thread(target=reader, daemon=True).start()
threading.Thread(target=waiter, daemon=True).start()

ESC = re.compile(r'\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[@-Z\\-_]|[\x00-\x08\x0b-\x1f\x7f]')

def text():
    with lock:
        t = bytes(buf).decode('utf-8', 'replace')
    return ESC.sub('', t)

def squash(t):
    return re.sub(r'\s+', '', t)

def cpu_of(p):
    try:
        with open('/proc/%d/stat' % p) as f:
            parts = f.read().rsplit(')', 1)[1].split()
        return (int(parts[11]) + int(parts[12])) / os.sysconf('SC_CLK_TCK')
    except (OSError, IndexError, ValueError):
        return None

meta = {'until': []}
last_pos = 0
hang_t = None
cpu_at_hang = None
for st in spec.get('steps', []):
    if state['rc'] is not None and 'until' not in st:
        break
    if 'sleep' in st:
        time.sleep(float(st['sleep']))
    elif 'send' in st:
        try:
            os.write(master, st['send'].encode('utf-8', 'surrogateescape'))
        except OSError:
            pass
    elif 'paste' in st:
        try:
            os.write(master, b'\x1b[200~' + st['paste'].encode('utf-8', 'surrogateescape') + b'\x1b[201~\r')
        except OSError:
            pass
    elif 'resize' in st:
        r, c = st['resize']
        try:
            winsz(master, int(r), int(c))
            os.kill(pid, signal.SIGWINCH)
        except OSError:
            pass
    elif 'until' in st:
        t0 = time.time()
        got = None
        rx = re.compile(st['until'], re.I | re.S)
        while time.time() - t0 < float(st.get('wait', 10)):
            s = squash(text())
            m = rx.search(s, last_pos)
            if m:
                got = time.time() - t0
                last_pos = m.end()
                break
            if state['rc'] is not None:
                break
            time.sleep(0.05)
        meta['until'].append(got)
    elif 'hangup' in st:
        cpu_at_hang = cpu_of(pid)
        hang_t = time.time()
        closed[0] = True
        time.sleep(0.15)
        os.close(master)
deadline = t_start + timeout
while state['rc'] is None and time.time() < deadline:
    time.sleep(0.05)
meta['timed_out'] = state['rc'] is None
if state['rc'] is None:
    cpu_before_kill = cpu_of(pid)
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass
    while state['rc'] is None:
        time.sleep(0.05)
    meta['cpu_total_at_kill'] = cpu_before_kill
meta['rc'] = state['rc']
meta['elapsed'] = state['end'] - t_start
if hang_t is not None:
    meta['after_hangup'] = state['end'] - hang_t
    ru = state['ru']
    meta['cpu_after_hangup'] = (ru.ru_utime + ru.ru_stime) - (cpu_at_hang or 0.0)
if not closed[0]:
    time.sleep(0.2)
with lock:
    data = bytes(buf)
open(os.path.join(outdir, 'all.txt'), 'wb').write(data)
open(os.path.join(outdir, 'text.txt'), 'w').write(text())
open(os.path.join(outdir, 'rc'), 'w').write(str(state['rc']))
json.dump(meta, open(os.path.join(outdir, 'meta.json'), 'w'))
