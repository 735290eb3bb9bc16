#!/usr/bin/env bash
# s48: Ollama with no model named (`--llm ollama@URL`: "the first installed one is used") and /api/tags answering
# oddly: no models, no "models" key, non-string names, an empty name, a 1 MiB name. Each: the question answered within
# 20 s, no crash, TAGSMARK never shown, output under 200 KB; with no model installed, [W] a line says why.
. "$(dirname "$0")/_lib.sh"; setup_env
for v in empty nomodels nonstring blank huge; do llm_start "$v" ollama --tags-variant "$v"; done
chat outN "$W/dN" "$T0" "$(steps turn "$Q_GMU")"
i=0
for v in empty nomodels nonstring blank huge; do
  p="$(eval echo \$LLM_PORT_$v)"
  bg chat "out_$v" "$W/d_$v" "$T0" "$(steps turn "$Q_GMU" wait 25 until '121\.69')" "[\"--llm\",\"ollama@http://127.0.0.1:$p\"]" '{}' 40
  i=$((i+1)); [ $((i % 2)) = 0 ] && wait_all
done
wait_all
for v in empty nomodels nonstring blank huge; do
  [ "$(llm_reqs $v)" -ge 1 ] || fail "control: ($v) the server was never asked"
  crash_chat "out_$v" && fail "($v) crash (rc $(cat out_$v/rc))"
  m=$(m_after "out_$v" 1); [ -n "$m" ] || fail "($v) the question was never answered"
  lt "$m" 20 || fail "($v) answered after ${m}s"
  [ "$(cnt out_$v/all.txt TAGSMARK)" = 0 ] || fail "($v) TAGSMARK shown"
  s=$("$PY" "$H/_hr.py" size out_$v/all.txt); [ "$s" -lt 204800 ] || fail "($v) output $s bytes"
done
why_line out_empty/all.txt outN/all.txt || fail "(empty) [W] no line saying no model is installed / the model is not used"
pass "odd /api/tags answers handled"
