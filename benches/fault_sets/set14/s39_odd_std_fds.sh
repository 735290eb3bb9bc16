#!/usr/bin/env bash
# s39: started from a cron job, a systemd unit or a broken wrapper: (a) stdin /dev/null; (b) stdin a directory;
# (c) stdin closed; (d) stdout closed; (e) stderr closed. No crash, no hang (5 s), and with stdout closed nothing lands in
# the transcript by accident (a file opened on fd 1).
. "$(dirname "$0")/_lib.sh"; setup_env
printf '%s\n\n%s\n\n' "$RUN_TXT" "$Q_GMU" > in.txt
go() { # NAME REDIRS...: runs headroom with its own data dir
  local n="$1"; shift; newdir "$W/d_$n"; local s; s=$(now_s)
  eval "HEADROOM_NOW=$T0 timeout 10 \"\$HR\" --data-dir \"\$W/d_$n\" $* ; echo \$? > \"\$W/rc_$n\""
  echo "$(elapsed "$s" "$(now_s)")" > "$W/el_$n"
}
go a "< /dev/null > o_a.txt 2> e_a.txt"
go b "< \"\$W\" > o_b.txt 2> e_b.txt"
go c "<&- > o_c.txt 2> e_c.txt"
go d "< in.txt >&- 2> e_d.txt"
go e "< in.txt > o_e.txt 2>&-"
grep -qi headroom o_a.txt || fail "control: (a) with stdin at /dev/null the greeting was not printed"
for n in a b c d e; do
  rc=$(cat rc_$n); el=$(cat el_$n)
  [ "$rc" = 124 ] && fail "($n) hung (timeout)"
  is_crash "$rc" e_$n.txt o_$n.txt 2>/dev/null && fail "($n) crash (rc $rc): $(grep -h -m1 -o 'panicked.*' e_$n.txt o_$n.txt 2>/dev/null | head -c 200)"
  lt "$el" 5 || fail "($n) took ${el}s"
done
[ "$(cat rc_a)" = 0 ] || fail "(a) exit $(cat rc_a) on an empty stdin"
[ "$(cnt o_e.txt 121.69)" -ge 1 ] || fail "(e) with stderr closed the question was not answered"
if [ -f "$W/d_d/transcript.jsonl" ]; then
  r="$("$PY" "$H/_hr.py" lines_ok "$W/d_d/transcript.jsonl")" || fail "(d) with stdout closed the transcript holds non-JSON (reply text written into it?): $r"
  [ "$(cnt "$W/d_d/transcript.jsonl" 'Verdict: ')" -le "$(cnt "$W/d_e/transcript.jsonl" 'Verdict: ')" ] || fail "(d) reply text landed in the transcript"
fi
pass "odd std fds: rc a=$(cat rc_a) b=$(cat rc_b) c=$(cat rc_c) d=$(cat rc_d) e=$(cat rc_e)"
