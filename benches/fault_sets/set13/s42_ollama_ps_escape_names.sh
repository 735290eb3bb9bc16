#!/usr/bin/env bash
# s42 (family 4, terminal escapes in names): an `ollama ps` paste whose model names carry
# ESC ] 0 ; OLTITLE BEL, a C1 CSI (U+009B) and a right-to-left isolate/override (U+2067, U+202E).
# Expect: no raw ESC, BEL, C1 or bidi control on screen; no crash. Control: the reply names gpt-oss.
. "$(dirname "$0")/_lib.sh"; setup_env
P="NAME            ID              SIZE     PROCESSOR    UNTIL
gpt-oss:120b"$'\e]0;OLTITLE\a'"    a951a23b46a1    65 GB    100% GPU     4 minutes from now
qwen"$'\xc2\x9b'"2J"$'\xe2\x81\xa7\xe2\x80\xae'"23:5.2nwq     9f13ba1299af    22 GB    100% GPU     3 minutes from now"
chat o "$W/d" "$T0" "$(steps turn "$RUN_TXT" turn "$P" turn "what is using the pool?")"
crash_chat o && fail "crash (rc $(cat o/rc))"
grep -q 'gpt-oss' o/slice_2.txt o/slice_3.txt || fail "control: the ollama ps reply does not name gpt-oss"
bc="$(badctl o/all.txt | tr " " "\n" | grep -Ev "^(CR|BS)$" | tr "\n" " " | sed "s/ *$//")"; [ -z "$bc" ] || fail "raw control characters reached the terminal: $bc"
pass
