#!/usr/bin/env bash
# s33: an Ollama server whose only installed model is named
# "evil-model<ESC>]0;PWNED<BEL><ESC>[2J<ESC>[31m<CSI>1;1H". With --llm ollama@URL (no model
# named, so the first installed one is used) and with /llm typed in the chat, `/llm` says
# what is in use: the name is shown (control: "evil-model" is visible) but no escape or
# control byte reaches the terminal (no retitle, no clear screen).
SID=s33
. "$(dirname "$0")/lib.sh" "$@"

start_llm E escape
A=$(mkdd a); B=$(mkdd b)
HEADROOM_LLM_FIRST_TEXT_S=5 chat a "$NOW0" "$A" "/llm

$Q_GMU" --llm "ollama@http://127.0.0.1:$PORT_E"
HEADROOM_LLM_FIRST_TEXT_S=5 chat b "$NOW0" "$B" "/llm ollama@http://127.0.0.1:$PORT_E

/llm

$Q_GMU"

for n in a b; do
  rc_is $n 0 || bad "$n: exit $(rc_of $n)"
  has_cs $n "$ESC_BYTES" && bad "$n: an escape/control byte from the model's name or answer reached the terminal"
  has $n 'evil-model' || bad "control $n: the model name in use was not shown by /llm (the escape check proves nothing)"
  has $n "$OWN_GMU" || bad "$n: the answer was not shown"
done
python3 "$FX" grep c 'api/tags' "$T/E.log" || bad "setup: the server was never asked for its models"
finish
