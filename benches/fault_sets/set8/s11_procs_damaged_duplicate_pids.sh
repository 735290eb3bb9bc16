#!/usr/bin/env bash
# s11: `headroom procs` on rows with a duplicated pid (415002 twice), a leading zero
# (04242), a pid over the kernel's limit (99999999) and over it by one (4194305), beside a
# good uncapped vLLM (415300, stop) and a capped one (415400 at 0.3, keep). Damaged rows are
# named, never dropped silently, never stopped; the duplicate is shown at most once and not
# judged; --json names damaged_pids. --need must be a finite number >= 0 (exit 2 otherwise);
# input over 16 MiB is refused (exit 2).
SID=s11
. "$(dirname "$0")/lib.sh" "$@"

cat >"$T/ps.txt" <<PS
$PS_HDR
$(vllm_row 415002)
$(vllm_row 415002)
$(vllm_row 04242)
$(vllm_row 99999999)
$(vllm_row 4194305)
$(vllm_row 415300)
$(vllm_row 415400 0.3)
PS
P=$(mkdd p)
run t "$NOW0" "$P" procs "$T/ps.txt" --need 60 </dev/null
run j "$NOW0" "$P" procs "$T/ps.txt" --need 60 --json </dev/null

sane_rc t || bad "procs exited $(rc_of t)"
panicked t && bad "procs panicked"
has t 'damaged|not read' || bad "[W] procs did not name the damaged pid rows"
has t '04242' || bad "the leading-zero pid 04242 was dropped silently"
has t '99999999' || bad "the pid 99999999 was dropped silently"
for pid in 04242 4242 99999999 4194305; do
  case " $(rows_of t $pid | tr '\n' ' ') " in *" stop "*) bad "damaged pid $pid was judged stop";; esac
done
dup=$(rows_of t 415002)
ndup=0; for x in $dup; do ndup=$((ndup + 1)); done
[ "$ndup" -le 1 ] || bad "the duplicated pid 415002 was shown $ndup times (README: shown once)"
case " $(printf '%s ' $dup) " in *" stop "*|*" keep "*) bad "the duplicated pid 415002 was judged ($dup)";; esac
case " $(rows_of t 415300 | tr '\n' ' ') " in *" stop "*) : ;; *) bad "control: uncapped 415300 not shown as stop (the row check is blind)";; esac
case " $(rows_of t 415400 | tr '\n' ' ') " in *" keep "*) : ;; *) bad "control: capped 415400 (0.3) not shown as keep";; esac

sane_rc j || bad "procs --json exited $(rc_of j)"
if python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/j.out" 2>/dev/null; then
  dmg=$(python3 "$FX" json_pids "$T/j.out" | head -n1)
  case "$dmg" in *04242*|*" 4242"*) : ;; *) bad "--json damaged_pids lacks 04242 ($dmg)";; esac
  case "$dmg" in *99999999*) : ;; *) bad "--json damaged_pids lacks 99999999 ($dmg)";; esac
else
  bad "procs --json did not print one JSON document"
fi

for need in -1 nan inf 1e400 -0.5; do
  run "n$need" "$NOW0" "$P" procs "$T/ps.txt" "--need=$need" </dev/null
  rc_is "n$need" 2 || bad "--need=$need exited $(rc_of "n$need"), want 2"
done
rc_is t 2 && bad "control: --need 60 also exited 2 (the exit-2 checks prove nothing)"

python3 "$FX" biglisting "$T/big.txt" 17500000 BIGMARK
run g "$NOW0" "$P" procs "$T/big.txt" --need 60 </dev/null
rc_is g 2 || bad "a 17 MB procs input exited $(rc_of g), want 2 (16 MiB limit)"
[ "$(ms_of g)" -lt 8000 ] || bad "the over-limit procs input took $(ms_of g) ms"
finish
