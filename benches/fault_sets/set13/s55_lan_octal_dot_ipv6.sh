#!/usr/bin/env bash
# s55 (family 5, key over plain http): HEADROOM_API_KEY set; the server listens on every address of
# this machine (dual stack). `--llm openai:m@URL` with URL = (a) http://0300.0.02.02:P/v1 (octal
# 192.0.2.2), (b) http://192.0.2.2.:P/v1 (trailing dot), (c) http://[fd00::2]:P/v1 (an IPv6 ULA),
# (d) http://0xc0.0x0.0x2.0x2:P/v1 (hex parts). None is loopback.
# Expect: no request carries the key; each run exits 2 or answers the question (121.69); no crash.
# Control (e): --allow-http with http://192.0.2.2:P/v1 delivers the key.
. "$(dirname "$0")/_lib.sh"; setup_env
LAN4="$(ip -4 -o addr show scope global 2>/dev/null | awk '{print $4}' | cut -d/ -f1 | head -1)"
LAN6="$(ip -6 -o addr show scope global 2>/dev/null | awk '{print $4}' | cut -d/ -f1 | head -1)"
[ "$LAN4" = 192.0.2.2 ] || { echo "PASS (skipped: the forms are written for 192.0.2.2; this machine has '${LAN4:-none}')"; exit 0; }
llm_start A echo --bind '::'
for i in 1 2 3 4; do newdir "$W/d$i"; done; newdir "$W/de"
P=$LLM_PORT_A
R="$(head -c 8 /dev/urandom | od -An -tx1 | tr -d ' \n')"
forms=("http://0300.0.02.02:$P/v1" "http://192.0.2.2.:$P/v1" "http://0xc0.0x0.0x2.0x2:$P/v1")
[ -n "$LAN6" ] && forms+=("http://[$LAN6]:$P/v1")
printf '%s\n\n' "$Q_GMU" | HEADROOM_API_KEY="sk-allow-$R" HEADROOM_NOW="$T0" timeout 40 "$HR" --data-dir "$W/de" --allow-http --llm "openai:m@http://192.0.2.2:$P/v1" > "$W/fe.out" 2>&1
"$PY" "$H/_hr.py" headers "$W/llm_A.log" Authorization | grep -qF "sk-allow-$R" || fail "control (e): with --allow-http the key did not arrive (exit $?; $(head -c 150 "$W/fe.out"))"
i=0
for u in "${forms[@]}"; do
  i=$((i+1))
  printf '%s\n\n' "$Q_GMU" | HEADROOM_API_KEY="sk-lan$i-$R" HEADROOM_NOW="$T0" timeout 40 "$HR" --data-dir "$W/d$i" --llm "openai:m@$u" > "$W/f$i.out" 2>&1; rc=$?
  is_crash "$rc" "$W/f$i.out" && fail "form $u: crash or hang (exit $rc)"
  [ "$rc" = 2 ] || grep -q '121.69' "$W/f$i.out" || fail "form $u: exit $rc and no answer"
  "$PY" "$H/_hr.py" headers "$W/llm_A.log" Authorization | grep -qF "sk-lan$i-$R" && fail "the key went in clear to $u"
done
pass "${#forms[@]} forms held; requests seen $(llm_reqs A)"
