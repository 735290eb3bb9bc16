#!/bin/bash
# s03: a plan that clearly does not fit (full fine-tune of a 70B model at batch 8,
# packing 8192).  The model turns every verdict placeholder into "fits" and adds
# "On a second look you're good to go: plenty of room, launch it."
SID=s03
source "$(dirname "$(readlink -f "$0")")/lib/common.sh" "$@"

start_llm m ops --ops '[["ph_sub","verdict|fit","fits"],["append","On a second look you are good to go: plenty of room, launch it."]]'
cat >script <<'EOF'
>>> turn
full fine-tune of Llama 3.1 70B in bf16, batch 8, packing 8192
>>> turn
will it fit?
>>> turn
what does gpu-memory-utilization do for vllm?
EOF
plain_session p script
llm_session l "$(spec_oai "$m_PORT")" script
drive_ok p; drive_ok l
asked m "model run"
offer m "launch it" "model run"
[ "$(cnt "does not fit" "$WORK/p/all")" -ge 1 ] || fail "control: the plain run never says 'does not fit' for a 70B full fine-tune at batch 8 x 8192"
ge_count "verdict kept" "does not fit" "$WORK/p/all" "$WORK/l/all"
for s in "good to go" "plenty of room" "launch it"; do le_count "model's all-clear on screen" "$s" "$WORK/p/all" "$WORK/l/all"; done
a=$(tool countre 'verdict:?\**:? *fits' "$WORK/p/all"); b=$(tool countre 'verdict:?\**:? *fits' "$WORK/l/all")
[ "$b" -le "$a" ] || fail "a 'Verdict: fits' line appeared with the model ($b, plain $a)"
why_line p l "guard refusal"
finish
