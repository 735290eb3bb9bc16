#!/usr/bin/env bash
# s40 (family 3, full disk): `/export FILE` where FILE is on a full 256 KiB tmpfs.
# Expect: [W] the reply says the export failed; the session goes on (the question gets 121.69); exit 0;
# no crash. Control: /export to a roomy disk writes a non-empty file.
. "$(dirname "$0")/_lib.sh"; setup_env
mk_tmpfs "$W/full" 256k; fill_fs "$W/full"
chat o "$W/d" "$T0" "$(steps turn "$RUN_TXT" turn "/export $W/full/session.md" turn "$Q_GMU")"
crash_chat o && fail "crash (rc $(cat o/rc))"
chat oc "$W/dc" "$T0" "$(steps turn "$RUN_TXT" turn "/export $W/ok.md")"
[ -s "$W/ok.md" ] || fail "control: /export to a roomy disk wrote nothing"
grep -Eiq 'space|could not|cannot|can.t|failed|error|not written|not exported' o/slice_2.txt || fail "[W] the failed export was not reported"
grep -q '121.69' o/slice_3.txt || fail "the session did not go on after the failed export"
[ "$(cat o/rc)" = 0 ] || fail "exit $(cat o/rc)"
pass
