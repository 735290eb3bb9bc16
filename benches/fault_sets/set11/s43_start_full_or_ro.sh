#!/usr/bin/env bash
# Family: full disk / read-only filesystem at start. A session saves a run; then (a) the tmpfs is filled,
# (b) it is remounted read-only. A start that cannot write is read-only: what was saved is replayed and
# answered against ("will it fit?" gets a verdict), one line says so, nothing new is saved (the transcript
# is byte-for-byte unchanged).
source "$(dirname "$0")/_lib.sh"; setup_env
# A filled tmpfs still accepts appends inside the transcript's last, partly used page. So that the start
# really cannot write, one extra owner turn ("note: zzz…") is sized so that the transcript ends less than
# 100 bytes before a page boundary (smaller than any record a start writes).
pad_tail() { # DATADIR
  local d="$1" bk="$W/padbk" s k d0 d1 m want try slack
  rm -rf "$bk"; cp -a "$d" "$bk"
  s=$(stat -c %s "$d/transcript.jsonl")
  padrun() { rm -rf "$d"/* "$d"/.[!.]* 2>/dev/null; cp -a "$bk"/. "$d"/
    chat "$W/pad_out" "$d" "$(at 300)" "$(steps turn "note: $(head -c "$1" /dev/zero | tr '\0' z)")" >/dev/null
    echo $(( $(stat -c %s "$d/transcript.jsonl") - s )); }
  d0=$(padrun 10); d1=$(padrun 410)
  m=$(( (d1 - d0) / 400 )); [ "$m" -ge 1 ] || m=1
  want=$(( ( (4096 - 50) - (s + d0) % 4096 + 4096 ) % 4096 ))
  k=$(( 10 + want / m ))
  for try in 1 2 3 4 5 6; do
    dk=$(padrun "$k"); slack=$(( (4096 - (s + dk) % 4096) % 4096 ))
    [ "$slack" -lt 100 ] && return 0
    k=$(( k + (slack - 50) / m )); [ "$k" -ge 1 ] || k=$(( k + 4096 / m ))
  done
  fail "harness: could not size the transcript to a page boundary (slack $slack)"
}
for c in full ro; do
  mk_tmpfs "$W/m$c" 2M; newdir "$W/m$c/d"
  chat "outA$c" "$W/m$c/d" "$T0" "$(steps turn "$RUN_TXT" turn "actually packing 1024")"
  crash_chat "outA$c" && fail "($c) first session crashed (rc $(cat outA$c/rc))"
  grep -qi verdict "outA$c/all.txt" || fail "control ($c): no verdict in the first session"
  if [ $c = full ]; then pad_tail "$W/m$c/d"; fi
  h=$(sha256sum < "$W/m$c/d/transcript.jsonl")
  if [ $c = full ]; then fill_fs "$W/m$c"; else mount -o remount,ro "$W/m$c" || fail "cannot remount read-only"; fi
  chat "outB$c" "$W/m$c/d" "$(at 600)" "$(steps turn "will it fit?" turn "$Q_GMU")"
  crash_chat "outB$c" && fail "($c) start crashed or hung (rc $(cat outB$c/rc))"
  cat "outB$c/slice_1.txt" > "r$c.txt"
  grep -qiE 'does not fit|\bfits\b|\btight\b' "r$c.txt" && grep -q '70B' "r$c.txt" || fail "($c) 'will it fit?' got no verdict from the saved run"
  grep -q '121\.69' "outB$c/all.txt" || fail "($c) the question was not answered"
  grep -qiE 'read-only|read only|not (be )?saved|cannot save|can.t save|no space|disk is full|full disk' "outB$c/all.txt" || fail "[W] ($c) no line says the session is read-only / not saved"
  [ "$(sha256sum < "$W/m$c/d/transcript.jsonl")" = "$h" ] || fail "($c) the transcript changed in a read-only start"
done
pass
