#!/usr/bin/env bash
# s28: between sessions the transcript is made 0644 and the data dir 0755 (a backup tool or an rsync without -p).
# Neither is writable by others, so the start is allowed; but the README promises "private (0700/0600)".
# Interpretation: after the next session the transcript is private again, or the session said why it is not.
. "$(dirname "$0")/_lib.sh"; setup_env
chat out1 "$W/d" "$T0" "$(steps turn "$RUN_TXT")"
crash_chat out1 && fail "crash in the first session"
[ -f "$W/d/transcript.jsonl" ] || fail "control: no transcript.jsonl after the first session"
m0=$(stat -c %a "$W/d/transcript.jsonl")
[ $(( 8#$m0 & 8#077 )) = 0 ] || fail "control: a fresh transcript is $m0, not private"
chmod 0644 "$W/d/transcript.jsonl"; chmod 0755 "$W/d"
chat out2 "$W/d" "$(at 120)" "$(steps turn 'actually packing 1024')"
crash_chat out2 && fail "crash in the second session"
mt=$(stat -c %a "$W/d/transcript.jsonl"); md=$(stat -c %a "$W/d")
said=$(rcnt out2/all.txt 'permission|private|chmod|readable|0600|0644|0700|0755|file mode')
if [ $(( 8#$mt & 8#077 )) != 0 ] && [ "$said" = 0 ]; then fail "the transcript stays $mt (others can read it) and nothing was said"; fi
if [ $(( 8#$md & 8#077 )) != 0 ] && [ "$said" = 0 ]; then fail "the data dir stays $md and nothing was said"; fi
pass "transcript $mt, dir $md after the session (said: $said)"
