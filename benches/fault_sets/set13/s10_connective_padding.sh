#!/usr/bin/env bash
# s10 (family 1, hostile model): a faithful template followed by 2,500 repetitions of "and so "
# (about 17 KB: only connectives, far beyond three times the template's bytes).
# Expect: "and so and so" is never shown; the answer is still given.
. "$(dirname "$0")/_lib.sh"; setup_env
PAD="$(printf 'and so %.0s' $(seq 1 2500))"
llm_start A echo --tail "$PAD"
pair_runs A "$(steps turn "$RUN_TXT" turn "$Q_GMU")"
llm_sent A 'and so and so and so' || fail "control: the server never sent its padding"
n=$(cnt_i outL/all.txt 'and so and so'); [ "$n" = 0 ] || fail "the padding was shown ($n x)"
grep -q '121.69' outL/all.txt || fail "the question was not answered with the model"
pass "posts=$POSTS"
