#!/bin/bash
# s10: servers that never send a content token: (a) one that reads the request and
# sends nothing, not even headers, with HEADROOM_LLM_FIRST_TEXT_S=3; (b) one that
# sends 200, headers, SSE keep-alive comments and role-only deltas every second,
# but no content, with HEADROOM_LLM_FIRST_TEXT_S=3; (c) the silent one again with
# every default (15 s).  The answer must come within the first-text deadline of
# each phrasing, plus slack.
SID=s10
source "$(dirname "$(readlink -f "$0")")/lib/common.sh" "$@"

printf '>>> turn\n%s\n' "$Q_GMU" >script
plain_session p script; drive_ok p
present "control: the plain answer" "121.69" "$(S p 1)"
start_llm ma silent
start_llm mb headers
start_llm mc silent
LLM_TO=40 llm_session la "$(spec_oai "$ma_PORT")" script --env HEADROOM_LLM_FIRST_TEXT_S=3 --start 30 --quiet 3 --maxwait 35
LLM_TO=40 llm_session lb "$(spec_oai "$mb_PORT")" script --env HEADROOM_LLM_FIRST_TEXT_S=3 --start 30 --quiet 3 --maxwait 35
LLM_TO=75 llm_session lc "$(spec_oll "$mc_PORT")" script --start 60 --quiet 3 --maxwait 70
bound() { # bound LABEL SESSION LOG PER_PHRASING
  local r lat n; r=$(tool turnlat "$WORK/$2" 1 121.69 "$WORK/$3.log"); lat=${r% *}; n=${r#* }
  note "$1: answer after $lat s, $n phrasing request(s)"
  if [ "${lat%.*}" = "-1" ] || [ -z "$lat" ]; then fail "$1: the answer (121.69) never came"; return; fi
  [ "$n" -ge 1 ] || { fail "control: $1: the model was not asked before the answer"; return; }
  awk -v l="$lat" -v n="$n" -v p="$4" 'BEGIN{exit !(l <= n * p + 4)}' || fail "$1: the answer took $lat s for $n phrasing(s) (limit $n x $4 s + 4 s)"
}
for x in a b c; do drive_ok l$x; done
bound "(a) silent server, first text 3 s" la ma 5
bound "(b) headers and keep-alives only, first text 3 s" lb mb 5
bound "(c) silent server, default 15 s" lc mc 18
why_line p la "(a) reason for headroom's own text"
finish
