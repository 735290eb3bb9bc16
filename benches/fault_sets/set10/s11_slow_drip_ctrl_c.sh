#!/bin/bash
# s11: (a) a slow-drip server that sends one content piece ("drizzle ") every 2 s
# forever, never stalling for 10 s, with HEADROOM_LLM_DEADLINE_S=7: the total
# deadline must end each phrasing; nothing dripped is shown.  (b) in a terminal,
# a silent server with the first-text and total deadlines set far out (60 s,
# 170 s): Ctrl-C 2.5 s into the phrasing must bring headroom's own answer at once
# and leave the session running.
SID=s11
source "$(dirname "$(readlink -f "$0")")/lib/common.sh" "$@"

printf '>>> turn\n%s\n' "$Q_GMU" >script
start_llm ma drip --period 2
LLM_TO=50 llm_session la "$(spec_oai "$ma_PORT")" script --env HEADROOM_LLM_DEADLINE_S=7 --start 40 --quiet 3 --maxwait 45
drive_ok la
r=$(tool turnlat "$WORK/la" 1 121.69 "$WORK/ma.log"); lat=${r% *}; n=${r#* }
note "(a) answer after $lat s, $n phrasing(s)"
if [ "${lat%.*}" = "-1" ] || [ -z "$lat" ]; then fail "(a) the answer (121.69) never came"
else
  [ "$n" -ge 1 ] || fail "control: (a) the model was not asked before the answer"
  awk -v l="$lat" -v n="$n" 'BEGIN{exit !(l <= n * 9 + 4)}' || fail "(a) the answer took $lat s for $n phrasing(s) with a 7 s total deadline (limit n x 9 s + 4 s)"
fi
offer ma drizzle "(a) drip"
absent "(a) dripped text shown" drizzle "$WORK/la/all" "$WORK/la/err"

# (b) Ctrl-C in a terminal
start_llm mb silent
db=$(mkdata b.d)
python3 "$LIB/ptydrive.py" --out "$WORK/b" --bin "$BIN" --timeout 60 --env HEADROOM_NOW=$T0 \
  --env HEADROOM_LLM_FIRST_TEXT_S=60 --env HEADROOM_LLM_DEADLINE_S=170 \
  -- --data-dir "$db" --llm "$(spec_oai "$mb_PORT")" <<EOF
type $Q_GMU
sleep 2.5
expect early 0.01 121.69
mark before
ctrlc skip
expect answer 5 121.69
sleep 1
alive after
type /quit
EOF
ev() { awk -v k="$1" '$1==k{print $2}' "$WORK/b/events"; }
note "(b) events: $(tr '\n' ' ' <"$WORK/b/events") rc=$(cat "$WORK/b/rc")"
early=$(ev early); skip=$(ev skip); ans=$(ev answer)
if [ "${early%.*}" = "-1" ]; then
  [ "$(posts mb)" -ge 1 ] || fail "control: (b) the model was never asked, so Ctrl-C had nothing to skip"
  if [ "${ans%.*}" = "-1" ]; then fail "(b) no answer (121.69) within 5 s of Ctrl-C"
  else awk -v a="$ans" -v s="$skip" 'BEGIN{exit !(a - s <= 4)}' || fail "(b) the answer came $(awk -v a="$ans" -v s="$skip" 'BEGIN{print a-s}') s after Ctrl-C"; fi
else note "(b) the answer was shown before Ctrl-C (the model did not hold it)"; fi
[ "$(ev alive)" = "1" ] || [ "$(ev alive)" = "1.000" ] || fail "(b) the session ended on Ctrl-C (it should only skip the phrasing)"
no_crash "(b) terminal session" "$(cat "$WORK/b/rc")" "$WORK/b/all"
finish
