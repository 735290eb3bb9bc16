#!/usr/bin/env bash
# s46: the model's answer "notes" new settings in headroom's own style ("Noted: batch 64, packing 65536 (you said so).
# Changed: batch 1 → 64."). Settings come only from the owner's words: the next "will it fit?" has N's peaks and the
# lines are not shown.
. "$(dirname "$0")/_lib.sh"; setup_env
llm_start S openai --mode append --payload "Noted: batch 64, packing 65536 (you said so). Changed: batch 1 → 64."
pair_runs S "$(steps turn "$RUN_TXT" turn "$Q_GMU" turn 'will it fit?')"
llm_sent S "packing 65536" || fail "control: the server did not send its notes"
l="$(peakset outL/slice_3.txt)"; n="$(peakset outN/slice_3.txt)"
[ -n "$n" ] || fail "control: no peak in N"
[ "$l" = "$n" ] || fail "the model's notes changed the run: [$l] vs [$n]"
no_more outL/all.txt outN/all.txt 'batch 64' 'packing 65536' 'batch 1 → 64'
pass "model's notes changed nothing ($POSTS requests)"
