#!/usr/bin/env bash
# s30 (family 3, non-file in the transcript's place): mid-session, transcript.jsonl is replaced by a
# character device node with /dev/null's numbers (mknod c 1 3): writes to it vanish silently.
# Interpretation: a device is not a place to save to (only regular files are used), so the owner's next
# turn ("packing 1024") must either be saved in a regular file of the data directory or the session
# must say it is not saved. Also: the turn is answered, the session goes on, and a restart does not
# crash or hang. Control: the first turn was saved before the swap.
. "$(dirname "$0")/_lib.sh"; setup_env
dd="$W/d"
chat o "$dd" "$T0" "$(steps turn "$RUN_TXT" sh "cp $dd/transcript.jsonl $W/before.jsonl; rm -f $dd/transcript.jsonl; mknod -m 600 $dd/transcript.jsonl c 1 3" turn 'packing 1024' turn "$Q_GMU")"
crash_chat o && fail "crash (rc $(cat o/rc))"
grep -q '70B' "$W/before.jsonl" 2>/dev/null || fail "control: the first turn was not saved before the swap"
[ -c "$dd/transcript.jsonl" ] || echo "note: the device node was replaced" >&2
grep -q '1024' o/slice_2.txt || fail "the turn after the swap was not answered"
grep -q '121.69' o/slice_3.txt || fail "the session did not go on"
saved=no
while IFS= read -r -d '' f; do grep -q 'packing 1024' "$f" && saved=yes; done < <(find "$dd" -type f -print0)
said=no; grep -Eiq "$NOTSAVED_RX" o/slice_2.txt o/slice_3.txt && said=yes
[ $saved = yes ] || [ $said = yes ] || fail "the turn after the swap went into the device node: not in any regular file, and no line said it was not saved"
s=$(now_s); printf 'will it fit?\n\n' | HEADROOM_NOW="$(at 120)" timeout 20 "$HR" --data-dir "$dd" > r.out 2>&1; rc=$?
el=$(elapsed "$s" "$(now_s)")
is_crash "$rc" r.out && fail "the restart crashed or hung (exit $rc)"
pass "saved=$saved said=$said; restart exit $rc in ${el}s"
