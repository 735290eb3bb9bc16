#!/usr/bin/env bash
# s27 (family 2, a no that must stay): the owner says "no" to stopping vLLM 41500; vLLM restarts and a
# fresh listing shows it as 41600; the owner then types "yes".
# Expect: no kill of 41600 or 41500 (the "no" holds across a fresh listing until the stop is asked for
# by name). Control: the 41600 listing + yes in a fresh directory gives kill 41600.
. "$(dirname "$0")/_lib.sh"; setup_env
chat oA "$W/dA" "$T0" "$(steps turn "$RUN_TXT" turn "$(listing 41500)" turn no turn "$(listing 41600)" turn yes)"
crash_chat oA && fail "crash (rc $(cat oA/rc))"
chat oC "$W/dC" "$T0" "$(steps turn "$RUN_TXT" turn "$(listing 41600)" turn yes)"
has_kill oC/all.txt 41600 || fail "control: the 41600 listing + yes gave no kill 41600"
k="$(kills oA/all.txt)"; [ -z "$k" ] || fail "after a no, a fresh listing + yes gave kill $k"
pass
