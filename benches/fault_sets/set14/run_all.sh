#!/usr/bin/env bash
# Run every set14 scenario against a headroom binary, one at a time:
#   bash run_all.sh /path/to/headroom [PATTERN]
# Prints "sNN PASS|FAIL reason (seconds)" per scenario, then a total.
HR="${1:?usage: run_all.sh /path/to/headroom [pattern]}"
case "$HR" in /*) ;; *) HR="$PWD/$HR";; esac
D="$(cd "$(dirname "$0")" && pwd)"
pat="${2:-}"
pass=0; failn=0; t_all=$(date +%s)
for s in "$D"/s[0-9][0-9]_*.sh; do
  n="$(basename "$s" .sh)"; id="${n%%_*}"
  [ -n "$pat" ] && [[ "$n" != *$pat* ]] && continue
  tmp="$(mktemp)"; t0=$(date +%s)
  timeout -k 5 150 bash "$s" "$HR" > "$tmp" 2>/dev/null; rc=$?
  el=$(( $(date +%s) - t0 ))
  out="$(tail -n 1 "$tmp")"; rm -f "$tmp"
  [ -n "$out" ] || out="FAIL: no verdict line from the script (rc $rc)"
  if [ "$rc" = 0 ] && [[ "$out" == PASS* ]]; then
    pass=$((pass+1)); echo "$n PASS${out#PASS} [${el}s]"
  else
    failn=$((failn+1)); echo "$n FAIL ${out#FAIL: } [${el}s]"
  fi
done
echo "total: $((pass+failn)), pass $pass, fail $failn [$(( $(date +%s) - t_all ))s]"
