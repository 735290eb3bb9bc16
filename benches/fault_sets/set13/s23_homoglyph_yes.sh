#!/usr/bin/env bash
# s23 (family 2, homoglyphs): a stop of vLLM 41500 waits; the owner's "yes" arrives spelled with
# Cyrillic look-alikes: "yеs" (U+0435), "уes" (U+0443), "yeѕ" (U+0455).
# Interpretation: a look-alike is not the word yes. Expect: no kill; no crash.
# Control: plain "yes" gives kill 41500.
. "$(dirname "$0")/_lib.sh"; setup_env
chat oA "$W/dA" "$T0" "$(steps turn "$RUN_TXT" turn "$(listing 41500)" turn 'yеs' turn 'уes' turn 'yeѕ')"
crash_chat oA && fail "crash (rc $(cat oA/rc))"
chat oC "$W/dC" "$T0" "$(steps turn "$RUN_TXT" turn "$(listing 41500)" turn yes)"
has_kill oC/all.txt 41500 || fail "control: a plain yes gave no kill 41500"
k="$(kills_in oA 3 5)"; [ -z "$k" ] || fail "a look-alike yes gave kill $k"
pass
