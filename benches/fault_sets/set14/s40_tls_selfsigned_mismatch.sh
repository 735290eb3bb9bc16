#!/usr/bin/env bash
# s40: TLS faults with a key set: (a) https:// to a server with a self-signed certificate (no request may get through:
# the certificate must not be accepted, so the key never arrives); (b) https:// to a plain-HTTP server; (c) http:// to a
# TLS server. Each: the question answered with headroom's own text within 20 s, no crash, no raw control byte; (a) with
# a why-line. Control: the TLS server does serve a client that trusts its certificate.
. "$(dirname "$0")/_lib.sh"; setup_env
openssl req -x509 -newkey rsa:2048 -nodes -keyout key.pem -out cert.pem -days 2 -subj /CN=127.0.0.1 \
  -addext 'subjectAltName=IP:127.0.0.1' >/dev/null 2>&1 || fail "harness: openssl could not make a certificate"
llm_start T openai --tls "$W/cert.pem:$W/key.pem"
llm_start P openai
"$PY" -c 'import ssl,sys,urllib.request; c=ssl.create_default_context(cafile=sys.argv[2]); urllib.request.urlopen("https://127.0.0.1:%s/v1/models" % sys.argv[1], context=c, timeout=5).read()' "$LLM_PORT_T" "$W/cert.pem" \
  || fail "harness/control: the TLS server does not serve a trusting client"
[ "$(llm_reqs T)" = 1 ] || fail "control: the TLS server did not log the trusting client's request"
KEY='sk-tls-SECRET-0f3a9c'
XE="{\"HEADROOM_API_KEY\":\"$KEY\"}"
ST="$(steps turn "$Q_GMU" wait 25 until '121\.69')"
bg chat outA "$W/dA" "$T0" "$ST" "[\"--llm\",\"openai:m@https://127.0.0.1:$LLM_PORT_T/v1\"]" "$XE" 40
bg chat outB "$W/dB" "$T0" "$ST" "[\"--llm\",\"openai:m@https://127.0.0.1:$LLM_PORT_P/v1\"]" "$XE" 40
wait_all
chat outC "$W/dC" "$T0" "$ST" "[\"--llm\",\"openai:m@http://127.0.0.1:$LLM_PORT_T/v1\"]" "$XE" 40
chat outN "$W/dN" "$T0" "$ST"
for o in outA outB outC; do
  crash_chat $o && fail "$o: crash (rc $(cat $o/rc))"
  m=$(m_after $o 1); [ -n "$m" ] || fail "$o: the question was never answered"
  lt "$m" 20 || fail "$o: answered after ${m}s"
  b="$(badctl $o/all.txt)"; [ -z "$b" ] || fail "$o: raw control bytes on screen: $b"
  [ "$(cnt $o/all.txt "$KEY")" = 0 ] || fail "$o: the key was shown"
done
[ "$(llm_reqs T)" = 1 ] || fail "(a)/(c) a request got through to the self-signed server ($(( $(llm_reqs T) - 1 )) more): the certificate was accepted"
"$PY" "$H/_hr.py" headers "$W/llm_T.log" authorization | grep -q "$KEY" && fail "the key reached the self-signed server"
why_line outA/all.txt outN/all.txt || fail "(a) [W] no line saying why the model was not used"
pass "TLS faults: answered with own text, the self-signed server got nothing"
