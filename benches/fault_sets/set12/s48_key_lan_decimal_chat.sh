#!/usr/bin/env bash
# Family 6 (API key over plain http). HEADROOM_API_KEY is set; a model server listens on this machine's LAN
# address over plain http. (a) `--llm openai:m@http://<the LAN address as one decimal integer>:P/v1` (the URL
# standard reads it as that address); (b) no --llm, then `/llm openai:m@http://LAN:P/v1` typed in the chat;
# (c) `--llm ollama:m@http://[::ffff:LAN]:P` (the IPv4-mapped IPv6 form). None of them may carry the key
# without --allow-http; each either exits 2 or answers (121.69); in (b) one line says why [W]. Control (d):
# with --allow-http the key does reach the server.
source "$(dirname "$0")/_lib.sh"; setup_env
LAN="$("$PY" - <<'PY'
import socket
try:
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.connect(('192.0.2.254', 9)); a = s.getsockname()[0]; s.close()
    print(a if not a.startswith('127.') else '')
except OSError:
    print('')
PY
)"
[ -n "$LAN" ] || pass "skipped: no non-loopback IPv4 address"
KEY='sk-hr12-DECIMAL-91c2e7'
export HEADROOM_API_KEY="$KEY"
llm_start A echo --bind "$LAN"
DEC=$("$PY" -c 'import sys,socket,struct; print(struct.unpack("!I", socket.inet_aton(sys.argv[1]))[0])' "$LAN")
P=$LLM_PORT_A
got_key() { grep -q "$KEY" "$W/llm_A.log" 2>/dev/null; }
chat oa "$W/da" "$T0" "$(steps turn "$Q_GMU" wait 6)" "[\"--llm\",\"openai:m@http://$DEC:$P/v1\"]" '{}' 30
got_key && fail "(a) the key was sent over plain http to $DEC (= $LAN)"
[ "$(cat oa/rc)" = 2 ] || grep -q '121\.69' oa/all.txt || fail "(a) neither exit 2 nor an answer (rc $(cat oa/rc))"
chat ob "$W/db" "$T0" "$(steps turn "/llm openai:m@http://$LAN:$P/v1" turn "$Q_GMU" wait 6)"
got_key && fail "(b) the key was sent over plain http after /llm in the chat"
grep -q '121\.69' ob/all.txt || fail "(b) the question was not answered"
grep -qiE 'allow-http|https|plain http|unencrypted|not encrypted|in clear|cleartext|insecure' ob/all.txt || fail "[W] (b) no line says why the key is not sent"
chat oc "$W/dc" "$T0" "$(steps turn "$Q_GMU" wait 6)" "[\"--llm\",\"ollama:m@http://[::ffff:$LAN]:$P\"]" '{}' 30
got_key && fail "(c) the key was sent over plain http to [::ffff:$LAN]"
[ "$(cat oc/rc)" = 2 ] || grep -q '121\.69' oc/all.txt || fail "(c) neither exit 2 nor an answer (rc $(cat oc/rc))"
for o in oa ob oc; do crash_chat $o && fail "($o) crash (rc $(cat $o/rc))"; done
chat od "$W/dd" "$T0" "$(steps turn "$Q_GMU" wait 6)" "[\"--allow-http\",\"--llm\",\"openai:m@http://$LAN:$P/v1\"]" '{}' 30
got_key || fail "control (d): with --allow-http the key never reached the server, so the checks saw nothing"
pass "$LAN = $DEC"
