#!/usr/bin/env bash
# Family: key over plain http. The model server listens on this machine's non-loopback address; a key is
# set. Without --allow-http the key must not travel over plain http to a non-loopback address.
# Control: with --allow-http the same server does see the key.
source "$(dirname "$0")/_lib.sh"; setup_env
IP="$("$PY" - <<'PY'
import socket
ips = []
for probe in ('192.0.2.1', '10.255.255.255', '8.8.8.8'):
    try:
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.connect((probe, 9)); ips.append(s.getsockname()[0]); s.close()
    except OSError:
        pass
try:   # fallback: this machine's local addresses from the kernel's routing trie
    lines = open('/proc/net/fib_trie').read().splitlines()
    for i, l in enumerate(lines):
        if '/32 host LOCAL' in l and i > 0:
            ips.append(lines[i - 1].split()[-1])
except OSError:
    pass
print(next((ip for ip in ips if not ip.startswith('127.') and ip != '0.0.0.0'), ''))
PY
)"
[ -n "$IP" ] || pass "skipped: no non-loopback IPv4 address on this machine"
KEY=sk-set11-LANKEY-5b6a7c8d
export HEADROOM_API_KEY=$KEY
llm_start A echo --bind 0.0.0.0
ST="$(steps turn "$RUN_TXT" wait 20 until verdict turn "$Q_GMU")"
chat out "$W/d" "$T0" "$ST" "[\"--llm\",\"openai:m@http://$IP:$LLM_PORT_A/v1\"]" '{}' 60
crash_chat out && fail "crash or timeout (rc $(cat out/rc))"
grep -qi verdict out/all.txt || fail "no verdict shown"
"$PY" "$H/_hr.py" bodies "$W/llm_A.log" | grep -q "$KEY" && fail "the key was sent in clear to http://$IP"
chat out2 "$W/d2" "$T0" "$ST" "[\"--allow-http\",\"--llm\",\"openai:m@http://$IP:$LLM_PORT_A/v1\"]" '{}' 60
"$PY" "$H/_hr.py" bodies "$W/llm_A.log" | grep -q "$KEY" || fail "control: even with --allow-http the server never saw the key"
pass "$IP"
