#!/usr/bin/env python3
"""Score `headroom thermal` on multi-hour logs of every trainer format: for
each (format, case) pair of a set's truth.json, is the verdict right and the
slowdown onset within 5 minutes of the truth?

    python3 benches/log_formats_score.py [path/to/headroom] [--set SET]

SET is one of
  generated  tests/fixtures/logs/truth.json (generate.py; the default)
  wide       tests/fixtures/logs/wide/truth.json (13 more formats)
  fresh      tests/fixtures/logs/fresh/truth.json (9 more, held out until
             after the wide set's fixes)
  held2      tests/fixtures/logs/held2/truth.json (26 more, written by a
             helper who read no reader code; run its generate.py first,
             the 52 MB of logs are not committed)
  held3      tests/fixtures/logs/held3/truth.json (24 more, by another
             helper who read no reader code; run its generate.py first)
  held4      tests/fixtures/logs/held4/truth.json (26 more, by a fourth
             helper who read no reader code; run its generate.py first)
  held5      tests/fixtures/logs/held5/truth.json (26 more, by a fifth
             helper who read no reader code; run its generate.py first)
  held6      tests/fixtures/logs/held6/truth.json (26 more, by a sixth
             helper who read no reader code; run its generate.py first)
  held7      tests/fixtures/logs/held7/truth.json (26 more, by a seventh
             helper who read no reader code; run its generate.py first)
  held8, held9  the same, by an eighth and a ninth helper
  held10     tests/fixtures/logs/held10/truth.json (26 more, by a tenth helper;
             run its generate.py first)
Log files are relative to the set's folder, thermal CSVs to
tests/fixtures/logs/. Only what an owner would type is passed: --start
(local) for logs that carry no absolute time; --log-tz for logs whose stamps
the owner knows to be UTC, never for "container_utc": true entries (their
naive stamps are the container's UTC clock, and headroom has to notice the
hour itself); --tokens-per-step for torchtune, which prints tokens/s only.
Prints one line per miss, a per-format tally and the score."""
import argparse, json, subprocess
from collections import defaultdict
from datetime import datetime

LOGS = "tests/fixtures/logs"
SETS = {"generated": LOGS, "wide": f"{LOGS}/wide", "fresh": f"{LOGS}/fresh", "held2": f"{LOGS}/held2", "held3": f"{LOGS}/held3", "held4": f"{LOGS}/held4", "held5": f"{LOGS}/held5", "held6": f"{LOGS}/held6", "held7": f"{LOGS}/held7", "held8": f"{LOGS}/held8", "held9": f"{LOGS}/held9", "held10": f"{LOGS}/held10"}
p = argparse.ArgumentParser()
p.add_argument("bin", nargs="?", default="target/release/headroom")
p.add_argument("--set", choices=SETS, default="generated")
a = p.parse_args()
FOLDER = SETS[a.set]
truth = json.load(open(f"{FOLDER}/truth.json"))
TOL = 300.0
EXPECT = {
    "throttle": ("thermal_throttling", True),
    "resumed_throttle": ("thermal_throttling", True),
    # Not thermal: either plain "no thermal event" or, when power sits at the
    # ~100 W platform cap the whole time, "power cap only, no thermal event".
    "slow_no_thermal": ("not_thermal", True),
    "plateau": ("power_cap_only", False),
    "none": (None, False),
}

def local(iso):
    return datetime.fromisoformat(iso).replace(tzinfo=None)

def args_for(f):
    args = [a.bin, "thermal", f"{LOGS}/{f['thermal']}", "--train-log", f"{FOLDER}/{f['file']}", "--json"]
    stamps = f.get("timestamps_in_log", "")
    start = ["--start", local(f["start_local"]).strftime("%Y-%m-%d %H:%M:%S")]
    if f["format"].startswith("torchtune"):
        # The owner gives the tokens per step (packed 8192) and the start
        # (torchtune's file name carries UTC).
        args += ["--tokens-per-step", "8192"] + start
    elif stamps.startswith("none"):
        args += start
    if "UTC" in stamps and not f.get("container_utc", False):
        args += ["--log-tz", f["local_utc_offset"]]
    return args

ok = 0
misses = []
tally = defaultdict(lambda: [0, 0])
for f in truth["files"]:
    tally[f["format"]][1] += 1
    r = subprocess.run(args_for(f), capture_output=True, text=True)
    if r.returncode != 0:
        misses.append(f"{f['file']}: exit {r.returncode}: {r.stderr.strip()[:160]}")
        continue
    try:
        j = json.loads(r.stdout)
    except json.JSONDecodeError:
        misses.append(f"{f['file']}: output is not JSON: {r.stdout.strip()[:160]}")
        continue
    verdict, slow = EXPECT[f["case"]]
    good = True
    why = []
    if verdict == "not_thermal":
        if j.get("verdict") not in ("no_thermal_event", "power_cap_only"):
            good = False; why.append(f"verdict {j.get('verdict')} (want not thermal)")
    elif verdict and j.get("verdict") != verdict:
        good = False; why.append(f"verdict {j.get('verdict')} (want {verdict})")
    if verdict is None and j.get("verdict") == "thermal_throttling":
        good = False; why.append("verdict thermal_throttling (want none)")
    onset = j.get("slowdown_onset")
    if slow:
        if not onset:
            good = False; why.append("no slowdown found")
        else:
            got = datetime.strptime(onset, "%Y-%m-%d %H:%M:%S")
            err = abs((got - local(f["onset_local"])).total_seconds())
            if err > TOL:
                good = False; why.append(f"onset {onset} off by {err:.0f} s")
    elif onset:
        good = False; why.append(f"a slowdown at {onset} where there is none")
    if good:
        ok += 1
        tally[f["format"]][0] += 1
    else:
        misses.append(f"{f['file']}: " + "; ".join(why))
for m in misses:
    print("miss:", m)
for fmt, (g, n) in sorted(tally.items()):
    print(f"  {fmt:28s} {g} of {n}")
print(f"{ok} of {len(truth['files'])} (format, case) pairs right")
