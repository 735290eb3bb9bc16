#!/usr/bin/env bash
# s48 (family 4, absurd data): an OOM traceback with absurd figures: "Tried to allocate
# 18446744073709551615.00 GiB", "total capacity of 1e30 GiB", "-5.00 GiB is free", "nan GiB is
# allocated", "inf GiB is reserved".
# Expect: no crash; the reply works the ladder (page cache / flush / step 1); no figure of headroom's
# own is NaN or inf (GB or %); the question is answered afterwards; exit 0.
# Control: a normal OOM traceback gets the same ladder words.
. "$(dirname "$0")/_lib.sh"; setup_env
OOM='Traceback (most recent call last):
  File "/srv/train.py", line 212, in <module>
    trainer.train()
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 18446744073709551615.00 GiB. GPU 0 has a total capacity of 1e30 GiB of which -5.00 GiB is free. Including non-PyTorch memory, this process has 99999999999999999999.00 GiB memory in use. Of the allocated memory nan GiB is allocated by PyTorch, and inf GiB is reserved by PyTorch but unallocated.'
OOK='Traceback (most recent call last):
  File "/srv/train.py", line 212, in <module>
    trainer.train()
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 119.70 GiB of which 1.20 GiB is free. Including non-PyTorch memory, this process has 96.10 GiB memory in use. Of the allocated memory 90.30 GiB is allocated by PyTorch, and 4.10 GiB is reserved by PyTorch but unallocated.'
LAD='page cache|flush|drop_caches|step 1|ladder'
chat oc "$W/dc" "$T0" "$(steps turn "$RUN_TXT" turn "$OOK")"
grep -Eiq "$LAD" oc/slice_2.txt || fail "control: a normal OOM reply does not work the ladder"
chat o "$W/d" "$T0" "$(steps turn "$RUN_TXT" turn "$OOM" turn "$Q_GMU")"
crash_chat o && fail "crash (rc $(cat o/rc))"
cat o/slice_2.txt o/slice_3.txt | grep -Eiq "$LAD" || fail "the absurd OOM did not get the ladder"
grep -Eq '(^|[^A-Za-z])(NaN|inf|Infinity) ?(GB|%)' o/all.txt && fail "a non-finite figure was shown: $(grep -Eo '(NaN|inf|Infinity) ?(GB|%)' o/all.txt | head -1)"
grep -q '121.69' o/slice_3.txt || fail "the question after the OOM was not answered"
[ "$(cat o/rc)" = 0 ] || fail "exit $(cat o/rc)"
pass
