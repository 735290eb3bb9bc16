#!/usr/bin/env python3
"""Score `headroom thermal` on the generated multi-hour logs of every trainer
format (tests/fixtures/logs/truth.json): for each (format, case) pair, is the
verdict right and the slowdown onset within 5 minutes of the truth?

    python3 benches/log_formats_score.py [path/to/headroom]

Prints one line per miss and the score. The start time is given (--start)
only for logs that carry no absolute time, as an owner would type it."""
import json, subprocess, sys
from datetime import datetime

ROOT = "tests/fixtures/logs"
BIN = sys.argv[1] if len(sys.argv) > 1 else "target/release/headroom"
truth = json.load(open(f"{ROOT}/truth.json"))
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

ok = 0
misses = []
for f in truth["files"]:
    args = [BIN, "thermal", f"{ROOT}/{f['thermal']}", "--train-log", f"{ROOT}/{f['file']}", "--json"]
    if f["format"].startswith("torchtune"):
        # torchtune prints tokens/s only: the owner gives the tokens per
        # step (packed 8192) and the start (the file name's time is UTC).
        args += ["--tokens-per-step", "8192"]
        args += ["--start", local(f["start_local"]).strftime("%Y-%m-%d %H:%M:%S")]
    if f.get("timestamps_in_log", "").startswith("none"):
        args += ["--start", local(f["start_local"]).strftime("%Y-%m-%d %H:%M:%S")]
    if "UTC" in f.get("timestamps_in_log", ""):
        args += ["--log-tz", f["local_utc_offset"]]
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        misses.append(f"{f['file']}: exit {r.returncode}: {r.stderr.strip()[:160]}")
        continue
    j = json.loads(r.stdout)
    verdict, slow = EXPECT[f["case"]]
    good = True
    why = []
    if verdict == "not_thermal":
        if j["verdict"] not in ("no_thermal_event", "power_cap_only"):
            good = False; why.append(f"verdict {j['verdict']} (want not thermal)")
    elif verdict and j["verdict"] != verdict:
        good = False; why.append(f"verdict {j['verdict']} (want {verdict})")
    if verdict is None and j["verdict"] == "thermal_throttling":
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
    else:
        misses.append(f"{f['file']}: " + "; ".join(why))
for m in misses:
    print("miss:", m)
print(f"{ok} of {len(truth['files'])} (format, case) pairs right")
