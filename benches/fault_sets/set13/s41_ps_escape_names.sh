#!/usr/bin/env bash
# s41 (family 4, terminal escapes in names): a `ps aux` paste whose vLLM command line carries an OSC
# title sequence (ESC ] 0 ; PSTITLE BEL), a clear-screen (ESC [ 2 J), a C1 CSI (U+009B) and a
# right-to-left override (U+202E); in the chat and through `headroom procs FILE`.
# Interpretation: headroom's control-character escaping (README: render/terminal.rs) covers what it
# echoes from a paste, as the issue asks for network strings. Expect: no raw ESC, BEL, C1 or bidi
# control on stdout/stderr in either. Controls: 41500 is named, and yes gives kill 41500.
. "$(dirname "$0")/_lib.sh"; setup_env
EV=$'\e]0;PSTITLE\a\e[2J\xc2\x9b31m\xe2\x80\xaeMROFTALP'
L="$ps_header
owner      41500  2.1 38.0 132144400 47185920 ?    Sl   13:02   4:11 /usr/bin/python3 -m vllm.entrypoints.openai.api_server --model meta-llama/Llama-3.1-8B-Instruct --served-model-name evil${EV} --port 8000
$(ps_ollama 41700)"
chat o "$W/d" "$T0" "$(steps turn "$RUN_TXT" turn "$L" turn yes)"
crash_chat o && fail "crash (rc $(cat o/rc))"
grep -q 41500 o/slice_2.txt || fail "control: the listing reply does not name 41500"
has_kill o/all.txt 41500 || fail "control: yes gave no kill 41500"
bc="$(badctl o/all.txt | tr " " "\n" | grep -Ev "^(CR|BS)$" | tr "\n" " " | sed "s/ *$//")"; [ -z "$bc" ] || fail "raw control characters reached the terminal in the chat: $bc"
printf '%s\n' "$L" > "$W/ps.txt"
tcall procs 15 procs "$W/ps.txt"
is_crash "$TC_RC" "$W/procs.out" && fail "procs crashed (exit $TC_RC)"
grep -q 41500 "$W/procs.out" || fail "control: procs does not name 41500"
bc="$(badctl "$W/procs.out" | tr " " "\n" | grep -Ev "^(CR|BS)$" | tr "\n" " " | sed "s/ *$//")"; [ -z "$bc" ] || fail "raw control characters reached the terminal from procs: $bc"
pass
