#!/usr/bin/env python3
"""Score `headroom thermal` on the held-out training logs of
tests/fixtures/logs/fresh/ (fresh/truth.json), the same way
benches/log_formats_score.py scores tests/fixtures/logs/truth.json: for each
(format, case) pair, is the verdict right and the slowdown onset within
5 minutes of the truth?

    python3 benches/log_formats_score_fresh.py [path/to/headroom]

Log files are relative to tests/fixtures/logs/fresh/, thermal CSVs to
tests/fixtures/logs/. What the owner would type is passed and nothing more:
  * --start (local) only for logs that carry no absolute time
    (timestamps_in_log starts with "none");
  * --log-tz only for a log whose stamps the owner knows to be UTC
    ("UTC" in timestamps_in_log) and that did not run in a container;
  * never --log-tz for "container_utc": true entries: the log's naive stamps
    are the container's UTC clock against a local-time CSV, and the tool has
    to notice the hour itself.
Prints one line per miss, a per-format tally and the score."""
import json, subprocess, sys
from collections import defaultdict
from datetime import datetime

ROOT = "tests/fixtures/logs"
FRESH = f"{ROOT}/fresh"
BIN = sys.argv[1] if len(sys.argv) > 1 else "target/release/headroom"
truth = json.load(open(f"{FRESH}/truth.json"))
TOL = 300.0
EXPECT = {
    "throttle": ("thermal_throttling", True),
    # Not thermal: either plain "no thermal event" or, when power sits at the
    # ~100 W platform cap the whole time, "power cap only, no thermal event".
    "slow_no_thermal": ("not_thermal", True),
    "plateau": ("power_cap_only", False),
    "none": (None, False),
}


def local(iso):
    return datetime.fromisoformat(iso).replace(tzinfo=None)


def args_for(f):
    args = [BIN, "thermal", f"{ROOT}/{f['thermal']}", "--train-log", f"{FRESH}/{f['file']}", "--json"]
    ts = f.get("timestamps_in_log", "")
    if ts.startswith("none"):
        args += ["--start", local(f["start_local"]).strftime("%Y-%m-%d %H:%M:%S")]
    if "UTC" in ts and not f.get("container_utc", False):
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
