#!/bin/bash
# s12: (a) a server that sends one content piece, then nothing, holding the
# connection open, with HEADROOM_LLM_STALL_S=3; (b) an endless fast stream
# ("floodmark and so on and so forth " every 5 ms) with every default; (c) one
# 4 MiB line with no newline, then silence, with every default.  Each must end in
# seconds (the stall rule; three times the template's bytes; lines <= 1 MiB), and
# nothing streamed is shown.
SID=s12
source "$(dirname "$(readlink -f "$0")")/lib/common.sh" "$@"

printf '>>> turn\n%s\n' "$Q_GMU" >script
start_llm ma stall; start_llm mb flood; start_llm mc longline
LLM_TO=40 llm_session la "$(spec_oai "$ma_PORT")" script --env HEADROOM_LLM_STALL_S=3 --start 30 --quiet 3 --maxwait 35
LLM_TO=50 llm_session lb "$(spec_oll "$mb_PORT")" script --start 40 --quiet 3 --maxwait 45
LLM_TO=50 llm_session lc "$(spec_oai "$mc_PORT")" script --start 40 --quiet 3 --maxwait 45
bound() { # bound LABEL SESSION LOG PER_PHRASING
  local r lat n; r=$(tool turnlat "$WORK/$2" 1 121.69 "$WORK/$3.log"); lat=${r% *}; n=${r#* }
  note "$1: answer after $lat s, $n phrasing request(s)"
  if [ "${lat%.*}" = "-1" ] || [ -z "$lat" ]; then fail "$1: the answer (121.69) never came"; return; fi
  [ "$n" -ge 1 ] || { fail "control: $1: the model was not asked before the answer"; return; }
  awk -v l="$lat" -v n="$n" -v p="$4" 'BEGIN{exit !(l <= n * p + 4)}' || fail "$1: the answer took $lat s for $n phrasing(s) (limit $n x $4 s + 4 s)"
}
for x in a b c; do drive_ok l$x; done
bound "(a) stall after one piece, stall 3 s" la ma 6
bound "(b) endless stream, defaults" lb mb 10
bound "(c) 4 MiB line, defaults" lc mc 10
offer ma stallmark "(a)"; offer mb floodmark "(b)"; offer mc qzqz "(c)"
absent "(a) streamed text shown" stallmark "$WORK/la/all" "$WORK/la/err"
absent "(b) streamed text shown" floodmark "$WORK/lb/all" "$WORK/lb/err"
absent "(c) streamed text shown" qzqz "$WORK/lc/all" "$WORK/lc/err"
finish
