#!/usr/bin/env bash
# Family 6. Impossible or overflowing `free` figures given to `plan --free`: (a) `free -b` with available one
# byte over total; (b) `free -h` with available 128Ti of 119Gi; (c) a figure of 23 digits (over 2^64) in
# every column; (d) total, used, free and available all 0. (a)(b) exit 2 and name "available" (the figure
# that is impossible); every case: no crash or panic (integer overflow checks are on in release), no NaN/inf
# shown, and never exit 0 ("fits") for (c)'s unreadable figures or (d)'s empty pool.
source "$(dirname "$0")/_lib.sh"; setup_env
newdir "$W/oneshot"
H1='               total        used        free      shared  buff/cache   available'
printf '%s\n%s\n%s\n' "$H1" 'Mem:    128000000000  4000000000 80000000000           0 35000000000 128000000001' 'Swap:              0           0           0' > a.txt
printf '%s\n%s\n%s\n' "$H1" 'Mem:           119Gi       4.0Gi        80Gi          0B        35Gi       128Ti' 'Swap:           15Gi          0B        15Gi' > b.txt
printf '%s\n%s\n%s\n' "$H1" 'Mem:   99999999999999999999999 99999999999999999999999 99999999999999999999999 0 99999999999999999999999 99999999999999999999999' 'Swap:              0           0           0' > c.txt
printf '%s\n%s\n%s\n' "$H1" 'Mem:               0           0           0           0           0           0' 'Swap:              0           0           0' > d.txt
P=(plan --params 70B --method qlora --batch 1 --pack 2048)
for x in a b c d; do
  tcall $x 10 "${P[@]}" --free "$W/$x.txt"
  is_crash $TC_RC "$W/$x.out" && fail "($x) crash or panic (rc $TC_RC): $(grep -m1 -i panick $x.out)"
  grep -qiE '(^|[^a-z])(nan|inf|infinity)([^a-z]|$)' $x.out && fail "($x) NaN/inf shown: $(grep -m1 -iE 'nan|inf' $x.out)"
  case $x in
    a|b) [ "$TC_RC" = 2 ] || fail "($x) exit $TC_RC, want 2 (available > total)"
         grep -qi 'available' $x.out || fail "[W] ($x) the impossible figure (available) is not named";;
    c|d) [ "$TC_RC" != 0 ] || fail "($x) exit 0 (fits) on an impossible reading";;
  esac
done
pass
