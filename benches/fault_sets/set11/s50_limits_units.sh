#!/usr/bin/env bash
# Family: absurd data. (a) In the chat, "actually batch 65537" is over the 1…65,536 bound: the value and
# the limit are named and the chat keeps the old value (the next plan's peak is unchanged). (b) One-shot
# bad values exit 2: packing 4,194,305, LoRA rank 65,537, --need 1e999 / nan / -0.5. (c) `--free` with available above
# total, or a negative figure, exits 2 (control: a sane `free -g` does not); in the chat a /proc/meminfo with
# MemAvailable above MemTotal names the figure and asks for `free -g`. (d) Samples in Kelvin and in milliwatts: the unit problem is named ("Kelvin?" / "milliwatts?").
source "$(dirname "$0")/_lib.sh"; setup_env
newdir "$W/oneshot"
chat out "$W/d" "$T0" "$(steps turn "$RUN_TXT" turn "actually batch 65537" turn "will it fit?")"
crash_chat out && fail "(a) crash (rc $(cat out/rc))"
p1="$(grep -oE 'peak [0-9]+\.[0-9]{2} GB' out/slice_1.txt | head -1)"
[ -n "$p1" ] || fail "control (a): no 'peak N.NN GB' for the run"
grep -q '65537' out/slice_2.txt || fail "(a) the refused value 65537 is not named"
grep -qE '65,?536' out/slice_2.txt || fail "(a) the limit 65,536 is not named"
p3="$(grep -oE 'peak [0-9]+\.[0-9]{2} GB' out/slice_3.txt | head -1)"
[ "$p3" = "$p1" ] || fail "(a) the plan after the refused batch changed: '$p1' -> '$p3'"
P=(plan --params 70B --method qlora --batch 1)
tcall b1 20 "${P[@]}" --pack 4194305; [ "$TC_RC" = 2 ] || fail "(b) --pack 4194305 exits $TC_RC"
tcall b2 20 plan --params 8B --method lora --batch 1 --pack 2048 --lora-rank 65537; [ "$TC_RC" = 2 ] || fail "(b) --lora-rank 65537 exits $TC_RC"
listing 41500 > ps.txt
for need in 1e999 nan -0.5; do
  HEADROOM_DATA_DIR="$W/oneshot" HEADROOM_NOW=$T0 timeout 20 "$HR" procs - --need "$need" < ps.txt > n.out 2>&1; rc=$?
  [ "$rc" = 2 ] || fail "(b) procs --need $need exits $rc"
done
cat > mi_bad.txt <<'P'
MemTotal:       124928000 kB
MemFree:         20000000 kB
MemAvailable:   250000000 kB
Buffers:           100000 kB
Cached:          10000000 kB
SwapTotal:       16000000 kB
SwapFree:        16000000 kB
P
cat > free_ok.txt <<'P'
               total        used        free      shared  buff/cache   available
Mem:             119          30          60           0          29          88
Swap:             15           0          15
P
cat > free_big.txt <<'P'
               total        used        free      shared  buff/cache   available
Mem:             119          30          60           0          29         150
Swap:             15           0          15
P
cat > free_neg.txt <<'P'
               total        used        free      shared  buff/cache   available
Mem:             119         -12          20           0          11          60
Swap:             15           0          15
P
tcall c0 20 "${P[@]}" --pack 2048 --free "$W/free_ok.txt"
[ "$TC_RC" = 0 ] || [ "$TC_RC" = 1 ] || fail "control (c): a sane free -g exits $TC_RC"
tcall c1 20 "${P[@]}" --pack 2048 --free "$W/free_big.txt"; [ "$TC_RC" = 2 ] || fail "(c) available > total exits $TC_RC"
grep -qiE 'available' c1.out || fail "[W] (c) the impossible figure is not named"
tcall c2 20 "${P[@]}" --pack 2048 --free "$W/free_neg.txt"; [ "$TC_RC" = 2 ] || fail "(c) a negative free figure exits $TC_RC"
chat outm "$W/dm" "$T0" "$(steps turn "$RUN_TXT" file "$W/mi_bad.txt")"
crash_chat outm && fail "(c) chat: crash on an impossible /proc/meminfo (rc $(cat outm/rc))"
[ -s outm/slice_2.txt ] || fail "(c) chat: no reply to the impossible /proc/meminfo"
grep -qiE 'available' outm/slice_2.txt && grep -q 'free -g' outm/slice_2.txt || fail "[W] (c) chat: the impossible MemAvailable is not named with free -g to paste"
mkdir -p t; "$PY" "$H/_gen.py" trainlog t/train.log
"$PY" "$H/_gen.py" thermal t/k.csv kelvin=True; "$PY" "$H/_gen.py" thermal t/mw.csv mw=True
tcall d1 20 thermal "$W/t/k.csv" --train-log "$W/t/train.log"
is_crash $TC_RC d1.out && fail "(d) Kelvin: crash (rc $TC_RC)"
grep -qi 'kelvin' d1.out || fail "[W] (d) temperatures in Kelvin not named"
tcall d2 20 thermal "$W/t/mw.csv" --train-log "$W/t/train.log"
is_crash $TC_RC d2.out && fail "(d) milliwatts: crash (rc $TC_RC)"
grep -qi 'milliwatt' d2.out || fail "[W] (d) power in milliwatts not named"
pass
