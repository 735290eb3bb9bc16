#!/usr/bin/env bash
# Family: escape sequences / hostile bytes from the network. (a) HTTP 503 whose reason phrase and body
# carry OSC sequences, a marker and a shell command; (b) a 200 "stream" of binary garbage with the marker.
# headroom shows its own text with one line saying why, never a byte of the error or the garbled answer.
source "$(dirname "$0")/_lib.sh"; setup_env
llm_start E error --marker SRVERR-7F3A
llm_start G garbled --marker GARBLE-66C1
ST="$(steps turn "$RUN_TXT" wait 30 until verdict turn "$Q_GMU" wait 30 until '121\.69')"
for x in E G; do
  chat "out$x" "$W/d$x" "$T0" "$ST" "[\"--llm\",\"openai:m@http://127.0.0.1:$(eval echo \$LLM_PORT_$x)/v1\"]" '{}' 90
  crash_chat "out$x" && fail "$x: crash or timeout (rc $(cat out$x/rc))"
  [ "$(llm_posts $x)" -ge 1 ] || fail "control: server $x got no phrasing request"
  grep -qi verdict "out$x/all.txt" || fail "$x: no verdict shown (headroom's own text missing)"
  grep -q '121\.69' "out$x/all.txt" || fail "$x: the next question was not answered"
  no_ctl_bytes "out$x/all.txt" || fail "$x: a control byte from the server reached the terminal"
done
grep -q 'SRVERR-7F3A' outE/all.txt && fail "bytes of the server's error reached the screen"
grep -q 'rm -rf' outE/all.txt && fail "the server's error text (a command) reached the screen"
grep -q 'GARBLE-66C1' outG/all.txt && fail "bytes of the garbled answer reached the screen"
pass
