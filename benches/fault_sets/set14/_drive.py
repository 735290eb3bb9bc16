#!/usr/bin/env python3
"""Drive one piped headroom chat session, a turn at a time, and cut the output in slices.

usage: _drive.py HEADROOM OUTDIR SPEC_JSON
SPEC: {"args": [...], "env": {...}, "timeout": 30, "quiet": 0.4, "start_wait": 2,
       "steps": [{"turn": "text", "wait": 2, "until": "regex"}, {"file": PATH}, {"sh": "cmd"},
                 {"sleep": 1}, {"raw": "text"}, {"kill": "KILL"}]}
Slice 0 is what came before turn 1 was sent; slice K what came after turn K and before turn K+1
(the last slice also holds what came after stdin was closed). meta.json records times, the exit code
and the headroom process's peak RSS (VmHWM, polled every 50 ms, in KiB).
A {"kill": SIG} step sends SIG to the headroom process itself (not to `timeout`).
"""
import json, os, re, signal, subprocess, sys, threading, time

hr, outdir, spec = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
os.makedirs(outdir, exist_ok=True)
env = dict(os.environ)
env.update({k: str(v) for k, v in spec.get('env', {}).items()})
timeout = int(spec.get('timeout', 30))
quiet = float(spec.get('quiet', 0.4))
cmd = ['timeout', str(timeout), hr] + list(spec.get('args', []))
t_start = time.time()
p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
buf = bytearray()
last_rx = [time.time()]
lock = threading.Lock()
done = threading.Event()
hwm = [0]
hpid = [None]

def child_pid():
    try:
        with open('/proc/%d/task/%d/children' % (p.pid, p.pid)) as f:
            c = f.read().split()
        return int(c[0]) if c else None
    except OSError:
        return None

def poller():
    while p.poll() is None:
        if hpid[0] is None:
            hpid[0] = child_pid()
        if hpid[0] is not None:
            try:
                with open('/proc/%d/status' % hpid[0]) as f:
                    for line in f:
                        if line.startswith('VmHWM:'):
                            hwm[0] = max(hwm[0], int(line.split()[1]))
            except OSError:
                pass
        time.sleep(0.05)

def reader():
    fd = p.stdout.fileno()
    while True:
        try:
            b = os.read(fd, 65536)
        except OSError:
            break
        if not b:
            break
        with lock:
            buf.extend(b)
            last_rx[0] = time.time()
    done.set()

threading.Thread(target=reader, daemon=True).start()
threading.Thread(target=poller, daemon=True).start()

def size():
    with lock:
        return len(buf)

def send(b):
    try:
        p.stdin.write(b); p.stdin.flush()
        return True
    except (BrokenPipeError, OSError):
        return False

def wait_reply(pos, wait, until=None, nudge=None):
    """wait up to `wait` s for output past pos (or for `until` to match), then for `quiet` s of silence"""
    t0 = time.time()
    nudged = False
    matched = None
    while True:
        with lock:
            new = bytes(buf[pos:])
        if until is not None:
            if re.search(until, new.decode('utf-8', 'replace'), re.I | re.S):
                matched = time.time()
                break
        elif new:
            break
        if done.is_set():
            return matched
        if time.time() - t0 > wait:
            if nudge and not nudged:
                nudged = True
                send(b'\n')
                t0 = time.time()
                continue
            break
        time.sleep(0.02)
    while not done.is_set():
        with lock:
            idle = time.time() - last_rx[0]
        if idle >= quiet:
            break
        time.sleep(0.02)
    return matched

marks = [0]
meta = {'turns': []}
wait_reply(0, float(spec.get('start_wait', 2)))
for st in spec.get('steps', []):
    if 'sh' in st:
        subprocess.run(st['sh'], shell=True)
        continue
    if 'sleep' in st:
        time.sleep(float(st['sleep']))
        continue
    if 'kill' in st:
        pid = hpid[0] or child_pid()
        if pid:
            try:
                os.kill(pid, getattr(signal, 'SIG' + st['kill']))
            except OSError:
                pass
        meta['killed'] = pid
        continue
    pos = size()
    marks.append(pos)
    if 'file' in st:
        st = dict(st); st['turn'] = open(st['file'], 'rb').read().decode('utf-8', 'surrogateescape')
    text = st['turn'] if 'turn' in st else st['raw']
    data = text.encode('utf-8', 'surrogateescape') if isinstance(text, str) else text
    if 'turn' in st:
        data = data.rstrip(b'\n') + b'\n\n'
    ts = time.time()
    ok = send(data)
    m = wait_reply(pos, float(st.get('wait', 2)), st.get('until'), nudge=('turn' in st))
    with lock:
        got = bytes(buf[pos:])
    meta['turns'].append({'sent': ts - t_start, 'answered_after': time.time() - ts,
                          'matched_after': (m - ts) if m else None,
                          'bytes': len(got), 'write_ok': ok})
try:
    p.stdin.close()
except OSError:
    pass
try:
    rc = p.wait(timeout=timeout + 5)
except subprocess.TimeoutExpired:
    p.kill(); rc = p.wait()
done.wait(5)
meta['rc'] = rc
meta['elapsed'] = time.time() - t_start
meta['peak_rss_kb'] = hwm[0]
with lock:
    data = bytes(buf)
marks.append(len(data))
for k in range(len(marks) - 1):
    with open(os.path.join(outdir, f'slice_{k}.txt'), 'wb') as f:
        f.write(data[marks[k]:marks[k + 1]])
with open(os.path.join(outdir, 'all.txt'), 'wb') as f:
    f.write(data)
with open(os.path.join(outdir, 'rc'), 'w') as f:
    f.write(str(rc))
with open(os.path.join(outdir, 'meta.json'), 'w') as f:
    json.dump(meta, f)
