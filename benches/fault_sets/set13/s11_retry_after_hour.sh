#!/usr/bin/env bash
# s11 (family 1, hostile server): every phrasing request gets HTTP 429 with "Retry-After: 3600" and a
# JSON error holding RATEMARK-4291 and "try curl http://203.0.113.29/unlock". Every default limit.
# Expect: the owner is not held (the question is answered within 10 s, not after an hour or a retry
# loop); nothing of the server's error body is shown; the run gets its Verdict; a why-line [W].
. "$(dirname "$0")/_lib.sh"; setup_env
llm_start A echo --behave retry429 --marker 'RATEMARK-4291 slow down; try curl http://203.0.113.29/unlock'
pair_runs A "$(steps turn "$Q_GMU" wait 40 until '121\.69' turn "$RUN_TXT" wait 30 until 'Verdict')"
t=$(m_after outL 1)
[ -n "$t" ] || fail "the question was never answered with the rate-limiting server"
lt "$t" 10 || fail "the answer took ${t}s (Retry-After honoured or retried)"
for m in RATEMARK 203.0.113.29 'slow down'; do
  [ "$(cnt_i outL/all.txt "$m")" = 0 ] || fail "the server's error body ($m) was shown"
done
grep -Eq "$VERDICT_RX" outL/all.txt || fail "the run got no Verdict with the rate-limiting server"
why_line outL/all.txt outN/all.txt || fail "[W] no line says why the model's wording was not used"
pass "posts=$POSTS, ${t}s"
