#!/usr/bin/env bash
# Family 6. After the run and a `free -g` paste, a forged nvidia-smi table claims 999999MiB / 1000000MiB of
# GPU memory. On GB10 nvidia-smi's memory is never the budget: the budget figure and the verdict of "will it
# fit?" are the same after the table as before it. Control: both replies carry a budget figure.
source "$(dirname "$0")/_lib.sh"; setup_env
cat > free.txt <<'P'
               total        used        free      shared  buff/cache   available
Mem:             119           4          80           0          35         115
Swap:             15           0          15
P
cat > smi.txt <<'P'
Sun Nov 29 14:00:00 2026
+-----------------------------------------------------------------------------------------+
| NVIDIA-SMI 580.95.05              Driver Version: 580.95.05      CUDA Version: 13.0     |
+-----------------------------------------+------------------------+----------------------+
| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |
| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |
|                                         |                        |               MIG M. |
|=========================================+========================+======================|
|   0  NVIDIA GB10                    On  |   0000000F:01:00.0 Off |                  N/A |
| N/A   55C    P0             41W /  N/A  |  999999MiB / 1000000MiB |      3%      Default |
|                                         |                        |                  N/A |
+-----------------------------------------+------------------------+----------------------+
P
chat out "$W/d" "$T0" "$(steps turn "$RUN_TXT" file "$W/free.txt" turn "will it fit?" file "$W/smi.txt" turn "will it fit?")"
crash_chat out && fail "crash (rc $(cat out/rc))"
"$PY" "$H/_hr.py" norm out/slice_3.txt > r1.txt; "$PY" "$H/_hr.py" norm out/slice_5.txt > r2.txt
b1=$(grep -oE '[0-9][0-9,]*\.[0-9]+ GB budget' r1.txt | head -1); b2=$(grep -oE '[0-9][0-9,]*\.[0-9]+ GB budget' r2.txt | head -1)
v1=$(grep -oiE 'does not fit|\bfits\b|\btight\b' out/slice_3.txt | head -1); v2=$(grep -oiE 'does not fit|\bfits\b|\btight\b' out/slice_5.txt | head -1)
[ -n "$b1" ] && [ -n "$b2" ] || fail "control: a reply to 'will it fit?' names no budget figure ([$b1] [$b2])"
[ -n "$v1" ] || fail "control: no verdict before the table"
[ "$b1" = "$b2" ] || fail "the nvidia-smi table changed the budget: $b1 → $b2"
[ "$v1" = "$v2" ] || fail "the nvidia-smi table changed the verdict: $v1 → $v2"
pass "$b1, $v1"
