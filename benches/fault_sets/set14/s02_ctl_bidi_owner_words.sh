#!/usr/bin/env bash
# s02: the owner's own words carry terminal controls (OSC title, clear screen, C1 CSI, BEL, bidi overrides, zero-width),
# as text copied from a web page or a coloured terminal does. Whatever headroom quotes back must be escaped.
. "$(dirname "$0")/_lib.sh"; setup_env
E=$'\e'; B=$'\a'; C1=$'\u009b'; RLO=$'\u202e'; PDF=$'\u202c'; ZW=$'\u200b'; LRI=$'\u2066'; PDI=$'\u2069'
T1="QLoRA on Llama 3.1 70B, batch 1, max_seq_length=2048${E}]0;PWNED-TITLE${B}${E}[2J"
T2="actually packing 1024${RLO}8${PDF} ${C1}31m"
T3="what if batch ${LRI}4${PDI}${ZW}?"
T4="${E}[31mmy run is called ${RLO}gnp.exe${PDF} ${E}[0m and I like it"
chat out "$W/d" "$T0" "$(steps turn "$T1" turn "$T2" turn "$T3" turn "$T4" turn 'will it fit?')"
crash_chat out && fail "crash (rc $(cat out/rc))"
grep -Eq "$VERDICT_ANY_RX" out/all.txt || fail "control: no verdict at all, so the turns were not read"
b="$(badctl out/all.txt)"
for k in ESC BEL C1 BIDI CR BS NUL; do [[ " $b " == *" $k "* ]] && fail "raw $k on screen from the owner's words (found: $b)"; done
[ "$(cat out/rc)" = 0 ] || fail "exit $(cat out/rc)"
pass "no raw control or bidi character from the owner's words reached the screen"
