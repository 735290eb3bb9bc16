#!/usr/bin/env bash
# Family: escape sequences from the network. The streamed answer carries an OSC title change, a clear
# screen, an OSC 52 clipboard write and a C1 CSI. Every string from the network is escaped before it
# reaches the terminal; with NO_COLOR and a pipe headroom itself prints no control bytes.
source "$(dirname "$0")/_lib.sh"; setup_env
llm_start A after_first --esc --payload '\x1b]0;PWNED-TITLE\x07\x1b[2J\x1b[1;1H\x1b]52;c;cm0gLXJmIH4K\x07\u009b31m'
ST="$(steps turn "$RUN_TXT" turn "$Q_GMU")"
pair_runs A "$ST"
grep -qi 'verdict' outL/all.txt || fail "control: no verdict in the reply with the model (the place the text would be)"
no_ctl_bytes outL/all.txt || fail "a control byte (ESC/BEL/C1) from the model reached the terminal"
grep -q 'PWNED-TITLE' outL/all.txt && fail "the model's escape payload text reached the screen"
pass "posts=$POSTS"
