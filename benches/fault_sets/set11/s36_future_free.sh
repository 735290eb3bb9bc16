#!/usr/bin/env bash
# Family: clock going back / future-dated records. A `free -g` with 30 GiB available was given "three days
# from now" (the clock later went back). Readings dated in the future are stale, so the 70B QLoRA run is
# not judged against it. Control: two minutes after the paste (fresh), the same question gives
# "does not fit".
source "$(dirname "$0")/_lib.sh"; setup_env
cat > free.txt <<'P'
               total        used        free      shared  buff/cache   available
Mem:             119          88          20           0          11          30
Swap:             15           0          15
P
chat outA "$W/d" "$(at 259200)" "$(steps turn "$RUN_TXT" file "$W/free.txt")"
crash_chat outA && fail "A: crash (rc $(cat outA/rc))"
cp -a "$W/d" "$W/d2"
chat outF "$W/d2" "$(at 259320)" "$(steps turn "will it fit?")"
crash_chat outF && fail "fresh: crash (rc $(cat outF/rc))"
first_verdict() { grep -oiE 'does not fit|\bfits\b|\btight\b' "$1" | head -1 | tr 'A-Z' 'a-z'; }
[ "$(first_verdict outF/slice_1.txt)" = "does not fit" ] || fail "control: with the fresh free -g the verdict is not 'does not fit'"
chat outB "$W/d" "$(at 600)" "$(steps turn "will it fit?")"
crash_chat outB && fail "B: crash (rc $(cat outB/rc))"
vB="$(first_verdict outB/slice_1.txt)"
[ -n "$vB" ] || fail "B: no verdict word in the reply to 'will it fit?'"
[ "$vB" != "does not fit" ] || fail "a free -g dated in the future was used as the budget (does not fit)"
pass
