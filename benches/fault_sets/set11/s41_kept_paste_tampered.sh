#!/usr/bin/env bash
# Family: pastes over 64 KiB kept in pastes/. After a session that pasted a 160 KiB `ps aux`, the kept
# paste is (a) grown by a few bytes, (b) deleted, (c) replaced by a FIFO, (d) replaced by a symlink to
# /dev/zero. Each restart is quick, never hangs, and its greeting says the paste was not used ("A paste
# you gave on … was not used: …; paste it fresh"). Control: an untouched copy says no such thing.
source "$(dirname "$0")/_lib.sh"; setup_env
"$PY" "$H/_gen.py" bigps "$W/big.txt" rows=1500
[ "$(wc -c < big.txt)" -gt 70000 ] || fail "harness: paste not over 64 KiB"
chat outA "$W/d" "$T0" "$(steps turn "$RUN_TXT" file "$W/big.txt")"
crash_chat outA && fail "A: crash (rc $(cat outA/rc))"
n=$(find "$W/d/pastes" -maxdepth 1 -type f 2>/dev/null | wc -l)
[ "$n" -ge 1 ] || fail "control: no kept paste in pastes/ after a 160 KiB paste"
for c in ok grown gone fifo link; do
  cp -a "$W/d" "$W/d_$c"
  for f in $(find "$W/d_$c/pastes" -maxdepth 1 -type f); do
    case $c in
      grown) printf 'EXTRA\n' >> "$f";;
      gone) rm -f "$f";;
      fifo) rm -f "$f"; mkfifo "$f";;
      link) rm -f "$f"; ln -s /dev/zero "$f";;
    esac
  done
  s=$(now_s)
  chat "out_$c" "$W/d_$c" "$(at 1800)" "$(steps turn "/status")" '[]' '{}' 20
  el=$(elapsed "$s" "$(now_s)")
  crash_chat "out_$c" && fail "($c) restart hung or crashed (rc $(cat out_$c/rc), ${el}s)"
  lt "$el" 10 || fail "($c) restart took ${el}s"
  if [ $c = ok ]; then
    grep -qi 'not used' out_ok/all.txt && fail "control: the untouched paste is already reported 'not used'"
  else
    grep -qi 'not used' "out_$c/all.txt" || fail "[W] ($c) the restart does not say the kept paste was not used"
    grep -qi 'paste it fresh' "out_$c/all.txt" || fail "[W] ($c) the restart does not ask to paste it fresh"
  fi
done
pass
