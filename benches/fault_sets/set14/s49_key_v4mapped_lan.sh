#!/usr/bin/env bash
# s49: a key is set and the endpoint is a LAN address written as an IPv4-mapped IPv6 literal: http://[::ffff:A]:P,
# http://[::ffff:HEX:HEX]:P, http://[0:0:0:0:0:ffff:A]:P. As the URL standard parses it the host is not loopback, so
# without --allow-http the key is never sent (each exits 2 or answers with its own text). Control: --allow-http with
# http://A:P delivers the key (the server is reachable). Skipped (PASS with a note) without a non-loopback IPv4 address.
. "$(dirname "$0")/_lib.sh"; setup_env
A="$(ip -4 -o addr show scope global 2>/dev/null | awk '{print $4}' | cut -d/ -f1 | head -n 1)"
[ -n "$A" ] || pass "skipped: no non-loopback IPv4 address on this machine"
HX="$("$PY" -c 'import ipaddress,sys; b=ipaddress.IPv4Address(sys.argv[1]).packed; print("%x:%x" % (b[0]<<8|b[1], b[2]<<8|b[3]))' "$A")"
llm_start V openai --bind ::
P=$LLM_PORT_V
KEY='sk-v4mapped-SECRET-77e1'
XE="{\"HEADROOM_API_KEY\":\"$KEY\"}"
chat outC "$W/dC" "$T0" "$(steps turn "$Q_GMU" wait 15)" "[\"--llm\",\"openai:m@http://$A:$P/v1\",\"--allow-http\"]" "$XE" 40
"$PY" "$H/_hr.py" headers "$W/llm_V.log" authorization | grep -q "$KEY" || fail "control: with --allow-http the key did not reach http://$A:$P (is the server reachable?)"
: > "$W/llm_V.log"
i=0
for u in "[::ffff:$A]" "[::ffff:$HX]" "[0:0:0:0:0:ffff:$A]"; do
  i=$((i+1))
  chat "out$i" "$W/d$i" "$T0" "$(steps turn "$Q_GMU" wait 15)" "[\"--llm\",\"openai:m@http://$u:$P/v1\"]" "$XE" 40
  crash_chat "out$i" && fail "$u: crash (rc $(cat out$i/rc))"
  "$PY" "$H/_hr.py" headers "$W/llm_V.log" authorization | grep -q "$KEY" && fail "the key was sent in clear to http://$u:$P without --allow-http"
  rc=$(cat out$i/rc)
  [ "$rc" = 2 ] || [ "$(cnt out$i/all.txt 121.69)" -ge 1 ] || fail "$u: neither refused (exit 2) nor answered (rc $rc)"
done
pass "IPv4-mapped LAN addresses got no key ($A)"
