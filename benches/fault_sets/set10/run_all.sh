#!/bin/bash
# run_all.sh BIN: runs every sNN_*.sh of set 10 against the headroom binary BIN,
# each under a 180 s timeout, prints each verdict line, then "N passed, M failed"
# and where the diagnostics (each scenario's stderr) went.
# Scenarios that mount tmpfs filesystems (s29-s33) need root.
BIN=${1:?usage: run_all.sh /path/to/headroom}
BIN=$(readlink -f "$BIN")
HERE=$(cd "$(dirname "$(readlink -f "$0")")" && pwd)
LOGDIR=${HR_LOGDIR:-$(mktemp -d "${TMPDIR:-/tmp}/hr10-logs.XXXXXX")}
mkdir -p "$LOGDIR"
pass=0; failn=0
for s in "$HERE"/s[0-9][0-9]_*.sh; do
  id=$(basename "$s" | cut -d_ -f1)
  out=$(timeout -k 10 180 bash "$s" "$BIN" 2>"$LOGDIR/$id.stderr")
  rc=$?
  line=$(printf '%s\n' "$out" | grep -E "^(PASS|FAIL) $id" | tail -1)
  if [ -z "$line" ]; then
    if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then line="FAIL $id: timed out after 180 s (no verdict)"
    else line="FAIL $id: no verdict line (exit $rc)"; fi
  fi
  echo "$line"
  case $line in PASS*) pass=$((pass + 1)) ;; *) failn=$((failn + 1)) ;; esac
done
echo "$pass passed, $failn failed"
echo "diagnostics: $LOGDIR/<scenario>.stderr"
