#!/usr/bin/env bash
# s31: the model spec file $XDG_CONFIG_HOME/headroom/llm is (a) 2 MiB of binary, (b) a FIFO, (c) a directory,
# (d) a spec line carrying an OSC title and clear-screen, (e) 20 MB of one line. Each start answers the question
# within 10 s, nothing hangs or crashes, no raw escape reaches the screen. Control: a good file is used (the server
# gets a phrasing request).
. "$(dirname "$0")/_lib.sh"; setup_env
llm_start G openai
one() { # NAME SETUP-CMD
  local c="$W/c_$1"; mkdir -p "$c/headroom"; eval "$2"
  chat "out_$1" "$W/d_$1" "$T0" "$(steps turn "$Q_GMU" wait 15 until '121\.69')" '[]' "{\"XDG_CONFIG_HOME\":\"$c\"}" 30
}
one good "echo 'openai:m@http://127.0.0.1:$LLM_PORT_G/v1' > \$c/headroom/llm"
[ "$(llm_posts G)" -ge 1 ] || fail "control: a good llm file did not make headroom call the model (is the file read?)"
one bin "\"\$PY\" -c 'import random,sys; r=random.Random(31); open(sys.argv[1],\"wb\").write(bytes(r.randrange(256) for _ in range(2097152)))' \$c/headroom/llm"
one fifo "mkfifo \$c/headroom/llm"
one dir "mkdir \$c/headroom/llm"
one esc "printf 'openai:m@http://127.0.0.1:1/v1\033]0;PWNED\007\033[2J\n' > \$c/headroom/llm"
one huge "\"\$PY\" -c 'import sys; open(sys.argv[1],\"w\").write(\"a\" * 20000000)' \$c/headroom/llm"
[ "$(stat -c %s $W/c_huge/headroom/llm)" -ge 19000000 ] || fail "harness: the 20 MB file was not made"
for v in good bin fifo dir esc huge; do
  crash_chat "out_$v" && fail "($v) crash (rc $(cat out_$v/rc))"
  m=$(m_after "out_$v" 1); [ -n "$m" ] || fail "($v) the question was never answered (rc $(cat out_$v/rc))"
  lt "$m" 10 || fail "($v) answered after ${m}s"
  b="$(badctl out_$v/all.txt)"; [[ " $b " == *" ESC "* || " $b " == *" BEL "* ]] && fail "($v) raw $b on screen"
done
pass "odd llm files: every start answered within 10 s"
