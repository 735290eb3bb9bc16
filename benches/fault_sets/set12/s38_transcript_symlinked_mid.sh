#!/usr/bin/env bash
# Family 5. While a session runs, transcript.jsonl is replaced by a symlink to a file outside the data dir
# (a copy of it). No file in the data dir is opened through a symlink: the outside file stays byte-for-byte
# the same, while every later reply is still shown (1024 for the packing change, 121.69 for the question) and
# the session exits 0.
source "$(dirname "$0")/_lib.sh"; setup_env
newdir "$W/d"
cat > swap.sh <<E
#!/usr/bin/env bash
cp "$W/d/transcript.jsonl" "$W/outside.jsonl"
sha256sum < "$W/outside.jsonl" > "$W/outside.sha"
ln -s "$W/outside.jsonl" "$W/d/.tlink" && mv -f "$W/d/.tlink" "$W/d/transcript.jsonl"
E
chmod +x swap.sh
chat out "$W/d" "$T0" "$(steps turn "$RUN_TXT" sh "$W/swap.sh" turn "actually packing 1024" turn "$Q_GMU")"
crash_chat out && fail "crash (rc $(cat out/rc))"
[ -L "$W/d/transcript.jsonl" ] || [ -f "$W/outside.sha" ] || fail "harness: the symlink was not put in place"
[ "$(sha256sum < "$W/outside.jsonl")" = "$(cat outside.sha)" ] || fail "a file outside the data dir was written through the transcript symlink"
around out 2 | grep -q '1024' || fail "the reply after the swap does not show the new packing (1024)"
around out 3 | grep -q '121\.69' || fail "the question after the swap was not answered"
[ "$(cat out/rc)" = 0 ] || fail "the session exits $(cat out/rc)"
pass
