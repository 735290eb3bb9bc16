#!/usr/bin/env bash
# s55: pastes nested absurdly deep: a config.json with 200,000 nested arrays, a YAML mapping 1,500 levels deep, a
# TrainingArguments( with 100,000 nested parentheses. No stack overflow or crash; the session answers the next question
# and keeps the run.
. "$(dirname "$0")/_lib.sh"; setup_env
"$PY" -c 'import sys; open(sys.argv[1],"w").write("{\"architectures\": [\"LlamaForCausalLM\"], \"hidden_size\": 4096, \"x\": " + "["*200000 + "]"*200000 + "}\n")' j.txt
"$PY" -c 'import sys; open(sys.argv[1],"w").write("micro_batch_size: 2\n" + "".join("  "*i + "k%d:\n" % i for i in range(1500)) + "  "*1500 + "v: 1\n")' y.txt
"$PY" -c 'import sys; open(sys.argv[1],"w").write("TrainingArguments(per_device_train_batch_size=1, x=" + "("*100000 + ")"*100000 + ")\n")' t.txt
chat out "$W/d" "$T0" "$(steps turn "$RUN_TXT" file "$W/j.txt" wait 10 file "$W/y.txt" wait 10 file "$W/t.txt" wait 10 turn "$Q_GMU" wait 15 until '121\.69' turn 'will it fit?')" '[]' '{}' 80
crash_chat out && fail "crash (rc $(cat out/rc)): $(grep -m1 -o 'panicked.*\|overflowed.*' out/all.txt)"
[ -n "$(m_after out 5)" ] || fail "the question after the deep pastes was not answered"
grep -Eq "$VERDICT_ANY_RX" out/slice_6.txt || fail "'will it fit?' got no verdict after the deep pastes"
[ "$(cat out/rc)" = 0 ] || fail "exit $(cat out/rc)"
pass "deep nesting survived"
