#!/usr/bin/env bash
# s09 (family 1, meaning-changing model): a word glued to every placeholder ("{figure2}zork",
# "{verdict1}zork"): every placeholder is returned once and in order, but each value ends up inside a
# word of the model's.
# Expect: "zork" is never shown.
. "$(dirname "$0")/_lib.sh"; setup_env
llm_start A after_each --payload 'zork'
pair_runs A "$(steps turn "$RUN_TXT" turn "$FREE_G" turn "$Q_GMU")" ollama
llm_sent A '}zork' || fail "control: the server never sent its attack"
n=$(cnt_i outL/all.txt zork); [ "$n" = 0 ] || fail "a value glued into the model's word was shown ($n x 'zork')"
grep -q '121.69' outL/all.txt || fail "the question was not answered with the model"
pass "posts=$POSTS"
