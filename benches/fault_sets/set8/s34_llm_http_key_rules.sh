#!/usr/bin/env bash
# s34: endpoint and key rules. (a) An API key with a plain http:// endpoint on another
# address (192.0.2.10), with http_proxy pointing at a logging proxy on this machine: the key
# never leaves (the proxy sees no key), and one line says why (https / --allow-http).
# (b) Endpoints with a user name or password before the host (even empty), a '?' or a '#',
# given as --llm: a bad flag, exit 2, nothing sent (the server sees no request).
# (c) Control: the key over plain http to 127.0.0.1 is sent (the server log sees it), and
# it is never written to the data directory or HOME. (d) A redirect is never followed: the
# redirect target gets nothing. (e) http://0x7f.0.0.1 is this machine: the request is made.
SID=s34
. "$(dirname "$0")/lib.sh" "$@"

KEY="sk-headroom-fault-7f3a9c1e"
start_llm P proxy
start_llm S echo
start_llm S2 echo
start_llm R redirect "http://127.0.0.1:$PORT_S2/v1/chat/completions"
start_llm S3 echo
export HEADROOM_API_KEY="$KEY" HEADROOM_LLM_FIRST_TEXT_S=3

# (a)
PX="http://127.0.0.1:$PORT_P"
DA=$(mkdd a)
http_proxy="$PX" HTTP_PROXY="$PX" all_proxy="$PX" ALL_PROXY="$PX" \
  chat a "$NOW0" "$DA" "$Q_GMU" --llm "openai:test-model@http://192.0.2.10:8000/v1"
python3 "$FX" grep c "$KEY" "$T/P.log" && bad "(a) the API key was sent over plain http to a non-local address (seen by the proxy)"
r=$(rc_of a); { [ "$r" = 0 ] || [ "$r" = 2 ]; } || bad "(a) exit $r, want 0 (own text) or 2 (bad flag)"
has a 'https|allow-http|plain http|unencrypted|in (the )?clear|not encrypted' || bad "[W] (a) no line saying the key needs https or --allow-http"
[ "$r" = 0 ] && { has a "$OWN_GMU" || bad "(a) headroom's own answer was not shown"; }
[ "$(ms_of a)" -lt 15000 ] || bad "(a) took $(ms_of a) ms"

# (b)
i=0
for url in "http://:@127.0.0.1:$PORT_S" "http://u:p@127.0.0.1:$PORT_S" "http://127.0.0.1@192.0.2.10:$PORT_S" \
           "http://127.0.0.1:$PORT_S/v1?x=1" "http://127.0.0.1:$PORT_S/v1#frag"; do
  i=$((i + 1)); Db=$(mkdd "b$i")
  chat "b$i" "$NOW0" "$Db" "$Q_GMU" --llm "openai:test-model@$url"
  rc_is "b$i" 2 || bad "(b) --llm openai:test-model@$url exited $(rc_of "b$i"), want 2"
done
[ "$(llm_requests S)" = 0 ] || bad "(b) a refused endpoint URL still reached the server ($(llm_requests S) requests)"

# (c)
DC=$(mkdd c)
chat c "$NOW0" "$DC" "$Q_GMU" --llm "openai:test-model@http://127.0.0.1:$PORT_S"
rc_is c 0 || bad "(c) exit $(rc_of c)"
python3 "$FX" grep c "$KEY" "$T/S.log" || bad "control (c): the loopback server never saw the key (the proxy check is blind)"
python3 "$FX" scan "$KEY" "$DC" "$DA" "$HOME" >/dev/null && bad "(c) the API key was written to the data directory or HOME"
python3 "$FX" scan "$KEY" "$T/S.log" >/dev/null || bad "control (c): the key scan cannot find the key where it is"

# (d)
DD=$(mkdd d)
chat d "$NOW0" "$DD" "$Q_GMU" --llm "openai:test-model@http://127.0.0.1:$PORT_R"
[ "$(llm_requests R)" -ge 1 ] || bad "control (d): the redirecting server got no request"
[ "$(llm_requests S2)" = 0 ] && : || bad "(d) a redirect was followed ($(llm_requests S2) requests reached the target)"
has d "$OWN_GMU" || bad "(d) headroom's own answer was not shown"

# (e)
DE=$(mkdd e)
chat e "$NOW0" "$DE" "$Q_GMU" --llm "openai:test-model@http://0x7f.0.0.1:$PORT_S3"
rc_is e 0 || bad "(e) exit $(rc_of e)"
[ "$(llm_requests S3)" -ge 1 ] || bad "(e) http://0x7f.0.0.1 (this machine) was not used"
finish
