#!/usr/bin/env python3
"""Generate the thermal and training-log fixtures under tests/fixtures/thermal.

Made-up data in the formats of the real captures (shared/fixtures): the
thermal CSV as assets/thermal-sample.sh writes it, training logs as Hugging
Face Trainer prints them (tqdm updates separated by carriage returns, INFO
lines with timestamps). Deterministic: a fixed seed, fixed start times.

    python3 scripts/gen_thermal_fixtures.py            # writes the fixtures
    python3 scripts/gen_thermal_fixtures.py --big DIR  # 24 h at 1 Hz + ~1 GB log (benchmark)
"""
import argparse
import datetime as dt
import os
import random

HEADER = ("timestamp,temperature.gpu,power.draw,clocks.sm,utilization.gpu,"
          "clocks_event_reasons.active,clocks_event_reasons.sw_thermal_slowdown,"
          "clocks_event_reasons.hw_thermal_slowdown,clocks_event_reasons.sw_power_cap")
SEED_HEADER = "timestamp,temperature.gpu,power.draw"
START = dt.datetime(2026, 11, 29, 9, 0, 0)


def stamp(t):
    return t.strftime("%Y/%m/%d %H:%M:%S.") + f"{t.microsecond // 1000:03d}"


def thermal(path, minutes, interval_s, temp_at, power_at, clock_at, flag_at=None, seed_format=False, rng=None):
    rng = rng or random.Random(7)
    with open(path, "w", newline="") as f:
        f.write((SEED_HEADER if seed_format else HEADER) + "\n")
        steps = int(minutes * 60 / interval_s)
        for i in range(steps + 1):
            s = i * interval_s
            t = START + dt.timedelta(seconds=s)
            temp = temp_at(s) + rng.uniform(-0.3, 0.3)
            power = power_at(s) + rng.uniform(-1.5, 1.5)
            if seed_format:
                f.write(f"{stamp(t)}, {temp:.0f}, {power:.2f} W\n")
                continue
            clock = clock_at(s)
            thermal_on = flag_at(s) if flag_at else False
            mask = "0x0000000000000020" if thermal_on else "0x0000000000000000"
            flag = "Active" if thermal_on else "Not Active"
            f.write(f"{stamp(t)}, {temp:.0f}, {power:.2f} W, {clock:.0f} MHz, 99 %, {mask}, {flag}, Not Active, Not Active\n")


def train_log(path, minutes, sec_per_step_at, total_steps=None, markers=(), rng=None):
    """A Trainer console log: tqdm updates joined by \\r, a timestamped INFO
    line at the start so the log is anchored."""
    rng = rng or random.Random(11)
    with open(path, "w", newline="") as f:
        ts = START.strftime("%Y-%m-%d %H:%M:%S") + ",101"
        f.write(f"[INFO|trainer.py:2128] {ts} >> ***** Running training *****\n")
        elapsed, step = 0.0, 0
        end = minutes * 60
        steps = total_steps or 10_000
        while elapsed < end:
            sps = sec_per_step_at(elapsed) * rng.uniform(0.97, 1.03)
            elapsed += sps
            step += 1
            e = int(elapsed)
            remaining = int((steps - step) * sps)
            pct = int(100 * step / steps)
            f.write(f"\r {pct:2d}%|#         | {step}/{steps} [{e // 3600}:{e % 3600 // 60:02d}:{e % 60:02d}<"
                    f"{remaining // 3600}:{remaining % 3600 // 60:02d}:{remaining % 60:02d}, {sps:.2f}s/it]")
            for at, text in markers:
                if elapsed - sps < at <= elapsed:
                    when = (START + dt.timedelta(seconds=at)).strftime("%Y-%m-%d %H:%M:%S") + ",500"
                    f.write(f"\n[INFO|trainer.py:3158] {when} >> {text}\n")
        f.write("\n")


def fixtures(out):
    os.makedirs(out, exist_ok=True)
    two_h = 120 * 60
    # 1. Throttling two hours in: temperature climbs at flat ~100 W, the clock
    # drops and the thermal-slowdown reason turns on; step time rises with it.
    climb = lambda s: 72 if s < two_h else min(72 + (s - two_h) / 60 * 0.8, 91)
    thermal(f"{out}/throttle-2h.csv", 240, 30, climb, lambda s: 100.0,
            lambda s: 2450 if s < two_h + 600 else 1500, flag_at=lambda s: s >= two_h + 600)
    train_log(f"{out}/throttle-2h.log", 240,
              lambda s: 2.5 if s < two_h + 600 else 3.6)
    # 2. A ~100 W plateau, steady temperature, steady steps: the cap only.
    thermal(f"{out}/cap-plateau.csv", 180, 30, lambda s: 69.0, lambda s: 99.0, lambda s: 2450)
    train_log(f"{out}/cap-plateau.log", 180, lambda s: 2.5)
    # 3. A slowdown with flat temperature (a checkpoint save, then a slow
    # data loader): not thermal.
    thermal(f"{out}/flat-temp.csv", 180, 30, lambda s: 70.0, lambda s: 98.0, lambda s: 2450)
    train_log(f"{out}/flat-temp.log", 180, lambda s: 2.5 if s < 90 * 60 else 3.4,
              markers=[(89 * 60, "Saving model checkpoint to out/checkpoint-2000")])
    # 4. The seed sampler's three columns, climbing at flat power (no flags).
    thermal(f"{out}/seed-format-climb.csv", 180, 60, lambda s: 70 if s < 60 * 60 else min(70 + (s - 3600) / 60 * 0.7, 90),
            lambda s: 101.0, lambda s: 0, seed_format=True)
    # 5. Too little: three samples.
    thermal(f"{out}/too-little.csv", 1, 30, lambda s: 60.0, lambda s: 95.0, lambda s: 2450)
    # 6. Messy: CRLF, a restart with a second header, [N/A], a gap, a
    # failed query row, the command line at the top.
    with open(f"{out}/messy.csv", "w", newline="") as f:
        f.write("$ bash assets/thermal-sample.sh 30 thermal.log\r\n")
        f.write(HEADER + "\r\n")
        for i in range(40):
            t = START + dt.timedelta(seconds=30 * i)
            temp = "[N/A]" if i % 9 == 4 else f"{70 + (i % 3)}"
            f.write(f"{stamp(t)}, {temp}, {98 + i % 4}.10 W, 2450 MHz, 99 %, 0x0000000000000000, Not Active, Not Active, Not Active\r\n")
        f.write("\r\n" + HEADER + "\r\n")  # the sampler restarted
        for i in range(60, 100):  # after a 10-minute gap
            t = START + dt.timedelta(seconds=30 * i)
            f.write(f"{stamp(t)}, {71}, [Not Supported], 2440 MHz, 98 %, 0x0000000000000000, Not Active, Not Active, Not Active\r\n")
        f.write(f"{stamp(START + dt.timedelta(seconds=3030))}, [N/A], [N/A], [N/A], [N/A], [N/A], [N/A], [N/A], [N/A]\r\n")


def big(out, target_bytes=1_000_000_000):
    """A day at 1 Hz plus a ~1 GB console log, for benches/thermal_bench.py.

    tqdm redraws its bar many times a second; the log here holds a redraw
    every 12.5 ms of run time with a full-width bar, which is what makes real
    console logs of long runs reach gigabytes."""
    os.makedirs(out, exist_ok=True)
    day = 24 * 3600
    onset = 14 * 3600 + 900
    climb = lambda s: 72 if s < 14 * 3600 else min(72 + (s - 14 * 3600) / 60 * 0.5, 90)
    thermal(f"{out}/day.csv", day / 60, 1, climb, lambda s: 100.0, lambda s: 2450 if s < onset else 1500,
            flag_at=lambda s: s >= onset)
    rng = random.Random(3)
    total = 90_000
    bar = "\u2588" * 30 + " " * 10
    written = 0
    with open(f"{out}/day.log", "w", newline="") as f:
        f.write("[INFO|trainer.py:2128] " + START.strftime("%Y-%m-%d %H:%M:%S") + ",101 >> ***** Running training *****\n")
        step, elapsed, next_step_at = 0, 0.0, 0.0
        tick = 0.0125
        chunk = []
        while elapsed < day:
            sps = 0.9 if elapsed < onset else 1.25
            if elapsed >= next_step_at:
                step += 1
                next_step_at += sps * rng.uniform(0.97, 1.03)
            e = int(elapsed)
            r = int((total - step) * sps) if step < total else 0
            chunk.append(f"\r {min(99, step * 100 // total):2d}%|{bar}| {step}/{total} [{e // 3600}:{e % 3600 // 60:02d}:{e % 60:02d}<{r // 3600}:{r % 3600 // 60:02d}:{r % 60:02d}, {sps:.2f}s/it]")
            elapsed += tick
            if len(chunk) >= 10000:
                text = "".join(chunk)
                f.write(text)
                written += len(text.encode())
                chunk = []
                if written >= target_bytes:
                    break
        f.write("".join(chunk) + "\n")


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--big", metavar="DIR")
    a = p.parse_args()
    if a.big:
        big(a.big)
    else:
        fixtures(os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "thermal"))
