#!/bin/bash
# s14: an API key (HEADROOM_API_KEY) and a model server at a plain http:// address
# of the LAN (this machine's own non-loopback address, which by the URL is not
# loopback).  Without --allow-http the key must not be sent and the owner is told;
# with --allow-http it is (control); without a key the server is used (control).
# The key is never written into the data directory, the config or the screen.
SID=s14
source "$(dirname "$(readlink -f "$0")")/lib/common.sh" "$@"

KEY=sk-hr10-LANKEY-7f3a9c51
printf '>>> turn\n%s\n' "$Q_GMU" >script
LAN=$(hostname -I 2>/dev/null | tr ' ' '\n' | grep -E '^[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+$' | grep -v '^127\.' | head -1)
sess() { # sess NAME SPEC [headroom flags...]  (key from $K)
  local n=$1 spec=$2; shift 2; local d; d=$(mkdata "$n.d")
  drive "$n" 45 --start 8 --quiet 1 --env HEADROOM_NOW=$T0 ${K:+--env HEADROOM_API_KEY=$K} -- --data-dir "$d" "$@" --llm "$spec" <script
}
if [ -n "$LAN" ]; then
  start_llm ml ops --host "$LAN"
  SPEC="openai:fake-135m@http://$LAN:$ml_PORT/v1"
  K=$KEY sess a "$SPEC"
  n_a=$(tool llm "$WORK/ml.log" reqs "$KEY")
  K=$KEY sess b "$SPEC" --allow-http
  n_b=$(tool llm "$WORK/ml.log" auth "$KEY")
  before=$(posts ml)
  K= sess c "$SPEC"
  n_c=$(( $(posts ml) - before ))
  no_crash "(a) key, plain http LAN" "$(cat "$WORK/a/rc")" "$WORK/a/all" "$WORK/a/err"
  [ "$n_a" -eq 0 ] || fail "(a) the key went in clear to http://$LAN without --allow-http ($n_a request(s))"
  wm 'allow-http|https|plain http|unencrypted|not encrypted|in clear|cleartext|insecure' "$WORK/a/all" "$WORK/a/err" \
    || fail "[W] (a) the owner was not told why the key was not sent (no mention of https / --allow-http)"
  [ "$n_b" -ge 1 ] || fail "control: (b) with --allow-http the key never reached the LAN server, so the check could not see it"
  [ "$n_c" -ge 1 ] || fail "control: (c) without a key the LAN server was never asked (not reachable?)"
  [ "$(cnt 121.69 "$WORK/a/all")" -ge 1 ] || [ "$(cat "$WORK/a/rc")" = 2 ] || fail "(a) neither headroom's own answer nor a refusal (exit 2)"
else
  note "no non-loopback IPv4 address on this machine: the LAN part (a-c) is skipped"
  start_llm ml ops
  K=$KEY sess b "$(spec_oai "$ml_PORT")"
fi
# the key never lands on disk or on screen
hits=$(grep -rlaF -- "$KEY" "$WORK"/*.d "$HOME" 2>/dev/null; for x in a b c; do grep -laF -- "$KEY" "$WORK/$x/all" "$WORK/$x/err" 2>/dev/null; done)
[ -z "$hits" ] || fail "the API key was written to: $(echo "$hits" | tr '\n' ' ')"
[ -n "$(find "$WORK"/*.d -type f -size +0 2>/dev/null | head -1)" ] || fail "control: no file was written in any data directory, so the key search saw nothing"
finish
