#!/usr/bin/env bash
# Run every set11 scenario against a headroom binary: ./run_all.sh /path/to/headroom [PATTERN]
# Prints "sNN PASS|FAIL reason" per scenario and a total.
HR="${1:?usage: run_all.sh /path/to/headroom [pattern]}"
case "$HR" in /*) ;; *) HR="$PWD/$HR";; esac
D="$(cd "$(dirname "$0")" && pwd)"
pat="${2:-}"
pass=0; failn=0
for s in "$D"/s[0-9][0-9]_*.sh; do
  n="$(basename "$s" .sh)"; id="${n%%_*}"
  [ -n "$pat" ] && [[ "$n" != *$pat* ]] && continue
  tmp="$(mktemp)"
  timeout 900 bash "$s" "$HR" > "$tmp" 2>/dev/null; rc=$?
  out="$(tail -n 1 "$tmp")"; rm -f "$tmp"
  [ -n "$out" ] || out="FAIL: no verdict line from the script"
  if [ "$rc" = 0 ] && [[ "$out" == PASS* ]]; then
    pass=$((pass+1)); echo "$id PASS ${out#PASS}"
  else
    failn=$((failn+1)); echo "$id FAIL ${out#FAIL: }"
  fi
done
echo "total: $((pass+failn)), pass $pass, fail $failn"
