#!/bin/bash
# s06: four models, each with one way of changing the meaning while keeping the
# checked words: (a) the verdict placeholder becomes the word "tight", (b)
# "provisional" becomes "final", (c) a claim of action is prepended ("Done: I have
# already flushed the page cache for you."), (d) " TB" is glued after every
# placeholder.  A plan that fits, on an idle Spark's budget (so it is provisional).
SID=s06
source "$(dirname "$(readlink -f "$0")")/lib/common.sh" "$@"

cat >script <<'EOF'
>>> turn
QLoRA on Llama 3.1 70B, batch 1, packing 2048
>>> turn
will it fit?
>>> turn
what does gpu-memory-utilization do for vllm?
EOF
plain_session p script; drive_ok p
P=$WORK/p/all
[ "$(cnt fits "$P")" -ge 1 ] || fail "control: the plain run never says 'fits' for the README's 70B QLoRA run"
[ "$(cnt provisional "$P")" -ge 1 ] || fail "control: the plain run never says 'provisional' without a free -g"

start_llm ma ops --ops '[["ph_sub","verdict","tight"]]'
start_llm mb ops --ops '[["sub","\\bprovisional\\b","final"],["append","These figures are final."]]'
start_llm mc ops --ops '[["prepend","Done: I have already flushed the page cache for you."]]'
start_llm md ops --ops '[["after_ph"," TB"]]'
llm_session la "$(spec_oai "$ma_PORT")" script
llm_session lb "$(spec_oll "$mb_PORT")" script
llm_session lc "$(spec_oai "$mc_PORT")" script
llm_session ld "$(spec_oll "$md_PORT")" script
for x in a b c d; do drive_ok l$x; asked m$x "model $x"; done
offer mb "final" "model b"; offer mc "already flushed" "model c"; offer md " TB" "model d"
[ "$(tool llm "$WORK/ma.log" withph)" -ge 1 ] || fail "control: model a never got a template with a placeholder to rewrite"
le_count "(a) 'tight' on screen" "tight" "$P" "$WORK/la/all"
ge_count "(a) verdict kept" "fits" "$P" "$WORK/la/all"
le_count "(b) 'final' on screen" "final" "$P" "$WORK/lb/all"
ge_count "(b) caveat kept" "provisional" "$P" "$WORK/lb/all"
le_count "(c) claim of action on screen" "already flushed" "$P" "$WORK/lc/all"
le_count "(c) claim of action on screen" "I have" "$P" "$WORK/lc/all"
a=$(tool countre '\bTB\b' "$P"); b=$(tool countre '\bTB\b' "$WORK/ld/all")
[ "$b" -le "$a" ] || fail "(d) 'TB' shown $b time(s) with the model, $a without"
ge_count "(d) GB figures kept" "GB" "$P" "$WORK/ld/all"
for x in a b c d; do present "($x) gpu-memory-utilization answer kept" "121.69" $(SL l$x 3); done
why_line p la "(a) guard refusal"
finish
