#!/bin/bash
# s13: strings from the network that carry terminal control bytes.
# (a) Ollama with no model named: /api/tags lists one model whose name holds an
#     OSC title sequence, a clear-screen CSI and a C1 CSI (U+009B); its phrasing
#     puts an OSC sequence after the first placeholder.  "/llm" must say which
#     model is in use without a raw control byte.
# (b) a stream of broken JSON, raw escapes and bad UTF-8 (GARBLEMARK).
# (c) HTTP 500 whose body holds ERRBODYMARK, escapes and a `curl | sudo sh`.
SID=s13
source "$(dirname "$(readlink -f "$0")")/lib/common.sh" "$@"

printf '>>> turn\n%s\n' "$Q_GMU" >script
plain_session p script; drive_ok p
start_llm ma ops --name-json '"evil\u001b]0;PWNED-TITLE\u0007\u001b[2J\u009b31m:latest"' --ops '[["after_ph","\u001b]0;ESCMARK\u0007",true]]'
start_llm mb garbage
start_llm mc error500
printf '>>> turn\n/llm\n>>> turn\n%s\n' "$Q_GMU" >script_a
LLM_TO=40 llm_session la "ollama@http://127.0.0.1:$ma_PORT" script_a
LLM_TO=40 llm_session lb "$(spec_oai "$mb_PORT")" script
LLM_TO=40 llm_session lc "$(spec_oll "$mc_PORT")" script
for x in a b c; do drive_ok l$x; done
for x in a b c; do
  n=$(tool ctlbytes "$WORK/l$x/all" "$WORK/l$x/err")
  [ "$n" -eq 0 ] || fail "($x) $n raw control byte(s) (ESC, BEL or C1) reached the terminal"
done
# (a) controls: the name was fetched and shown (in some escaped form)
tool llm "$WORK/ma.log" paths | grep -q '/api/tags' || fail "control: (a) /api/tags was never asked for, so the model name never came in"
grep -aqi 'evil' $(SL la 1) || fail "control: (a) /llm did not name the model in use ('evil...')"
# (b)
offer mb GARBLEMARK "(b)"
absent "(b) a byte of the garbled answer shown" GARBLEMARK "$WORK/lb/all" "$WORK/lb/err"
absent "(b) a byte of the garbled answer shown" GARBLETITLE "$WORK/lb/all" "$WORK/lb/err"
# (c)
offer mc ERRBODYMARK "(c)"
absent "(c) the server's error body shown" ERRBODYMARK "$WORK/lc/all" "$WORK/lc/err"
absent "(c) the server's error body shown" ERRTITLE "$WORK/lc/all" "$WORK/lc/err"
le_count "(c) the error body's command shown" "sudo sh" "$WORK/p/all" "$WORK/lc/all"
for x in b c; do present "($x) answer kept" "121.69" "$WORK/l$x/all"; done
present "(a) answer kept" "121.69" $(SL la 2)
added=$(tool added "$WORK/p/all" "$WORK/lc/all")
printf '%s' "$added" | grep -aEiq '500|server error|internal|status|HTTP' || fail "[W] (c) no line naming the HTTP status in headroom's words (added: $(printf '%s' "$added" | head -c 200 | tr '\n' '|'))"
finish
