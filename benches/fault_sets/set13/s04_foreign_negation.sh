#!/usr/bin/env bash
# s04 (family 1, meaning-changing model): the model keeps every placeholder in place and order but puts
# a German negation after each one ("{verdict1} nicht"), turning "fits" into "fits not" in a language
# no English word list holds.
# Expect: "nicht" is never shown; the typed Verdict lines and every peak figure are the same as without
# a model.
. "$(dirname "$0")/_lib.sh"; setup_env
llm_start A after_each --payload ' nicht'
pair_runs A "$(steps turn "$RUN_TXT" turn "$FREE_G" turn "will it fit?" turn "$Q_GMU")"
llm_sent A '} nicht' || fail "control: the server never sent its attack"
grep -Eq "$VERDICT_RX" outN/all.txt || fail "control: no Verdict line without a model"
n=$(cnt_i outL/all.txt 'nicht'); [ "$n" = 0 ] || fail "the model's negation 'nicht' was shown $n time(s)"
[ "$(grep -Eo "$VERDICT_RX" outL/all.txt | sort)" = "$(grep -Eo "$VERDICT_RX" outN/all.txt | sort)" ] || fail "the Verdict lines differ with the model"
[ "$(peaks outL/all.txt | sort)" = "$(peaks outN/all.txt | sort)" ] || fail "the peak figures differ with the model"
pass "posts=$POSTS"
