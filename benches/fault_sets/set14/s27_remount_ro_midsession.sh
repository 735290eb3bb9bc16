#!/usr/bin/env bash
# s27: the filesystem under the data dir is remounted read-only while a session runs (as when ext4 hits an error and
# goes errors=remount-ro). The next turn is still answered with a line that it is not saved, the session goes on and
# exits 0; once the filesystem is writable again a restart remembers the run.
. "$(dirname "$0")/_lib.sh"; setup_env
# (HARNESS_FIXES.md fix 2: `mount -o remount,ro` is refused with EBUSY while headroom holds its transcript open for
# writing, so the fault is injected as ext4 does it: errors=remount-ro plus the kernel's trigger_fs_error knob)
mkdir -p "$W/m"; dd if=/dev/zero of="$W/.ro.img" bs=1M count=32 2>/dev/null
mkfs.ext4 -q -F "$W/.ro.img" >/dev/null 2>&1 || fail "harness: mkfs.ext4 failed"
mount -o loop,errors=remount-ro "$W/.ro.img" "$W/m" || fail "harness: cannot loop-mount ext4 (needs root)"
_MOUNTS+=("$W/m"); chmod 700 "$W/m"
DEV="$(basename "$(findmnt -n -o SOURCE "$W/m")")"
[ -w "/sys/fs/ext4/$DEV/trigger_fs_error" ] || fail "harness: no /sys/fs/ext4/$DEV/trigger_fs_error"
chat out "$W/m/d" "$T0" "$(steps turn "$RUN_TXT" sh "echo set14-s27 > /sys/fs/ext4/$DEV/trigger_fs_error" turn 'actually packing 1024' wait 5 turn "$Q_GMU" wait 5)"
findmnt -n -o OPTIONS "$W/m" | grep -q '\bro\b' || fail "harness: the filesystem did not go read-only"
umount "$W/m" && e2fsck -fy "$W/.ro.img" >/dev/null 2>&1; mount -o loop "$W/.ro.img" "$W/m" || fail "harness: cannot remount the image read-write"
crash_chat out && fail "crash (rc $(cat out/rc))"
grep -q 'packing 2048\|2048' "$W/m/d/transcript.jsonl" 2>/dev/null || fail "control: the first turn was not saved before the remount"
[ -n "$(peakset out/slice_2.txt)" ] || fail "the turn after the remount got no plan (no peak)"
[ "$(rcnt out/slice_2.txt "$NOTSAVED_RX")" -ge 1 ] || fail "[W] no line saying the turn after the remount is not saved"
[ "$(cnt out/slice_3.txt 121.69)" -ge 1 ] || fail "the session did not go on (question unanswered)"
[ "$(cat out/rc)" = 0 ] || fail "exit $(cat out/rc)"
chat out2 "$W/m/d" "$(at 300)" "$(steps turn 'will it fit?')"
crash_chat out2 && fail "restart crashed"
grep -Eq "$VERDICT_ANY_RX" out2/slice_1.txt || fail "after the restart 'will it fit?' got no verdict"
grep -q '70B' out2/all.txt || fail "the restart does not remember the 70B run"
pass "read-only remount mid-session: answered, said not saved, went on; restart remembers"
