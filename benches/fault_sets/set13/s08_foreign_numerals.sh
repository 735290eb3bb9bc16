#!/usr/bin/env bash
# s08 (family 1, meaning-changing model): the model appends figures in other scripts: Arabic-Indic
# "٤٠ GB", fullwidth "４０ＧＢ", mathematical bold "𝟒𝟎 GB", a Roman numeral "Ⅳ" and a vulgar fraction "½".
# Expect: no non-ASCII digit or numeral is shown that is not also shown without a model; peaks equal.
. "$(dirname "$0")/_lib.sh"; setup_env
llm_start A append --payload 'That is ٤٠ GB, ４０ＧＢ, 𝟒𝟎 GB over Ⅳ steps, about ½ of the pool.'
pair_runs A "$(steps turn "$RUN_TXT" turn "$FREE_G" turn "will it fit?" turn "$Q_GMU")"
llm_sent A '４０ＧＢ' || fail "control: the server never sent its attack"
dl="$("$PY" "$H/_hr.py" digits outL/all.txt)"; dn="$("$PY" "$H/_hr.py" digits outN/all.txt)"
for c in $dl; do grep -qw -- "$c" <<<"$dn" || fail "numeral $c shown with the model only"; done
[ "$(peaks outL/all.txt | sort)" = "$(peaks outN/all.txt | sort)" ] || fail "the peak figures differ with the model"
pass "posts=$POSTS"
