#!/usr/bin/env bash
# s56 (family 5, key over plain http): the endpoint comes from the config file
# ($XDG_CONFIG_HOME/headroom/llm = "openai:m@http://192.0.2.2:P/v1", this machine's LAN address) and
# HEADROOM_API_KEY is set. Turns: the question, "/llm".
# Expect: the key never reaches the server; the question is answered (121.69); [W] a line says why
# (https / allow-http / plain http / not sent). Control: the same config file pointing at a loopback
# server delivers the key there.
. "$(dirname "$0")/_lib.sh"; setup_env
LAN4="$(ip -4 -o addr show scope global 2>/dev/null | awk '{print $4}' | cut -d/ -f1 | head -1)"
[ -n "$LAN4" ] || { echo "PASS (skipped: no non-loopback IPv4 address)"; exit 0; }
llm_start A echo --bind "$LAN4"
llm_start B echo
R="$(head -c 8 /dev/urandom | od -An -tx1 | tr -d ' \n')"
mkdir -p "$XDG_CONFIG_HOME/headroom"
echo "openai:m@http://127.0.0.1:$LLM_PORT_B/v1" > "$XDG_CONFIG_HOME/headroom/llm"
chat oc "$W/dc" "$T0" "$(steps turn "$Q_GMU")" '[]' "{\"HEADROOM_API_KEY\":\"sk-loop-$R\"}" 60
"$PY" "$H/_hr.py" headers "$W/llm_B.log" Authorization | grep -qF "sk-loop-$R" || fail "control: the config file's loopback endpoint never got the key (config file not read?)"
echo "openai:m@http://$LAN4:$LLM_PORT_A/v1" > "$XDG_CONFIG_HOME/headroom/llm"
chat o "$W/d" "$T0" "$(steps turn "$Q_GMU" turn /llm)" '[]' "{\"HEADROOM_API_KEY\":\"sk-cfg-$R\"}" 60
crash_chat o && fail "crash (rc $(cat o/rc))"
"$PY" "$H/_hr.py" headers "$W/llm_A.log" Authorization | grep -qF "sk-cfg-$R" && fail "the key went in clear to $LAN4 from the config file's endpoint"
grep -q '121.69' o/all.txt || fail "the question was not answered"
grep -Eiq 'allow-http|https|plain http|not sent|in clear|unencrypted|insecure' o/all.txt || fail "[W] no line says why the key was not sent"
pass
