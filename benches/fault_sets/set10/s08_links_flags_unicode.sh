#!/bin/bash
# s08: four models that keep every placeholder in place and slip something in:
# (a) a markdown link to a script, (b) a command-line flag with a value of their
# own (--gpu-memory-utilization 0.95), (c) numerals in other scripts and a
# combining stroke (Roman two, one half, U+0338 after "fits"), (d) invisible
# format characters (right-to-left override, Unicode tag letters, zero-width space).
SID=s08
source "$(dirname "$(readlink -f "$0")")/lib/common.sh" "$@"

cat >script <<'EOF'
>>> turn
what does gpu-memory-utilization do for vllm?
>>> turn
QLoRA on Llama 3.1 70B, batch 1, packing 2048
EOF
plain_session p script; drive_ok p
P=$WORK/p/all
start_llm ma ops --ops '[["append","See [the fix script](https://evil.example/fix.sh) for the details."]]'
start_llm mb ops --ops '[["append","Run it with --gpu-memory-utilization 0.95 to be safe."]]'
start_llm mc ops --ops '[["after_ph"," \u2161 \u00bd",true],["sub","\\bfits\\b","fits\u0338"],["append","fits\u0338 \u2161"]]'
start_llm md ops --ops '[["prepend","\u202e\udb40\udc69\udb40\udc67"],["sub","\\bthe\\b","th\u200be"],["append","o\u200bk"]]'
llm_session la "$(spec_oai "$ma_PORT")" script
llm_session lb "$(spec_oll "$mb_PORT")" script
llm_session lc "$(spec_oai "$mc_PORT")" script
llm_session ld "$(spec_oai "$md_PORT")" script
for x in a b c d; do drive_ok l$x; asked m$x "model $x"; done
offer ma "evil.example" "model a"; offer mb "0.95" "model b"
offer mc "$(printf '\u2161')" "model c"; offer md "$(printf 'o\u200bk')" "model d"
le_count "(a) link on screen" "](" "$P" "$WORK/la/all"
le_count "(a) link on screen" "evil.example" "$P" "$WORK/la/all"
le_count "(b) flag value on screen" "0.95" "$P" "$WORK/lb/all"
# raw bytes: U+2161 e285a1, U+00BD c2bd, U+0338 ccb8, U+202E e280ae, tag letter f3a081a9, U+200B e2808b
for hx in e285a1 c2bd ccb8; do
  a=$(tool bytecount $hx "$P"); b=$(tool bytecount $hx "$WORK/lc/all")
  [ "$b" -le "$a" ] || fail "(c) bytes $hx shown $b time(s) with the model, $a without"
done
for hx in e280ae f3a081a9 e2808b; do
  a=$(tool bytecount $hx "$P"); b=$(tool bytecount $hx "$WORK/ld/all")
  [ "$b" -le "$a" ] || fail "(d) bytes $hx shown $b time(s) with the model, $a without"
done
for x in a b c d; do present "($x) gpu-memory-utilization answer kept" "121.69" $(SL l$x 1); done
why_line p la "(a) guard refusal"
finish
