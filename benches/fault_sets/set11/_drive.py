#!/usr/bin/env python3
"""Drive one piped headroom chat session, a turn at a time, and cut the output in slices.

usage: _drive.py HEADROOM OUTDIR SPEC_JSON
SPEC: {"args": [...], "env": {...}, "timeout": 30,
       "steps": [{"turn": "text", "wait": 2, "until": "regex"}, {"sh": "cmd"}, {"sleep": 1}, {"raw": "text"}]}
Slice 0 is what came before turn 1 was sent; slice K what came after turn K and before turn K+1
(the last slice also holds what came after stdin was closed). meta.json records times.
"""
import json, os, re, subprocess, sys, threading, time

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

th = threading.Thread(target=reader, daemon=True)
th.start()

def size():
    with lock:
        return len(buf)

def wait_reply(pos, wait, until=None, nudge=None):
    """wait up to `wait` s for output past pos (or for `until` to match), then for `quiet` s of silence"""
    t0 = time.time()
    nudged = False
    while True:
        if done.is_set():
            return
        with lock:
            new = bytes(buf[pos:])
        if until is not None:
            if re.search(until, new.decode('utf-8', 'replace'), re.I | re.S):
                break
        elif new:
            break
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

def send(b):
    try:
        p.stdin.write(b); p.stdin.flush()
        return True
    except (BrokenPipeError, OSError):
        return False

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
    wait_reply(pos, float(st.get('wait', 2)), st.get('until'), nudge=('turn' in st))
    with lock:
        got = bytes(buf[pos:])
    meta['turns'].append({'sent': ts - t_start, 'answered_after': time.time() - ts,
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
