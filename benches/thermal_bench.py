#!/usr/bin/env python3
"""Benchmark: `headroom thermal` on a day of 1 Hz samples plus a ~1 GB
training log, beside the same join in Python with pandas (merge_asof), in
one run.

    cargo build --release
    pip install pandas            # only for the baseline
    python3 benches/thermal_bench.py [--runs 3]

Data is generated once into target/bench-data by
scripts/gen_thermal_fixtures.py --big. Prints wall time and peak RSS of each
(peak RSS from getrusage of the child process, so each runs in its own).
"""
import argparse
import os
import resource
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "target", "bench-data")
BIN = os.path.join(ROOT, "target", "release", "headroom")

BASELINE = r'''
import re, sys
import pandas as pd
csv, log = sys.argv[1], sys.argv[2]
th = pd.read_csv(csv, skipinitialspace=True)
th = th[th["timestamp"] != "timestamp"]
th["t"] = pd.to_datetime(th["timestamp"], format="%Y/%m/%d %H:%M:%S.%f")
th["temp"] = pd.to_numeric(th["temperature.gpu"], errors="coerce")
th["power"] = pd.to_numeric(th["power.draw"].astype(str).str.split().str[0], errors="coerce")
bar = re.compile(rb"(\d+)/(\d+) \[([\d:]+)<[^,]*, ([\d.]+)(s/it|it/s)\]")
start = None
rows = []
last = -1
with open(log, "rb") as f:
    for raw in f:
        for line in raw.split(b"\r"):
            if start is None:
                m = re.search(rb"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)", line)
                if m:
                    start = pd.Timestamp(m.group(1).decode())
            m = bar.search(line)
            if not m:
                continue
            parts = [int(p) for p in m.group(3).split(b":")]
            e = 0
            for p in parts:
                e = e * 60 + p
            if e == last:
                continue
            last = e
            rate = float(m.group(4))
            rows.append((e, int(m.group(1)), rate if m.group(5) == b"s/it" else 1 / rate))
tr = pd.DataFrame(rows, columns=["elapsed", "step", "sec_per_step"])
tr["t"] = start + pd.to_timedelta(tr["elapsed"], unit="s")
joined = pd.merge_asof(tr.sort_values("t"), th[["t", "temp", "power"]].sort_values("t"), on="t", direction="nearest")
base = joined["sec_per_step"].iloc[: len(joined) // 5].median()
slow = joined["sec_per_step"].rolling(9, center=True, min_periods=1).median() >= base * 1.15
onset = joined.loc[slow.idxmax(), "t"] if slow.any() else None
print(len(th), len(tr), onset)
'''


def run(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t0 = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True)
    took = time.perf_counter() - t0
    if out.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{out.stderr}")
    # ru_maxrss of children is the max over all children so far (KiB on
    # Linux); run each tool in its own fresh interpreter via -c below.
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return took, max(peak, before), out.stdout


def measured(cmd, runs):
    """Each run in a separate Python process, so peak RSS is that run's."""
    median, _, peak, last = measured_best(cmd, runs)
    return median, peak, last


def measured_best(cmd, runs):
    """`measured`, with the fastest run too: on a shared machine the fastest
    is the program's own cost, the median mixes in the neighbours'."""
    code = (
        "import resource,subprocess,sys,time,json;t=time.perf_counter();"
        "o=subprocess.run(sys.argv[1:],capture_output=True,text=True);"
        "d=time.perf_counter()-t;"
        "print(json.dumps([d,resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,o.returncode,o.stdout[-300:],o.stderr[-300:]]))"
    )
    import json
    times, peaks, last = [], [], ""
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", code, *cmd], capture_output=True, text=True, check=True)
        d, rss, rc, stdout, stderr = json.loads(out.stdout)
        if rc != 0:
            sys.exit(f"failed: {' '.join(cmd)}\n{stderr}")
        times.append(d)
        peaks.append(rss)
        last = stdout
    return statistics.median(times), min(times), max(peaks), last


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--runs", type=int, default=3)
    a = p.parse_args()
    if not os.path.exists(os.path.join(DATA, "day.log")):
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "gen_thermal_fixtures.py"), "--big", DATA], check=True)
    if not os.path.exists(BIN):
        sys.exit("build first: cargo build --release")
    csv, log = os.path.join(DATA, "day.csv"), os.path.join(DATA, "day.log")
    size = os.path.getsize(log) / 1e9
    rows = sum(1 for _ in open(csv)) - 1
    print(f"data: {rows} thermal rows, training log {size:.2f} GB ({os.cpu_count()} cores)")
    t, rss, out = measured([BIN, "thermal", csv, "--train-log", log, "--json"], a.runs)
    print(f"headroom thermal        median {t:6.2f} s   peak RSS {rss / 1024:7.1f} MiB")
    try:
        import pandas  # noqa: F401
    except ImportError:
        print("pandas baseline skipped: pip install pandas")
        return
    tb, rssb, outb = measured([sys.executable, "-c", BASELINE, csv, log], a.runs)
    print(f"pandas merge_asof       median {tb:6.2f} s   peak RSS {rssb / 1024:7.1f} MiB")
    print(f"ratio (pandas / headroom): time {tb / t:.1f}x, memory {rssb / max(rss, 1):.1f}x")


if __name__ == "__main__":
    main()
