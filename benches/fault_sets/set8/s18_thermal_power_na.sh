#!/usr/bin/env bash
# s18: samples with power [N/A] in every row while the GPU climbs to 96 C (no throttle
# flags sampled): the verdict is "not enough data to say", never "no thermal event" / "look
# elsewhere", and it names the peak temperature (96) and what to sample. On the CLI and with
# the paths typed in the chat. Control: flat 55 C / 60 W samples do get "no thermal event".
SID=s18
. "$(dirname "$0")/lib.sh" "$@"

F="$T/f"; fixtures "$F"
python3 "$FX" thermal "$F/hot_na.csv" hot_na
D=$(mkdd data); D2=$(mkdd data2)
run a "$NOW0" "$D" thermal "$F/hot_na.csv" --train-log "$F/train.log" </dev/null
chat c "$NOW0" "$D2" "is the slowdown thermal throttling? $F/hot_na.csv and $F/train.log"
run k "$NOW0" "$D" thermal "$F/thermal.csv" --train-log "$F/train.log" </dev/null

NOTENOUGH='not enough data|cannot tell|can.t tell|can ?not say|unable to (say|tell)|no way to tell'
FIRM='no thermal event|look elsewhere'
for n in a c; do
  sane_rc $n || bad "$n: exit $(rc_of $n)"
  panicked $n && bad "$n panicked"
  has $n "$FIRM" && bad "$n: a firm 'no thermal event' with no power data at 96 C"
  has $n "$NOTENOUGH" || bad "[W] $n: power missing everywhere was not 'not enough data to say'"
  has $n '\b96(\.0+)?\s*(°|deg|c\b)|(peak|hottest|max)[^.\n]{0,40}\b96\b' || bad "[W] $n: the peak temperature 96 C was not named"
  has $n 'sample[^.]{0,120}power|power[^.]{0,120}sampl' || bad "[W] $n: did not say to sample power"
done
r=$(rc_of k); { [ "$r" = 0 ] || [ "$r" = 1 ]; } || bad "control: exit $r"
has k "$FIRM" || bad "control: flat samples did not get 'no thermal event' (the firm-verdict check is blind)"
finish
