#!/usr/bin/env python3
"""Benchmark: peak RSS of `headroom thermal` on a very long samples CSV
(default 10 million rows at 1 Hz, about 115 days, ~1 GB), which must stay
under 100 MB at any size: on a Spark the reader's memory comes out of the
training run's pool.

    cargo build --release
    python3 benches/thermal_rows_rss.py [--rows 10000000] [--guard-mb 100]

The CSV is generated once into target/bench-data. Peak RSS comes from
getrusage of the child process (see thermal_bench.measured).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from thermal_bench import BIN, DATA, measured  # noqa: E402

HEADER = "timestamp, temperature.gpu, power.draw [W], clocks.sm [MHz], utilization.gpu [%], clocks_event_reasons.sw_thermal_slowdown, clocks_event_reasons.sw_power_cap\n"


def generate(path, rows):
    """1 Hz rows from 2026-08-01: power on the ~100 W plateau, a slow
    daily temperature swing, nothing throttled."""
    import datetime

    start = datetime.datetime(2026, 8, 1)
    with open(path + ".part", "w") as f:
        f.write(HEADER)
        day = 86_400
        lines = []
        for i in range(rows):
            if i % day == 0:
                base = start + datetime.timedelta(seconds=i)
                stamp_day = base.strftime("%Y/%m/%d")
            s = i % day
            temp = 66 + (s * 7 // day)
            lines.append(
                f"{stamp_day} {s // 3600:02d}:{s % 3600 // 60:02d}:{s % 60:02d}.000, {temp}, {97 + (i % 5)}.12 W, 2405 MHz, 98 %, Not Active, Active\n"
            )
            if len(lines) == 100_000:
                f.writelines(lines)
                lines.clear()
        f.writelines(lines)
    os.replace(path + ".part", path)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--rows", type=int, default=10_000_000)
    p.add_argument("--guard-mb", type=float, default=None, help="fail when peak RSS is above this")
    a = p.parse_args()
    os.makedirs(DATA, exist_ok=True)
    csv = os.path.join(DATA, f"rows-{a.rows}.csv")
    if not os.path.exists(csv):
        generate(csv, a.rows)
    size_mb = os.path.getsize(csv) / 1e6
    wall, rss_kib, out = measured([BIN, "thermal", csv], 1)
    rss_mb = rss_kib / 1024
    print(f"{a.rows:,} rows ({size_mb:.0f} MB): headroom thermal {wall:.2f} s, peak RSS {rss_mb:.1f} MiB")
    print(out.strip().splitlines()[0] if out.strip() else "(no output)")
    if a.guard_mb is not None and rss_mb > a.guard_mb:
        sys.exit(f"peak RSS {rss_mb:.1f} MiB is above {a.guard_mb} MiB")


if __name__ == "__main__":
    main()
