#!/usr/bin/env bash
# s37: piped turns with bytes that are not text: a 6 KB binary paste (NULs, 0xff, ESC ]0;
# title and clear-screen sequences), then a question with invalid UTF-8 and a NUL. Each gets
# one line saying so; nothing said before is lost (the next what-if is answered against the
# run); no raw escape byte is echoed to the terminal; the transcript stays valid JSON
# lines; the restart remembers the run.
SID=s37
. "$(dirname "$0")/lib.sh" "$@"

python3 "$FX" binary "$T/junk.bin" 6000
{
  printf '%s\n\n' "$RUN_TXT"
  cat "$T/junk.bin"; printf '\n\n'
  printf 'is it \xff\xfe\xc3( ok to start\x00 now?\n\n'
  printf 'what if batch 4?\n\n'
} >"$T/in.bin"
D=$(mkdd data)
run a "$NOW0" "$D" <"$T/in.bin"
chat b "2026-11-29T15:01:00Z" "$D" "will it fit?"

rc_is a 0 || bad "the session exited $(rc_of a), want 0"
panicked a && bad "panicked"
has a "$PEAK2" || bad "the run before the binary paste was not planned"
has a "$PEAK4" || bad "the what-if after the bad bytes was not answered against the run (something said before was lost)"
has a 'utf-?8|not text|binary|replaced|invalid|unreadable|could not read|control char|nul' || bad "[W] no line saying the bytes were not text"
has_cs a "$ESC_BYTES" && bad "a raw escape/control byte from the paste was echoed to the terminal"
python3 "$FX" grep c "$ESC_BYTES" "$T/in.bin" || bad "control: the escape-byte check cannot see the bytes in the input"
jb=$(jsonl_bad "$(transcript_of "$D")"); [ -z "$jb" ] || bad "transcript line $jb is not valid JSON (raw bytes or NUL stored?)"
rc_is b 0 || bad "the restart exited $(rc_of b)"
has b "$PEAK2" || bad "the restart did not remember the run"
finish
