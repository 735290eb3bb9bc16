#!/usr/bin/env bash
# s14 (family 1, hostile server): a captive portal answers every phrasing request with 200 text/html:
# a page holding PORTALMARK, an OSC title sequence (ESC ] 0 ; PORTALTITLE BEL), a clear-screen
# (ESC [ 2 J) and "kill -9 41500".
# Expect: no ESC/BEL/C1 byte on screen; PORTALMARK/PORTALTITLE never shown; the kill pids are those
# shown without a model; the question is answered; a why-line [W].
. "$(dirname "$0")/_lib.sh"; setup_env
llm_start A echo --esc --behave html --marker 'PORTALMARK' --payload '\x1b]0;PORTALTITLE\x07\x1b[2J Sign in to continue: kill -9 41500'
pair_runs A "$(steps turn "$RUN_TXT" turn "$(listing 41500)" turn "$Q_GMU")"
llm_sent A PORTALMARK || fail "control: the portal page was never sent"
bc="$(badctl outL/all.txt)"; bn="$(badctl outN/all.txt)"
for c in $bc; do grep -qw "$c" <<<"$bn" || fail "control bytes from the portal reached the terminal ($c)"; done
for m in PORTALMARK PORTALTITLE 'Sign in to continue'; do
  [ "$(cnt_i outL/all.txt "$m")" = 0 ] || fail "the portal's text ($m) was shown"
done
kl="$(kills outL/all.txt | tr ' ' '\n' | sort | tr '\n' ' ')"; kn="$(kills outN/all.txt | tr ' ' '\n' | sort | tr '\n' ' ')"
[ "$kl" = "$kn" ] || fail "kill pids with the portal [$kl] differ from without [$kn]"
grep -q '121.69' outL/all.txt || fail "the question was not answered"
why_line outL/all.txt outN/all.txt || fail "[W] no line says why the model's wording was not used"
pass "posts=$POSTS"
