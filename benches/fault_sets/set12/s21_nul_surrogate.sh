#!/usr/bin/env bash
# Family 3 (garbled). The stream is well-formed JSON whose content carries a NUL (\u0000), a lone surrogate
# (\ud800) and NULMARK-44 between pieces of the template. No NUL byte reaches the terminal, NULMARK is never
# shown, no more U+FFFD replacement characters are shown than without a model, and the answer is shown.
source "$(dirname "$0")/_lib.sh"; setup_env
llm_start A echo --behave nul --marker NULMARK-44
ST="$(steps turn "$Q_GMU" until '121\.69' wait 20 turn "$RUN_TXT" until 'Verdict' wait 20)"
pair_runs A "$ST"
"$PY" -c 'import sys; sys.exit(1 if b"\x00" in open(sys.argv[1],"rb").read() else 0)' outL/all.txt || fail "a NUL byte reached the terminal"
[ "$(cnt outL/all.txt NULMARK)" = 0 ] || fail "the garbled answer (NULMARK) reached the screen"
no_more outL/all.txt outN/all.txt $'\xef\xbf\xbd'
grep -q '121\.69' outL/all.txt || fail "headroom's own answer (121.69) is missing"
grep -q 'Verdict' outL/all.txt || fail "no verdict for the run with the model"
pass "posts=$POSTS"
