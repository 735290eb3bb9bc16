#!/bin/bash
# s15: endpoint URLs the README refuses as --llm (exit 2, nothing sent): an empty
# user name and password before the host, a user name that looks like a host, a
# query, a fragment; all pointing at a live fake server that counts connections.
# A redirect to a second server is never followed.  0x7f.0.0.1 is this machine,
# so a key may go there (a positive check).
SID=s15
source "$(dirname "$(readlink -f "$0")")/lib/common.sh" "$@"

KEY=sk-hr10-URLKEY-40c2
printf '%s\n\n' "$Q_GMU" >turn.txt
start_llm ma ops
start_llm mb ops
start_llm mr redirect --redirect "http://127.0.0.1:$mb_PORT"
one() { # one NAME SPEC [flags]: a one-turn piped session with the key set
  local n=$1 spec=$2; shift 2; local d; d=$(mkdata "$n.d")
  IN=turn.txt run1 "$n" 20 HEADROOM_NOW=$T0 HEADROOM_API_KEY=$KEY -- --data-dir "$d" "$@" --llm "$spec"
}
reqs() { tool llm "$WORK/$1.log" paths | wc -l; }
P=$ma_PORT
i=0
for url in "http://:@127.0.0.1:$P/v1" "http://127.0.0.1@127.0.0.1:$P/v1" "http://127.0.0.1:$P/v1?api_key=1" "http://127.0.0.1:$P/v1#frag"; do
  i=$((i + 1)); before=$(reqs ma)
  one "u$i" "openai:fake-135m@$url"
  after=$(reqs ma)
  [ "$(rc_of u$i)" = 2 ] || fail "--llm $url: exit $(rc_of u$i), not 2 (a bad flag)"
  [ "$after" -eq "$before" ] || fail "--llm $url: $((after - before)) request(s) reached the server"
done
# control: the plain form of the same URL reaches the server
before=$(reqs ma); one ok "openai:fake-135m@http://127.0.0.1:$P/v1"; after=$(reqs ma)
[ "$after" -gt "$before" ] || fail "control: the plain URL http://127.0.0.1:$P/v1 never reached the server, so the checks above could not see a request"
no_crash "plain URL" "$(rc_of ok)" "$WORK/ok.out" "$WORK/ok.err"
# 0x7f.0.0.1 is this machine: the key may go there
before=$(tool llm "$WORK/ma.log" auth "$KEY")
one hex "openai:fake-135m@http://0x7f.0.0.1:$P/v1"
after=$(tool llm "$WORK/ma.log" auth "$KEY")
[ "$after" -gt "$before" ] || fail "http://0x7f.0.0.1 (this machine by the URL standard) did not get the key (rc=$(rc_of hex))"
# a redirect is never followed
one redir "openai:fake-135m@http://127.0.0.1:$mr_PORT/v1"
[ "$(reqs mr)" -ge 1 ] || fail "control: the redirecting server was never asked"
nb=$(reqs mb)
[ "$nb" -eq 0 ] || fail "a redirect was followed: the server it points to got $nb request(s)"
no_crash "redirect" "$(rc_of redir)" "$WORK/redir.out" "$WORK/redir.err"
present "answer kept after a redirect" "121.69" "$WORK/redir.out"
one direct "openai:fake-135m@http://127.0.0.1:$mb_PORT/v1"
[ "$(reqs mb)" -ge 1 ] || fail "control: the redirect's target, asked directly, got no request"
finish
