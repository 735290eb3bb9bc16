#!/usr/bin/env bash
# s38: a 5 MB paste (a training log, no blank line) between a plan and a what-if: answered,
# the session goes on, under 20 s. Then a 9 MiB turn with no blank line (over the 8 MiB
# limit): reading stops with one line saying so, every earlier turn was answered and kept,
# no crash. The restart remembers the run.
SID=s38
. "$(dirname "$0")/lib.sh" "$@"

python3 - "$T/log5m.txt" 5000000 "$T/log9m.txt" 9437184 <<'PY'
import sys
def write(path, n):
    line = "{'loss': 1.8123, 'grad_norm': 0.41, 'learning_rate': 0.0002, 'epoch': %.4f}\n"
    out, size, i = [], 0, 0
    while size < n:
        s = line % (i / 100000.0)
        out.append(s); size += len(s); i += 1
    open(path, "w").write("".join(out))
write(sys.argv[1], int(sys.argv[2])); write(sys.argv[3], int(sys.argv[4]))
PY
{ printf '%s\n\n' "$RUN_TXT"; cat "$T/log5m.txt"; printf '\nwhat if batch 4?\n\n'; } >"$T/in1.txt"
{ printf 'will it fit?\n\n'; cat "$T/log9m.txt"; printf '\nwhat if batch 8?\n\n'; } >"$T/in2.txt"
# the 9 MiB turn has no blank line inside; the what-if above is glued to it on purpose
D=$(mkdd data)
run a "$NOW0" "$D" <"$T/in1.txt"
run b "2026-11-29T15:01:00Z" "$D" <"$T/in2.txt"
chat c "2026-11-29T15:02:00Z" "$D" "will it fit?"

rc_is a 0 || bad "the 5 MB session exited $(rc_of a)"
[ "$(ms_of a)" -lt 20000 ] || bad "the 5 MB paste took $(ms_of a) ms"
has a "$PEAK2" || bad "the plan before the 5 MB paste was not shown"
has a "$PEAK4" || bad "the what-if after the 5 MB paste was not answered"
sane_rc b || bad "the 9 MiB turn: exit $(rc_of b) (killed or crashed)"
panicked b && bad "the 9 MiB turn panicked"
has b "$PEAK2" || bad "the turn before the 9 MiB turn was not answered"
has b '8 ?mib|too (long|large|big)|limit|blank line|stopped reading|over ' || bad "[W] no line saying the 9 MiB turn is over the limit"
rc_is c 0 || bad "the restart exited $(rc_of c)"
has c "$PEAK2" || bad "the restart after the big pastes lost the run"
jb=$(jsonl_bad "$(transcript_of "$D")"); [ -z "$jb" ] || bad "transcript line $jb is torn"
finish
