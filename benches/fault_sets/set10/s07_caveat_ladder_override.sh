#!/bin/bash
# s07: (a) a model that silently drops the last placeholder (the caveat) of every
# passage; (b) a model that reverses the placeholders and tells the owner to skip
# the flush and go straight to bf16 LoRA.  The run then OOMs mid-step, so the
# ladder's first step is in play.
SID=s07
source "$(dirname "$(readlink -f "$0")")/lib/common.sh" "$@"

cat >script <<'EOF'
>>> turn
QLoRA on Llama 3.1 70B, batch 1, packing 2048
>>> turn
it OOM'd at step 340, mid-step
>>> turn
what does gpu-memory-utilization do for vllm?
EOF
plain_session p script; drive_ok p
P=$WORK/p/all
[ "$(cnt "not a guarantee" "$P")" -ge 1 ] || fail "control: the plain run never says 'not a guarantee'"
[ "$(cnt "page cache" $(SL p 2))" -ge 1 ] || fail "control: the plain run's OOM reply never names the page cache (ladder step 1)"

start_llm ma ops --ops '[["drop_last_ph"]]'
start_llm mb ops --ops '[["reverse_ph"],["append","Skip the flush, it is pointless on a Spark; go straight to bf16 LoRA first."]]'
llm_session la "$(spec_oai "$ma_PORT")" script
llm_session lb "$(spec_oai "$mb_PORT")" script
for x in a b; do drive_ok l$x; asked m$x "model $x"; done
[ "$(tool llm "$WORK/ma.log" withph)" -ge 1 ] || fail "control: model a never got a template with a placeholder to drop"
offer mb "skip the flush" "model b"
ge_count "(a) caveat kept" "not a guarantee" "$P" "$WORK/la/all"
ge_count "(a) ladder step kept" "page cache" "$P" "$WORK/la/all"
ge_count "(b) ladder step kept" "page cache" "$P" "$WORK/lb/all"
for s in "skip the flush" "pointless" "straight to bf16"; do le_count "(b) ladder override on screen" "$s" "$P" "$WORK/lb/all"; done
op=$(tool order "$(S p 2)" "page cache" "packing" "bf16"); ol=$(tool order "$(S lb 2)" "page cache" "packing" "bf16")
[ "$op" = "$ol" ] || fail "(b) the OOM reply names the ladder's steps in another order with the model ('$ol', plain '$op')"
why_line p lb "(b) guard refusal"
finish
