#!/usr/bin/env python3
"""Input generators for set 10.

  smi OUT ROWS START STEP_S TEMP POWER CLOCK [UTIL] [--kelvin] [--mw] [--nan-every N]
      an `nvidia-smi --query-gpu=timestamp,temperature.gpu,power.draw,clocks.sm,
      utilization.gpu --format=csv` capture.  TEMP is "70" or a ramp "60..96";
      POWER is watts ("95.2"), "[N/A]" or "[Not Supported]"; CLOCK MHz or "[N/A]".
      OUT "-" writes stdout.
  trainlog OUT START STEPS DT_S
      structured JSON lines: {"ts": ..., "step": n, "step_time": dt, "loss": ...}
  big OUT ROWS
      ROWS rows at 1 Hz from 2026-11-29 14:00:00, 62 C, 58 W, 2405 MHz, 99 %
      (a busy GPU, cool, far under the power cap), written fast; OUT "-" is stdout
"""
import datetime as dt
import json
import sys

HEAD = "timestamp, temperature.gpu, power.draw [W], clocks.sm [MHz], utilization.gpu [%]\n"


def parse_time(s):
    return dt.datetime.strptime(s.replace("Z", ""), "%Y-%m-%dT%H:%M:%S")


def smi(a):
    out, rows, start, step, temp, power, clock = a[:7]
    util = a[7] if len(a) > 7 and not a[7].startswith("--") else "99"
    kelvin = "--kelvin" in a
    mw = "--mw" in a
    nan_every = 0
    if "--nan-every" in a:
        nan_every = int(a[a.index("--nan-every") + 1])
    rows = int(rows)
    step = float(step)
    t = parse_time(start)
    if ".." in temp:
        lo, hi = (float(x) for x in temp.split(".."))
    else:
        lo = hi = float(temp)
    f = sys.stdout if out == "-" else open(out, "w")
    f.write(HEAD)
    for i in range(rows):
        ts = (t + dt.timedelta(seconds=i * step)).strftime("%Y/%m/%d %H:%M:%S.000")
        tv = lo + (hi - lo) * (i / max(1, rows - 1))
        if kelvin:
            tv += 273.15
        tcol = "%d" % round(tv)
        if power.startswith("["):
            pcol = power
        else:
            pv = float(power) * (1000 if mw else 1)
            pcol = "%.2f W" % pv
        ccol = clock if clock.startswith("[") else "%s MHz" % clock
        if nan_every and i % nan_every == 3:
            tcol, pcol = "nan", "inf W"
        f.write("%s, %s, %s, %s, %s %%\n" % (ts, tcol, pcol, ccol, util))
    if f is not sys.stdout:
        f.close()


def trainlog(a):
    out, start, steps, dts = a[0], a[1], int(a[2]), float(a[3])
    t = parse_time(start)
    with open(out, "w") as f:
        for i in range(1, steps + 1):
            ts = (t + dt.timedelta(seconds=i * dts)).strftime("%Y-%m-%dT%H:%M:%SZ")
            f.write(json.dumps({"ts": ts, "step": i, "step_time": dts, "loss": round(2.5 - i * 1e-4, 4)}) + "\n")


def big(a, f=None):
    out, rows = a[0], int(a[1])
    if f is None:
        f = sys.stdout.buffer if out == "-" else open(out, "wb")
    f.write(HEAD.encode())
    t = dt.datetime(2026, 11, 29, 14, 0, 0)
    n = 0
    minute = 0
    tail = ", 62, 58.00 W, 2405 MHz, 99 %\n"
    secs = ["%02d.000" % s for s in range(60)]
    try:
        while n < rows:
            m = t + dt.timedelta(minutes=minute)
            pre = m.strftime("%Y/%m/%d %H:%M:")
            k = min(60, rows - n)
            f.write("".join(pre + secs[s] + tail for s in range(k)).encode())
            n += k
            minute += 1
    except (BrokenPipeError, OSError):
        pass
    try:
        f.flush()
    except (BrokenPipeError, OSError):
        pass


if __name__ == "__main__":
    cmd = sys.argv[1]
    {"smi": smi, "trainlog": trainlog, "big": big}[cmd](sys.argv[2:])
