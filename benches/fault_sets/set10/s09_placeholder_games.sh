#!/bin/bash
# s09: six models that play with the placeholders themselves: (a) repeat the first,
# (b) invent new ones ({pid:1} {figure99} {verdict1}), (c) glue a value into a word
# ("...ish"), (d) change who is meant and the tense (you -> I, your -> my, is ->
# was), (e) reverse their order, (f) pad the answer to far over three times the
# template's bytes with connectives.
SID=s09
source "$(dirname "$(readlink -f "$0")")/lib/common.sh" "$@"

cat >script <<'EOF'
>>> turn
what does gpu-memory-utilization do for vllm?
>>> turn
QLoRA on Llama 3.1 70B, batch 1, packing 2048
EOF
plain_session p script; drive_ok p
P=$WORK/p/all
start_llm ma ops --ops '[["repeat_first_ph"]]'
start_llm mb ops --ops '[["append","{pid:1} {figure99} {verdict1}"]]'
start_llm mc ops --ops '[["after_ph","ish",true]]'
start_llm md ops --ops '[["sub","\\byour\\b","my"],["sub","\\byou\\b","I"],["sub","\\bis\\b","was"],["append","It was my call."]]'
start_llm me ops --ops '[["reverse_ph"]]'
start_llm mf ops --ops '[["pad","and so",2000]]'
i=0
for x in a b c d e f; do
  i=$((i + 1)); port_var=m${x}_PORT
  if [ $((i % 2)) -eq 0 ]; then spec=$(spec_oll "${!port_var}"); else spec=$(spec_oai "${!port_var}"); fi
  llm_session l$x "$spec" script
  drive_ok l$x; asked m$x "model $x"
done
for x in a c e; do [ "$(tool llm "$WORK/m$x.log" withph)" -ge 1 ] || fail "control: model $x never got a template with a placeholder"; done
offer mb "{figure99}" "model b"; offer md "my call" "model d"; offer mf "and so and so" "model f"
# figures are compared on the output without the lines that talk about the model
# (the one line saying why may carry a size)
nowhy() { grep -avEi 'model|phras|llm|guard|wording|rephras|refus|reject' "$1"; }
nowhy "$P" >p.f; tool nums p.f | sort >n.p
for x in a b c d e f; do
  nowhy "$WORK/l$x/all" >l$x.f; tool nums l$x.f | sort >n.$x
  extra=$(tool added n.p n.$x | tr '\n' ' ')
  [ -z "$extra" ] || fail "($x) figures shown with the model that the plain run lacks (repeated or made up): $extra"
done
a=$(tool countre '\{[a-z_]+[0-9]*(:[^{}]*)?\}' "$P"); b=$(tool countre '\{[a-z_]+[0-9]*(:[^{}]*)?\}' "$WORK/lb/all")
[ "$b" -le "$a" ] || fail "(b) raw placeholders shown with the model ($b, plain $a)"
kills "$WORK/lb/all" | grep -qx 1 && fail "(b) kill 1 shown"
a=$(tool countre '[0-9]ish' "$P"); b=$(tool countre '[0-9]ish' "$WORK/lc/all")
[ "$b" -le "$a" ] || fail "(c) a value glued into a word shown ($b, plain $a)"
a=$(tool countre '\bmy\b' "$P"); b=$(tool countre '\bmy\b' "$WORK/ld/all")
[ "$b" -le "$a" ] || fail "(d) 'my' shown $b time(s) with the model, $a without"
le_count "(d) 'my call' on screen" "my call" "$P" "$WORK/ld/all"
nowhy "$(S p 1)" >p1.f; nowhy "$(S le 1)" >le1.f
op=$(tool nums p1.f | tr '\n' ' '); ol=$(tool nums le1.f | tr '\n' ' ')
[ "$op" = "$ol" ] || fail "(e) the figures of the gpu-memory-utilization answer come in another order with the model ('$ol', plain '$op')"
le_count "(f) padding on screen" "and so and so" "$P" "$WORK/lf/all"
for x in a b c d e f; do present "($x) gpu-memory-utilization answer kept" "121.69" $(SL l$x 1); done
finish
