#!/usr/bin/env bash
# run_all.sh BIN: runs every sNN_*.sh scenario against the headroom binary BIN.
# Prints each scenario's final line, then "N passed, M failed".
# Each scenario's stderr (diagnostics) goes to a log directory named before the summary.
set -u
if [ $# -lt 1 ] || [ ! -x "$1" ]; then echo "usage: $0 /path/to/headroom" >&2; exit 2; fi
BIN=$(readlink -f -- "$1")
DIR=$(cd "$(dirname "$0")" && pwd)
LOGS=$(mktemp -d "${TMPDIR:-/tmp}/faults9-logs.XXXXXX")
pass=0; failn=0
for s in "$DIR"/s[0-9][0-9]_*.sh; do
  id=$(basename "$s" | cut -c1-3)
  line=$(timeout 180 bash "$s" "$BIN" 2>"$LOGS/$id.err" </dev/null | tail -n 1)
  case $line in
    "PASS $id") pass=$((pass+1)) ;;
    "FAIL $id"*) failn=$((failn+1)) ;;
    *) line="FAIL $id: no verdict line (timed out or broke): ${line:0:200}"; failn=$((failn+1)) ;;
  esac
  echo "$line"
done
echo "diagnostics: $LOGS"
echo "$pass passed, $failn failed"
