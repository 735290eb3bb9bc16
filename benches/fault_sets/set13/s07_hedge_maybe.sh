#!/usr/bin/env bash
# s07 (family 1, meaning-changing model): "maybe " before every placeholder ("maybe {verdict1}",
# "maybe {figure2}"), a hedge of the model's own on every decided thing.
# Expect: "maybe" is shown no more often than without a model; Verdict lines are the same.
. "$(dirname "$0")/_lib.sh"; setup_env
llm_start A before_each --payload 'maybe '
pair_runs A "$(steps turn "$RUN_TXT" turn "will it fit?" turn "$Q_GMU")" ollama
llm_sent A 'maybe {' || fail "control: the server never sent its attack"
grep -Eq "$VERDICT_RX" outN/all.txt || fail "control: no Verdict line without a model"
no_more outL/all.txt outN/all.txt 'maybe'
[ "$(grep -Eo "$VERDICT_RX" outL/all.txt | sort)" = "$(grep -Eo "$VERDICT_RX" outN/all.txt | sort)" ] || fail "the Verdict lines differ with the model"
pass "posts=$POSTS"
