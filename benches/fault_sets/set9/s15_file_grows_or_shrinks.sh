#!/usr/bin/env bash
# s15_file_grows_or_shrinks: thermal files that grow, shrink or are replaced while being read: the command ends, never crashes
# usage: s15_file_grows_or_shrinks.sh /path/to/headroom   -> prints one final line: PASS s15 | FAIL s15: why
# (HR_KEEP=1 keeps the temp dir; diagnostics go to stderr)
SID=s15
set -u
if [ $# -lt 1 ] || [ ! -x "$1" ]; then echo "FAIL $SID: usage: $0 /path/to/headroom (an executable)"; exit 2; fi
BIN=$(readlink -f -- "$1")
export NO_COLOR=1 COLUMNS=100 LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=dumb TZ=UTC
unset HEADROOM_NOW HEADROOM_DATA_DIR HEADROOM_API_KEY HEADROOM_LLM_FIRST_TEXT_S HEADROOM_LLM_STALL_S \
      HEADROOM_LLM_DEADLINE_S HEADROOM_BLESS CLICOLOR_FORCE FORCE_COLOR RUST_BACKTRACE LINES 2>/dev/null
T=$(mktemp -d "${TMPDIR:-/tmp}/hr-$SID.XXXXXX") || { echo "FAIL $SID: mktemp failed"; exit 1; }
chmod 700 "$T"; cd "$T" || exit 1
export HOME="$T/home" XDG_CONFIG_HOME="$T/home/.config" XDG_DATA_HOME="$T/home/.local/share" \
       XDG_CACHE_HOME="$T/home/.cache" XDG_STATE_HOME="$T/home/.local/state" XDG_RUNTIME_DIR="$T/run"
# no keyring daemon, no session bus: a keyring lookup must fail fast, never wait
export DBUS_SESSION_BUS_ADDRESS="unix:path=$T/run/no-bus"
mkdir -p "$HOME" "$XDG_CONFIG_HOME" "$XDG_DATA_HOME" "$XDG_CACHE_HOME" "$XDG_STATE_HOME" "$XDG_RUNTIME_DIR"
chmod -R 700 "$HOME" "$XDG_RUNTIME_DIR"
# subcommands (plan, procs, thermal) get a private data dir through the environment;
# chat sessions are given --data-dir explicitly
export HEADROOM_DATA_DIR="$T/envdata"; mkdir -m 700 "$HEADROOM_DATA_DIR"

BGPIDS=(); MOUNTS=(); FAILS=()
cleanup() {
  local p m
  for p in ${BGPIDS[@]+"${BGPIDS[@]}"}; do kill "$p" 2>/dev/null; done
  sleep 0.1
  for p in ${BGPIDS[@]+"${BGPIDS[@]}"}; do kill -9 "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
  for m in ${MOUNTS[@]+"${MOUNTS[@]}"}; do umount -l "$m" 2>/dev/null; done
  if [ -n "${HR_KEEP:-}" ]; then echo "kept: $T" >&2; else rm -rf "$T"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- time: every process is a new session with its own HEADROOM_NOW ----
T0_EPOCH=1795960800            # 2026-11-29T14:00:00Z
ts() { date -u -d "@$(( T0_EPOCH + ${1:-0} ))" +%Y-%m-%dT%H:%M:%SZ; }   # ts SECONDS-after-T0
MIN=60; HOUR=3600; DAY=86400

# ---- verdict bookkeeping ----
fail() { FAILS+=("$*"); printf '[%s] FAIL: %s\n' "$SID" "$*" >&2; }
note() { printf '[%s] %s\n' "$SID" "$*" >&2; }
finish() {
  if [ ${#FAILS[@]} -eq 0 ]; then echo "PASS $SID"; exit 0; fi
  local msg; msg=$(printf '%s; ' "${FAILS[@]}"); msg=${msg%; }
  echo "FAIL $SID: $(printf '%s' "$msg" | tr '\n' ' ' | cut -c1-900)"; exit 1
}
# want FILE REGEX WHAT: FILE must match REGEX (extended, case-insensitive, binary-safe)
want()    { grep -Eaiq -- "$2" "$1" 2>/dev/null || fail "$3 (no /$2/ in $(basename "$1"))"; }
# wantnot FILE REGEX WHAT: FILE must not match
wantnot() { if grep -Eaiq -- "$2" "$1" 2>/dev/null; then fail "$3 (found: $(grep -Eaio -- "$2" "$1" | head -1 | cut -c1-80))"; fi; }
has()     { grep -Eaiq -- "$2" "$1" 2>/dev/null; }
count()   { grep -Eaic -- "$2" "$1" 2>/dev/null || true; }
crashed() { # RC FILE: a panic, a signal or the timeout
  case $1 in 101|124|125|126|127|134|137|139) return 0;; esac
  grep -aq 'panicked at' "$2" 2>/dev/null
}
newdir() { mkdir -p "$T/$1" && chmod 700 "$T/$1" && printf '%s' "$T/$1"; }
nowms() { date +%s%3N; }

# ---- kill commands shown to the owner ----
cat >"$T/killpids.py" <<'PYEOF'
import re, sys
text = open(sys.argv[1], 'rb').read().decode('utf-8', 'replace')
out = []
for m in re.finditer(r'(?<![\w-])kill\b([^\n`;|&)]*)', text):
    toks = m.group(1).split()
    args = []; ddash = False; i = 0
    while i < len(toks):
        t = toks[i].strip('`"\'.,:()[]{}*')
        if not ddash and t == '--': ddash = True; i += 1; continue
        if not ddash and t in ('-s', '-n', '--signal'): i += 2; continue
        if not ddash and re.fullmatch(r'-[A-Za-z][A-Za-z0-9+]*', t): i += 1; continue
        if re.fullmatch(r'[+-]?\d+', t): args.append((t, ddash)); i += 1; continue
        break
    if len(args) >= 2 and args[0][0].startswith('-') and not args[0][1]:
        args = args[1:]          # kill -9 PID: the first is a signal
    out += [a for a, _ in args]
print('\n'.join(out))
PYEOF
# killpids FILE: every pid argument of a `kill` in FILE, one a line
killpids() { python3 "$T/killpids.py" "$1"; }
# killed FILE PID: a kill command for PID is in FILE
killed() { killpids "$1" | grep -qx -- "$2"; }
# nokill FILE WHAT [PID...]: no kill for these pids (no kill at all when none given)
nokill() {
  local f=$1 what=$2; shift 2
  local got; got=$(killpids "$f" | tr '\n' ' ')
  if [ $# -eq 0 ]; then [ -z "${got// /}" ] || fail "$what (kill shown for: $got)"; return; fi
  local p; for p in "$@"; do
    if killpids "$f" | grep -qx -- "$p"; then fail "$what (kill $p shown)"; fi
  done
}

# ---- the transcript: every line a JSON value ----
cat >"$T/jsonl.py" <<'PYEOF'
import json, sys
p = sys.argv[1]; need_nl = len(sys.argv) > 2
try:
    data = open(p, 'rb').read()
except OSError as e:
    print('cannot read %s: %s' % (p, e)); sys.exit(1)
bad = []
lines = data.split(b'\n')
if lines and lines[-1] == b'': lines = lines[:-1]
elif need_nl and data:
    print('ends without a newline'); sys.exit(1)
for i, l in enumerate(lines, 1):
    try: json.loads(l.decode('utf-8'))
    except Exception: bad.append(i)
if bad:
    print('line(s) not JSON: %s of %d' % (bad[:5], len(lines))); sys.exit(1)
PYEOF
# jsonl_ok FILE WHAT [nl]: every line of FILE parses as JSON (and it ends in a newline with "nl")
jsonl_ok() { local why; why=$(python3 "$T/jsonl.py" "$1" ${3:+nl}) || fail "$2: $why"; }
# lines_with_ok FILE TEXT WHAT: every line holding TEXT parses as JSON, and there is one
lines_with_ok() {
  python3 - "$1" "$2" <<'PYEOF' || fail "$3"
import json, sys
data = open(sys.argv[1], 'rb').read(); needle = sys.argv[2].encode()
hits = [l for l in data.split(b'\n') if needle in l]
if not hits: print('no line holds', sys.argv[2], file=sys.stderr); sys.exit(1)
for l in hits:
    try: json.loads(l.decode('utf-8'))
    except Exception: print('torn line holds', sys.argv[2], l[:120], file=sys.stderr); sys.exit(1)
PYEOF
}

# ---- common inputs ----
RUN='QLoRA on Llama 3.1 70B, batch 1, packing 2048'
Q_GMU='what does gpu-memory-utilization do for vllm?'
RE_VERDICT='does not fit|fits|tight'
RE_70B='70 ?B'
RE_STALE='stale|out of date|outdated|too old|older than|old reading|future|ahead of|no longer|fresh|again|nominal|idle spark'
RE_NOTSAVED='not saved|(was|were|is|could|can)( ?no|n.t)( be)? (saved|written|stored)|unsaved|no space|disk (is )?full|read-?only|cannot write|can.t write|could not write|couldn.t write|failed to (write|save)'
RE_FIFO='fifo|named pipe'
RE_LLMWHY='model|llm|phras|server|endpoint|silent|timed? ?out|deadline|stall|refus|guard|garbl|own (text|words|wording)|http'
# ps aux listing: header, a shell, one uncapped vLLM server with pid $1 (default 41500)
ps_vllm() {
  local pid=${1:-41500}
  cat <<EOF
USER         PID %CPU %MEM      VSZ      RSS TTY      STAT START   TIME COMMAND
owner       2210  0.0  0.0    12345     5120 pts/0    Ss   09:01   0:00 -bash
owner      ${pid}  3.2 40.1 98304512 52428800 ?        Sl   13:02   5:11 python3 -m vllm.entrypoints.openai.api_server --model meta-llama/Llama-3.1-8B-Instruct --port 8000
EOF
}
# a memory paste (free -g) with the given available figure
free_g() {
  cat <<EOF
               total        used        free      shared  buff/cache   available
Mem:             119      $((119-$1))          $(( $1 > 10 ? $1-10 : 0 ))           0          10         $1
Swap:             15           0          15
EOF
}

# chat NAME NOW DATADIR INFILE [args...]: a piped session; output (stdout+stderr) in $T/NAME.out
chat() {
  local name=$1 now=$2 dd=$3 in=$4; shift 4
  local t0; t0=$(nowms)
  HEADROOM_NOW=$now timeout 30 "$BIN" --data-dir "$dd" "$@" <"$in" >"$T/$name.out" 2>&1
  RC=$?; MS=$(( $(nowms) - t0 ))
}
# chat_text NAME NOW DATADIR TEXT [args...]: the same with the turns given as a string
chat_text() { local name=$1 now=$2 dd=$3; printf '%s' "$4" >"$T/$name.in"; shift 4; chat "$name" "$now" "$dd" "$T/$name.in" "$@"; }
# cmd NAME ARGS...: a one-shot subcommand (stdin from $STDIN or /dev/null); $T/NAME.out, .err, .all
cmd() {
  local name=$1; shift
  local t0; t0=$(nowms)
  timeout 30 "$BIN" "$@" <"${STDIN:-/dev/null}" >"$T/$name.out" 2>"$T/$name.err"
  RC=$?; MS=$(( $(nowms) - t0 ))
  cat "$T/$name.out" "$T/$name.err" >"$T/$name.all"
}
# stop_if_hung WHAT: after a call killed by the timeout, report it and end (later calls would hang the same way)
stop_if_hung() { if [ "$RC" = 124 ]; then fail "$1 hung (killed by timeout 30)"; finish; fi; }
# turns T1 T2 ...: the turns joined as a piped session expects them (blank line after each)
turns() { local t; for t in "$@"; do printf '%s\n\n' "$t"; done; }

RE_FRESHPS='fresh|new (ps|listing)|again|current|up.to.date|re-?run|paste .*(ps|listing)|ps aux|hour|older|other session|another session|this session|no longer'
RE_UNREAD='could not read|cannot read|can.t read|couldn.t read|not read|unrecogni[sz]ed|not recogni[sz]ed|don.t recogni[sz]e|looked like|what to paste|paste (the output of )?.?ps'

# measure NAME STDIN CMD...: run CMD with output (stdout+stderr) to $T/NAME.out; sets RC, MS, RSSKB (peak RSS)
measure() {
  local name=$1 in=$2; shift 2
  python3 - "$T/$name.out" "$in" "$@" >"$T/$name.meas" <<'PYEOF'
import resource, subprocess, sys, time
out, inp, cmd = sys.argv[1], sys.argv[2], sys.argv[3:]
t0 = time.time()
with open(inp, 'rb') as i, open(out, 'wb') as o:
    rc = subprocess.call(cmd, stdin=i, stdout=o, stderr=subprocess.STDOUT)
print(rc, int((time.time() - t0) * 1000), resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
PYEOF
  read -r RC MS RSSKB <"$T/$name.meas"
}

# ---- a small filesystem that can be filled (tmpfs; needs root) ----
mount_tmpfs() { # DIR SIZE
  mkdir -p "$1" && mount -t tmpfs -o "size=$2,mode=700" tmpfs "$1" 2>"$T/mount.err" || return 1
  MOUNTS+=("$1")
}
fillcmd() { printf "dd if=/dev/zero of='%s/.fill1' bs=64k 2>/dev/null; dd if=/dev/zero of='%s/.fill2' bs=4k 2>/dev/null; dd if=/dev/zero of='%s/.fill3' bs=512 2>/dev/null; dd if=/dev/zero of='%s/.fill4' bs=1 count=4096 2>/dev/null; true" "$1" "$1" "$1" "$1"; }
fill() { eval "$(fillcmd "$1")"; }
unfill() { rm -f "$1"/.fill*; }
need_tmpfs() { mount_tmpfs "$1" "$2" || { fail "cannot mount a tmpfs at $1 (root needed): $(head -c 200 "$T/mount.err")"; finish; }; }


# ---- thermal samples (nvidia-smi --query-gpu ... --format=csv) and a training log ----
cat >"$T/thermal.py" <<'PYEOF'
import argparse, datetime as dt, json, sys
ap = argparse.ArgumentParser()
ap.add_argument('kind', choices=['csv', 'log'])
ap.add_argument('out')
ap.add_argument('--minutes', type=float, default=120)
ap.add_argument('--step', type=float, default=30, help='seconds between samples')
ap.add_argument('--start', default='2026-11-29 12:00:00')
ap.add_argument('--temp', default='62,62', help='first,last (linear over the second half)')
ap.add_argument('--power', default='100', help='watts, or NA')
ap.add_argument('--clock', default='2400,2400', help='first,last MHz (over the second half)')
ap.add_argument('--order', default='ts,temp,power,clock,util')
ap.add_argument('--temp-fmt', default='{:.0f}')
ap.add_argument('--power-fmt', default='{:.2f} W')
ap.add_argument('--slow-after', type=float, default=-1, help='log: minutes after which steps are 35 %% slower')
a = ap.parse_args()
t0 = dt.datetime.strptime(a.start, '%Y-%m-%d %H:%M:%S')
n = int(a.minutes * 60 / a.step) + 1
HDR = {'ts': 'timestamp', 'temp': ' temperature.gpu', 'power': ' power.draw [W]', 'clock': ' clocks.sm [MHz]', 'util': ' utilization.gpu [%]'}
order = a.order.split(',')
def lin(spec, i):
    x0, x1 = [float(v) for v in spec.split(',')]
    half = n // 2
    if i < half: return x0
    return x0 + (x1 - x0) * (i - half) / max(1, n - 1 - half)
with open(a.out, 'w') as f:
    if a.kind == 'csv':
        f.write(','.join(HDR[c] if j else HDR[c].strip() for j, c in enumerate(order)) + '\n')
        for i in range(n):
            t = t0 + dt.timedelta(seconds=i * a.step)
            v = {'ts': t.strftime('%Y/%m/%d %H:%M:%S.000'),
                 'temp': a.temp_fmt.format(lin(a.temp, i)),
                 'power': '[N/A]' if a.power == 'NA' else a.power_fmt.format(float(a.power) + (i % 3) * 0.4),
                 'clock': '%d MHz' % lin(a.clock, i), 'util': '99 %'}
            f.write(', '.join(v[c] for c in order) + '\n')
    else:
        t = t0 + dt.timedelta(seconds=5); step = 0; end = t0 + dt.timedelta(minutes=a.minutes)
        while t < end:
            slow = a.slow_after >= 0 and (t - t0).total_seconds() > a.slow_after * 60
            st = 1.35 if slow else 1.0
            step += 10; t += dt.timedelta(seconds=10 * st)
            f.write(json.dumps({'timestamp': t.strftime('%Y-%m-%dT%H:%M:%S'), 'step': step,
                                'loss': round(2.0 - step * 1e-4, 4), 'step_time': st}) + '\n')
PYEOF
# thermal_csv OUT [options]   thermal_log OUT [options]
thermal_csv() { local o=$1; shift; python3 "$T/thermal.py" csv "$o" "$@"; }
thermal_log() { local o=$1; shift; python3 "$T/thermal.py" log "$o" "$@"; }
RE_TVERDICT='throttl|no thermal event|not enough data|power cap|low-power|cannot tell|can.t tell'

# ================= scenario =================
thermal_csv "$T/grow.csv" --minutes 600 --step 1 --temp 62,80 --power 100
thermal_log "$T/grow.log" --minutes 600 --slow-after 300
python3 - "$T/grow.csv" "$T/grow.log" <<'PY' &
import sys, time, json
csv, log = sys.argv[1], sys.argv[2]
row = '2026/11/29 22:00:00.000, 80, 100.00 W, 2150 MHz, 99 %\n' * 2000
line = json.dumps({'timestamp': '2026-11-29T22:00:00', 'step': 1, 'loss': 1.0, 'step_time': 1.3}) + '\n'
t0 = time.time()
with open(csv, 'a') as f, open(log, 'a') as g:
    while time.time() - t0 < 15:
        f.write(row); f.flush(); g.write(line * 200); g.flush(); time.sleep(0.05)
PY
W=$!; BGPIDS+=($W)
sleep 0.3
cmd g thermal "$T/grow.csv" --train-log "$T/grow.log"
kill "$W" 2>/dev/null
crashed "$RC" "$T/g.all" && fail "growing files: crashed or hung (exit $RC)"
case $RC in 0|1) ;; *) fail "growing files: exit $RC";; esac
[ "$MS" -lt 20000 ] || fail "growing files: took ${MS} ms (followed the writer?)"
want "$T/g.all" "$RE_TVERDICT" "growing files: no verdict"
# a big file cut short while it is read
python3 - "$T/big.csv" <<'PY'
import sys
with open(sys.argv[1], 'w') as f:
    f.write('timestamp, temperature.gpu, power.draw [W], clocks.sm [MHz], utilization.gpu [%]\n')
    for d in range(10):
        f.write(''.join('2026/11/%02d %02d:%02d:%02d.000, 70, 100.00 W, 2400 MHz, 99 %%\n' % (10 + d, s // 3600, s // 60 % 60, s % 60) for s in range(0, 86400, 1)))
PY
thermal_log "$T/t.log" --minutes 60
for cut in 4096 0 100000; do
  cp "$T/big.csv" "$T/shrink.csv"
  ( sleep 0.03; truncate -s "$cut" "$T/shrink.csv" ) &
  cmd s thermal "$T/shrink.csv" --train-log "$T/t.log"
  wait
  crashed "$RC" "$T/s.all" && fail "file cut to $cut bytes while read: crashed or hung (exit $RC)"
done
# replaced by rename while read
cp "$T/big.csv" "$T/swap.csv"; thermal_csv "$T/other.csv" --minutes 10
( sleep 0.03; mv -f "$T/other.csv" "$T/swap.csv" ) &
cmd m thermal "$T/swap.csv" --train-log "$T/t.log"
wait
crashed "$RC" "$T/m.all" && fail "file replaced by rename while read: crashed or hung (exit $RC)"
finish
