#!/usr/bin/env bash
# Family 6 (strings from the network). Ollama's /api/tags lists one model whose name carries a carriage
# return, three backspaces, a C1 CSI (U+009B, as UTF-8) with "31m", a right-to-left override (U+202E) and a
# left-to-right isolate (U+2066): "okname\r\b\b\b\u009b31m\u202eevil\u2066:latest". With no model named, that
# one is used, and `/llm` shows what is in use. None of these characters reaches stdout or stderr raw.
# Interpretation: "escaped" covers the bidirectional formatting characters too (they reorder what the owner
# reads), not only C0/C1 controls.
source "$(dirname "$0")/_lib.sh"; setup_env
llm_start A echo --esc --tags-name 'okname\r\x08\x08\x08\u009b31m\u202eevil\u2066:latest'
chat out "$W/d" "$T0" "$(steps turn "/llm" turn "$Q_GMU" wait 6)" "[\"--llm\",\"ollama@http://127.0.0.1:$LLM_PORT_A\"]" '{}' 30
crash_chat out && fail "crash (rc $(cat out/rc))"
grep -q '/api/tags' "$W/llm_A.log" || fail "control: /api/tags was never requested"
grep -q 'okname' out/all.txt || fail "control: /llm does not show the model in use (okname)"
"$PY" - out/all.txt <<'PY' || fail "raw control/format characters from the model name reached the terminal: $(cat bad.txt)"
import sys
d = open(sys.argv[1], 'rb').read()
t = d.decode('utf-8', 'replace')
bad = []
if b'\r' in d: bad.append('CR')
if b'\x08' in d: bad.append('BS')
if b'\x1b' in d: bad.append('ESC')
for ch, n in (('\u009b', 'U+009B'), ('\u202e', 'U+202E'), ('\u2066', 'U+2066')):
    if ch in t: bad.append(n)
open('bad.txt', 'w').write(' '.join(bad))
sys.exit(1 if bad else 0)
PY
grep -q '121\.69' out/all.txt || fail "the question was not answered"
pass
