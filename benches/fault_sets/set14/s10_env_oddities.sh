#!/usr/bin/env bash
# s10: odd environments: (a) HOME and every XDG_* unset with --data-dir; (b) HOME and XDG_* unset, no data dir named;
# (c) XDG_DATA_HOME relative ("rel/data"); (d) LC_ALL=C LANG=C with UTF-8 input; (e) TERM=dumb and TERM holding an escape.
# Interpretation (c): the XDG base-directory spec says a relative path there is invalid and must be ignored, so no
# directory appears under the working directory. (Each run has a scratch tmpfs over /root, the passwd home.)
. "$(dirname "$0")/_lib.sh"; setup_env
mkdir -p cwd
run_env() { # OUT ENV-ARGS... -- headroom args
  local out="$1"; shift; local ea=(); while [ "$1" != -- ]; do ea+=("$1"); shift; done; shift
  local spec; spec="$("$PY" -c 'import json,sys; a=sys.argv[1:]; print(json.dumps({"args":a[3:],"env":{"HEADROOM_NOW":a[0]},"timeout":20,
    "steps":[{"turn":a[1],"wait":5},{"turn":a[2],"wait":5}],"quiet":0.4,"start_wait":2}))' "$T0" "$RUN_TXT" "$Q_GMU" "$@")"
  # inside a private mount namespace with a scratch tmpfs over /root, so a fallback to the passwd home
  # (/root) writes nothing outside the work dir
  (cd "$W/cwd" && unshare -m --propagation private /bin/bash -c 'mount -t tmpfs -o size=64m tmpfs /root || exit 90; exec "$@"' _ \
     env "${ea[@]}" /usr/bin/python3 "$H/_drive.py" "$HR" "$W/$out" "$spec")
}
U=(-u HOME -u XDG_DATA_HOME -u XDG_CONFIG_HOME -u XDG_CACHE_HOME -u XDG_STATE_HOME -u XDG_RUNTIME_DIR)
run_env oa "${U[@]}" -- --data-dir "$W/da"
run_env ob "${U[@]}" --
run_env oc XDG_DATA_HOME=rel/data --
run_env od LC_ALL=C LANG=C -- --data-dir "$W/dd"
run_env oe TERM=dumb -- --data-dir "$W/de"
run_env of "TERM=xterm"$'\e]0;PWN\a' -- --data-dir "$W/df"
for o in oa ob oc od oe of; do
  crash_chat "$W/$o" && fail "$o: crash (rc $(cat $W/$o/rc))"
  e=$(sess_s "$W/$o"); lt "$e" 20 || fail "$o: took ${e}s"
done
for o in oa oc od oe of; do
  [ "$(cnt $W/$o/all.txt 121.69)" -ge 1 ] || fail "$o: the question was not answered (rc $(cat $W/$o/rc)): $(head -c 200 $W/$o/all.txt | tr '\n' ' ')"
done
# (b): answered, or a clean refusal that says why (exit 2 with text)
if [ "$(cnt $W/ob/all.txt 121.69)" -lt 1 ]; then
  [ "$(cat $W/ob/rc)" != 0 ] && [ "$(rcnt $W/ob/all.txt 'home|data.?dir|xdg|directory')" -ge 1 ] || fail "(b) no HOME: neither answered nor said why (rc $(cat $W/ob/rc))"
fi
[ -e "$W/cwd/rel" ] && fail "(c) a relative XDG_DATA_HOME made $(find $W/cwd/rel | head -n 3 | tr '\n' ' ') under the working directory"
b="$(badctl $W/of/all.txt)"; [[ " $b " == *" ESC "* || " $b " == *" BEL "* ]] && fail "(e) TERM's escape reached the screen"
pass "odd environments handled (b rc $(cat $W/ob/rc))"
