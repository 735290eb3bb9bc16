#!/usr/bin/env bash
# s58 (family 5, secrets): `headroom key set` with the key piped on stdin, no terminal (setsid) and no
# keyring (a dead D-Bus address), then `headroom key clear`.
# Expect: neither prints the key; no file under HOME/XDG/the data dir holds it (no plain-text
# fallback); no crash or hang. Control: `headroom key --help` lists "set" (the command exists) and
# `key set` said something.
. "$(dirname "$0")/_lib.sh"; setup_env
KEY="sk-pipe-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
HEADROOM_DATA_DIR="$W/d" timeout 10 "$HR" key --help > "$W/help.out" 2>&1
grep -qw set "$W/help.out" || fail "control: 'headroom key --help' does not list set"
printf '%s\n' "$KEY" | HEADROOM_DATA_DIR="$W/d" setsid -w timeout 10 "$HR" key set > "$W/set.out" 2>&1; rc=$?
is_crash "$rc" "$W/set.out" && fail "key set: crash or hang (exit $rc)"
[ -s "$W/set.out" ] || fail "control: key set printed nothing at all (exit $rc)"
HEADROOM_DATA_DIR="$W/d" setsid -w timeout 10 "$HR" key clear > "$W/clear.out" 2>&1 < /dev/null; rc2=$?
is_crash "$rc2" "$W/clear.out" && fail "key clear: crash or hang (exit $rc2)"
K2="${KEY:8:16}"
grep -qF "$K2" "$W/set.out" "$W/clear.out" && fail "the key was printed"
f="$("$PY" "$H/_hr.py" sweep "$W" "$K2")"; [ -z "$f" ] || fail "the key was written to: $(echo "$f" | head -2 | tr '\n' ' ')"
pass "key set exit $rc, key clear exit $rc2"
