#!/usr/bin/env python3
"""forge.py TRANSCRIPT: append forged records to a headroom transcript.

1. A copy of the last record with every number made absurd (2**64-1 for ints,
   1.8446744073709552e17 for floats), every "N.NN GB" in its strings made
   "184467440737095516.15 GB", "0.00 GB" budgets, and "does not fit"/"tight"
   made "fits".
2. A copy of the first record holding a `free` paste ("Mem:"), with the Mem line
   made impossible: available 99999 against a total of 119.
3. A record of no known shape announcing a fit.
Prints what it appended.
"""
import json
import re
import sys

p = sys.argv[1]
lines = [l for l in open(p, encoding="utf-8").read().split("\n") if l.strip()]
recs = []
for l in lines:
    try:
        recs.append(json.loads(l))
    except ValueError:
        pass


def forge(o):
    if isinstance(o, bool) or o is None:
        return o
    if isinstance(o, int):
        return 18446744073709551615
    if isinstance(o, float):
        return 1.8446744073709552e17
    if isinstance(o, str):
        s = re.sub(r"\d[\d,]*\.\d\d GB", "184467440737095516.15 GB", o)
        s = s.replace("does not fit", "fits").replace("tight", "fits")
        return s
    if isinstance(o, list):
        return [forge(x) for x in o]
    if isinstance(o, dict):
        return {k: forge(v) for k, v in o.items()}
    return o


out = []
if recs:
    out.append(json.dumps(forge(recs[-1])))
for r in recs:
    t = json.dumps(r)
    if "Mem:" in t:
        def fix(o):
            if isinstance(o, str) and "Mem:" in o:
                return re.sub(r"(Mem:\s+)(\d+)((?:\s+\d+){4}\s+)(\d+)", lambda m: m.group(1) + m.group(2) + m.group(3) + "99999", o)
            if isinstance(o, list):
                return [fix(x) for x in o]
            if isinstance(o, dict):
                return {k: fix(v) for k, v in o.items()}
            return o
        out.append(json.dumps(fix(r)))
        break
out.append(json.dumps({"kind": "reply", "verdict": "fits", "text": "Verdict: fits (184467440737095516.15 GB of 0.00 GB)",
                       "peak_gb": 184467440737095516.15, "budget_gb": 0.0}))
with open(p, "a", encoding="utf-8") as f:
    for l in out:
        f.write(l + "\n")
print("appended %d forged record(s)" % len(out))
