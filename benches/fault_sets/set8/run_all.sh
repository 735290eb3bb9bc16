#!/usr/bin/env bash
# run_all.sh BIN: runs every sNN_*.sh scenario in this directory against the headroom binary
# BIN, prints each scenario's one line, then "N passed, M failed".
set -u
if [ -z "${1:-}" ]; then echo "usage: $0 /path/to/headroom" >&2; exit 2; fi
case "$1" in /*) BIN="$1" ;; *) BIN="$PWD/$1" ;; esac
HERE="$(cd "$(dirname "$0")" && pwd)"
pass=0; fail=0
for s in "$HERE"/s[0-9][0-9]_*.sh; do
  id="$(basename "$s")"; id="${id%%_*}"
  line="$(timeout 300 bash "$s" "$BIN" 2>/dev/null | tail -n 1)"
  case "$line" in
    "PASS $id") pass=$((pass + 1)) ;;
    "FAIL $id"*) fail=$((fail + 1)) ;;
    *) line="FAIL $id: the scenario did not print its result line (${line:-nothing})"; fail=$((fail + 1)) ;;
  esac
  printf '%s\n' "$line"
done
echo "$pass passed, $fail failed"
