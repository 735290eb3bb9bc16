#!/usr/bin/env python3
"""Input generators for set14 (stdlib only)."""
import datetime as dt, json, sys

T0 = dt.datetime(2026, 11, 29, 14, 0, 0)

def smi_stamp(t):
    return t.strftime('%Y/%m/%d %H:%M:%S.') + '%03d' % (t.microsecond // 1000)

def thermal(out, minutes=120, every=30, t_start=62.0, t_end=84.0, power='98.5', clock_start=2400,
            clock_end=2400, kelvin=False, mw=False, start=T0, power_raw='', no_power=False,
            same_ts=False, reverse=False):
    """nvidia-smi --query-gpu=timestamp,temperature.gpu,power.draw,clocks.sm,utilization.gpu --format=csv
    power_raw: this exact text in every power cell ("[Not Supported]"); no_power: no power column at all;
    same_ts: every row has the first row's stamp; reverse: rows newest first."""
    n = minutes * 60 // every + 1
    rows = []
    for i in range(n):
        t = start + dt.timedelta(seconds=0 if same_ts else i * every)
        frac = i / max(1, n - 1)
        temp = t_start + (t_end - t_start) * frac
        if kelvin:
            temp += 273.15
        clock = int(clock_start + (clock_end - clock_start) * frac)
        if power_raw:
            pw = power_raw
        elif power == 'NA':
            pw = '[N/A]'
        else:
            p = float(power) + (0.4 if i % 2 else -0.4)
            pw = '%.2f W' % (p * 1000 if mw else p)
        if no_power:
            rows.append('%s, %d, %d MHz, 97 %%\n' % (smi_stamp(t), round(temp), clock))
        else:
            rows.append('%s, %d, %s, %d MHz, 97 %%\n' % (smi_stamp(t), round(temp), pw, clock))
    if reverse:
        rows.reverse()
    with open(out, 'w') as f:
        if no_power:
            f.write('timestamp, temperature.gpu, clocks.sm [MHz], utilization.gpu [%]\n')
        else:
            f.write('timestamp, temperature.gpu, power.draw [W], clocks.sm [MHz], utilization.gpu [%]\n')
        f.writelines(rows)

def noisy(out, rows=10_000_000, start=T0):
    """rows of 1 Hz nvidia-smi samples whose values change every row (no equal neighbours to merge)"""
    V = 37
    variants = []
    for v in range(V):
        sufs = []
        for s in range(60):
            k = v * 60 + s
            sufs.append('%02d.000, %d, %.2f W, %d MHz, %d %%\n' % (
                s, 55 + (k * 7919) % 31, 90.0 + (k * 104729) % 1500 / 100.0, 1800 + (k * 31) % 700, 60 + k % 40))
        variants.append(sufs)
    with open(out, 'w', buffering=1 << 22) as f:
        f.write('timestamp, temperature.gpu, power.draw [W], clocks.sm [MHz], utilization.gpu [%]\n')
        t = start
        one = dt.timedelta(minutes=1)
        for minute in range((rows + 59) // 60):
            pre = t.strftime('%Y/%m/%d %H:%M:')
            f.write(''.join([pre + x for x in variants[minute % V]]))
            t += one

def trainlog(out, minutes=120, every_s=30, slow_after_min=60, base=1.50, slow=1.95, start=T0):
    """JSON lines with ts / step / step_time"""
    with open(out, 'w') as f:
        t = start + dt.timedelta(seconds=20)
        step = 0
        end = start + dt.timedelta(minutes=minutes)
        while t < end:
            step += 20
            st = base if (t - start).total_seconds() < slow_after_min * 60 else slow
            t += dt.timedelta(seconds=st * 20)
            f.write(json.dumps({'ts': t.strftime('%Y-%m-%dT%H:%M:%SZ'), 'step': step,
                                'loss': round(2.0 - step / 20000, 4), 'step_time': st}) + '\n')

def bigps(out, rows=1500, vllm_pid=41500):
    with open(out, 'w') as f:
        f.write('USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND\n')
        f.write('owner      %d  2.1 38.0 132144400 47185920 ?    Sl   13:02   4:11 /usr/bin/python3 -m '
                'vllm.entrypoints.openai.api_server --model meta-llama/Llama-3.1-8B-Instruct --port 8000\n' % vllm_pid)
        for i in range(rows):
            f.write('owner     %d  0.0  0.0  12000  3400 ?        S    13:%02d   0:00 /usr/bin/python3 '
                    '/srv/jobs/etl_worker.py --shard %d --queue ingest-%04d\n' % (60000 + i, i % 60, i, i))

def hflog(out, kib=30):
    with open(out, 'w') as f:
        i = 0
        while f.tell() < kib * 1024:
            i += 1
            f.write("{'loss': %.4f, 'grad_norm': 0.41, 'learning_rate': 1.9e-04, 'epoch': %.2f}\n"
                    % (2.1 - i * 0.0007, i * 0.001))

def gapped(out):
    """the standard 2 h of samples, plus one row in 1970 before them and one in 9999 after them"""
    thermal(out)
    with open(out) as f:
        lines = f.readlines()
    first = '1970/01/01 00:00:01.000, 61, 98.10 W, 2400 MHz, 97 %\n'
    last = '9999/12/31 23:59:59.000, 84, 98.90 W, 2400 MHz, 97 %\n'
    with open(out, 'w') as f:
        f.write(lines[0]); f.write(first); f.writelines(lines[1:]); f.write(last)

def junk(out):
    """the standard 2 h of samples with junk between rows: a 70 KiB line, raw binary bytes, HTML, 5000 commas"""
    thermal(out)
    with open(out) as f:
        lines = f.readlines()
    junks = [b'X' * (70 * 1024) + b'\n', bytes(range(128, 256)) + b'\x00\x01\x02\n',
             b'<html><body><h1>502 Bad Gateway</h1></body></html>\n', b',' * 5000 + b'\n']
    with open(out, 'wb') as f:
        f.write(lines[0].encode())
        for i, l in enumerate(lines[1:]):
            f.write(l.encode())
            if i % 10 == 5:
                f.write(junks[(i // 10) % len(junks)])

if __name__ == '__main__':
    kind, out = sys.argv[1], sys.argv[2]
    kw = {}
    for a in sys.argv[3:]:
        k, v = a.split('=', 1)
        try:
            v = int(v)
        except ValueError:
            try:
                v = float(v)
            except ValueError:
                if v in ('True', 'False'):
                    v = (v == 'True')
        kw[k] = v
    if kind == 'thermal':
        if 'power' in kw:
            kw['power'] = str(kw['power'])
        if 'power_raw' in kw:
            kw['power_raw'] = str(kw['power_raw'])
        if 'start_min' in kw:
            kw['start'] = T0 + dt.timedelta(minutes=kw.pop('start_min'))
        thermal(out, **kw)
    else:
        globals()[kind](out, **kw)
