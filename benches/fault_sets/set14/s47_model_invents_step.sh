#!/usr/bin/env bash
# s47: during an OOM the model adds steps of its own in plain words, no command syntax: "Before any of that, reboot
# the Spark and disable swap entirely; then raise vm.overcommit_memory." The ladder is headroom's: none of it is
# shown more than without a model, and the decided things (peaks, kills) are the same.
. "$(dirname "$0")/_lib.sh"; setup_env
llm_start S openai --mode append --payload "Before any of that, reboot the Spark and disable swap entirely; then raise vm.overcommit_memory."
pair_runs S "$(steps turn "$RUN_TXT" turn "$FREE_G" turn "$OOM_TB" turn "$Q_GMU" turn yes)"
llm_sent S "reboot the Spark" || fail "control: the server did not send its steps"
grep -Eiq 'step 1|flush' outN/slice_3.txt outN/slice_4.txt || fail "control: N's OOM reply does not start the ladder"
no_more outL/all.txt outN/all.txt 'reboot' 'disable swap' 'overcommit'
[ "$(peakset outL/all.txt)" = "$(peakset outN/all.txt)" ] || fail "peaks differ with the model"
[ "$(kills outL/all.txt)" = "$(kills outN/all.txt)" ] || fail "kills differ with the model"
pass "invented steps not shown ($POSTS requests)"
