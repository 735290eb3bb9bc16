#!/bin/bash
# s42: absurd figures at every bound the README sets.  procs --need nan, inf, -1,
# 1e400; a free -g whose available (500) exceeds its total (119) and one with a
# negative available, as --free and as a chat paste; batch 0 and 65,537, packing
# 4,194,305, LoRA rank 0; a config.json with hidden_size 0 and one with 10^12
# layers.  Each flag is exit 2; the chat names the impossible figure and goes on.
# Controls: the same calls with sane values do not exit 2.
SID=s42
source "$(dirname "$(readlink -f "$0")")/lib/common.sh" "$@"

H=$(mkdata hd); E="HEADROOM_DATA_DIR=$H"
listing >ps.txt
free_g 500 119 >over.txt
{ printf '               total        used        free      shared  buff/cache   available\n'
  printf 'Mem:             119           4          80           0          35          -5\n'
  printf 'Swap:             15           0          15\n'; } >neg.txt
free_g 115 >good.txt
CFG='"architectures":["LlamaForCausalLM"],"model_type":"llama","hidden_act":"silu","intermediate_size":14336,"num_attention_heads":32,"num_key_value_heads":8,"vocab_size":128256,"max_position_embeddings":131072,"rms_norm_eps":1e-05,"rope_theta":500000.0,"tie_word_embeddings":false,"torch_dtype":"bfloat16","head_dim":128'
echo "{$CFG,\"hidden_size\":4096,\"num_hidden_layers\":32}" >cfg.json
echo "{$CFG,\"hidden_size\":0,\"num_hidden_layers\":32}" >cfg0.json
echo "{$CFG,\"hidden_size\":4096,\"num_hidden_layers\":1000000000000}" >cfgbig.json
PLAN="plan --params 70B --method qlora"
i=0
expect2() { # expect2 LABEL ARGS...: exit 2, no crash
  i=$((i + 1)); run1 "x$i" 10 $E -- "${@:2}"
  no_crash "$1" "$(rc_of x$i)" "$WORK/x$i.out" "$WORK/x$i.err"
  [ "$(rc_of x$i)" = 2 ] || fail "$1: exit $(rc_of x$i), not 2"
}
not2() { # not2 LABEL ARGS...: control, no exit 2, no crash
  i=$((i + 1)); run1 "x$i" 20 $E -- "${@:2}"
  no_crash "$1" "$(rc_of x$i)" "$WORK/x$i.out" "$WORK/x$i.err"
  [ "$(rc_of x$i)" != 2 ] || fail "control: $1 exits 2 with sane values"
}
for v in nan inf -1 1e400; do expect2 "procs --need $v" procs ps.txt --need "$v"; done
not2 "procs --need 40" procs ps.txt --need 40
expect2 "--free with available 500 of total 119" $PLAN --free over.txt
grep -aq 500 "$WORK/x$i.out" "$WORK/x$i.err" || fail "--free over.txt: the impossible figure (500) is not named"
expect2 "--free with available -5" $PLAN --free neg.txt
not2 "--free good.txt" $PLAN --free good.txt
expect2 "--batch 0" $PLAN --batch 0
expect2 "--batch 65537" $PLAN --batch 65537
expect2 "--pack 4194305" $PLAN --pack 4194305
expect2 "--lora-rank 0" plan --params 8B --method lora --lora-rank 0
not2 "--batch 1 --pack 2048" $PLAN --batch 1 --pack 2048
expect2 "--config hidden_size 0" plan --config cfg0.json --method lora
expect2 "--config 10^12 layers" plan --config cfgbig.json --method lora
not2 "--config sane" plan --config cfg.json --method lora
# the chat: an impossible free paste, then the session goes on
D=$(mkdata d)
{ echo ">>> turn"; echo "$RUN"; echo ">>> turn"; cat over.txt; printf '>>> turn\n%s\n' "$Q_GMU"; } >script
drive a 40 --env HEADROOM_NOW=$T0 -- --data-dir "$D" <script
drive_ok a
grep -aq 500 $(SL a 2) || fail "chat: the impossible available (500) is not named"
big=$( (tool budgets "$WORK/a/all") | tr -d , | awk '$1 > 200' | head -3 | tr '\n' ' ')
[ -z "$big" ] || fail "chat: the impossible free paste became a budget: $big GB"
present "chat: the session goes on after an impossible paste" "121.69" $(SL a 3)
finish
