#!/usr/bin/env bash
# Family: FIFOs / directories as output paths. `headroom thermal --svg` onto a FIFO that has a reader
# waiting, and `--png` onto a directory: refused at once, the verdict still printed, exit 1, nothing
# written. Control: --svg to a regular file writes an SVG.
source "$(dirname "$0")/_lib.sh"; setup_env
newdir "$W/oneshot"; good_thermal "$W/t"; mkfifo "$W/c.fifo"; mkdir "$W/pngdir"
cat "$W/c.fifo" > "$W/got.txt" & CP=$!; _BGPIDS+=($CP)
sleep 0.2
tcall a 20 thermal "$W/t/thermal.csv" --train-log "$W/t/train.log" --svg "$W/c.fifo"
if kill -0 "$CP" 2>/dev/null; then timeout 3 bash -c "exec 3>'$W/c.fifo'" 2>/dev/null; sleep 0.2; fi
is_crash $TC_RC "$W/a.out" && fail "--svg FIFO: crash or hang (rc $TC_RC)"
grep -qiE "$THERMAL_RX" "$W/a.out" || fail "--svg FIFO: the verdict was hidden"
[ "$TC_RC" = 1 ] || fail "--svg FIFO: exit $TC_RC, want 1"
lt "$TC_EL" 5 || fail "--svg FIFO: took ${TC_EL}s"
[ -s got.txt ] && fail "--svg wrote $(wc -c < got.txt) bytes into the FIFO"
tcall b 20 thermal "$W/t/thermal.csv" --train-log "$W/t/train.log" --png "$W/pngdir"
is_crash $TC_RC "$W/b.out" && fail "--png directory: crash (rc $TC_RC)"
grep -qiE "$THERMAL_RX" "$W/b.out" || fail "--png directory: the verdict was hidden"
[ "$TC_RC" = 1 ] || fail "--png directory: exit $TC_RC, want 1"
[ -z "$(ls -A pngdir)" ] || fail "--png wrote into the directory: $(ls -A pngdir)"
tcall c 20 thermal "$W/t/thermal.csv" --train-log "$W/t/train.log" --svg "$W/ok.svg"
grep -q '<svg' ok.svg 2>/dev/null || fail "control: --svg to a regular file wrote no SVG (rc $TC_RC)"
pass
