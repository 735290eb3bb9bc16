#!/usr/bin/env python3
"""Score `headroom thermal` on the wide set of trainer logs
(tests/fixtures/logs/wide/truth.json, written by
tests/fixtures/logs/wide/generate_wide.py): for each (format, case) pair, is
the verdict right and the slowdown onset within 5 minutes of the truth?

    python3 benches/log_formats_score_wide.py [path/to/headroom]

Prints one line per miss and the score. Log files are relative to
tests/fixtures/logs/wide/, thermal CSVs relative to tests/fixtures/logs/ (the
wide set reuses the existing ones). The start time is given (--start) only
for logs that carry no absolute time, as an owner would type it. --log-tz
(the owner's local offset) is given for logs stamped in UTC, except the
container ones (truth field "container_utc": true): their stamps are naive
UTC with nothing in the log to say so, and they must line up on their own."""
import json, subprocess, sys
from datetime import datetime

LOGS = "tests/fixtures/logs"
WIDE = f"{LOGS}/wide"
BIN = sys.argv[1] if len(sys.argv) > 1 else "target/release/headroom"
truth = json.load(open(f"{WIDE}/truth.json"))
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

ok = 0
misses = []
for f in truth["files"]:
    args = [BIN, "thermal", f"{LOGS}/{f['thermal']}", "--train-log", f"{WIDE}/{f['file']}", "--json"]
    stamps = f.get("timestamps_in_log", "")
    if stamps.startswith("none"):
        args += ["--start", local(f["start_local"]).strftime("%Y-%m-%d %H:%M:%S")]
    if "UTC" in stamps and not f.get("container_utc"):
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
