#!/usr/bin/env bash
# Family: meaning-changing model, Unicode edition. A combining long-stroke overlay right after the first
# placeholder (strikes the verdict through), a right-to-left override, Unicode tag characters,
# full-width words and digits, a Roman numeral, a vulgar fraction, a zero-width joiner, a private-use
# character. The README lists each kind as refused.
source "$(dirname "$0")/_lib.sh"; setup_env
llm_start A after_first --esc --payload '\u0338\u20e5 \u202e\U000E0049\U000E0047 ｄｏｅｓ ｎｏｔ ｆｉｔ １２０ Ⅱ ½ \u200d\ue000'
ST="$(steps turn "$RUN_TXT" turn "$Q_GMU")"
pair_runs A "$ST"
grep -qi 'verdict' outL/all.txt || fail "control: no verdict in the reply with the model"
"$PY" - outL/all.txt <<'PY' || fail "a character the README says is refused reached the screen"
import sys, unicodedata
t = open(sys.argv[1], 'rb').read().decode('utf-8', 'replace')
bad = []
for ch in t:
    o = ord(ch)
    if o in (0x338, 0x20e5, 0x202e, 0x200d, 0xbd, 0xe000) or 0xE0000 <= o <= 0xE007F \
       or 0xFF01 <= o <= 0xFF5E or 0x2160 <= o <= 0x217F:
        bad.append(hex(o))
if bad:
    print(sorted(set(bad)), file=sys.stderr); sys.exit(1)
PY
pass "posts=$POSTS"
