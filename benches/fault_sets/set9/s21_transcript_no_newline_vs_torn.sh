#!/usr/bin/env bash
# s21_transcript_no_newline_vs_torn: a whole last record without its final newline is kept (no .torn file, next record on its own line); a truly torn one is cut back with a .torn copy
# usage: s21_transcript_no_newline_vs_torn.sh /path/to/headroom   -> prints one final line: PASS s21 | FAIL s21: why
# (HR_KEEP=1 keeps the temp dir; diagnostics go to stderr)
SID=s21
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

# ================= scenario =================
D=$(newdir d)
chat_text a "$(ts 0)" "$D" "$(turns "$RUN" 'actually packing 1024')"
[ "$RC" = 0 ] || fail "the first session exited $RC"
TR="$D/transcript.jsonl"
[ -s "$TR" ] || { fail "no transcript.jsonl after a session"; finish; }
jsonl_ok "$TR" "the first session's transcript is not JSON lines" nl
cp -a "$D" "$T/dt"
LAST=$(tail -n 1 "$TR")
truncate -s -1 "$TR"                      # drop the final newline only
chat_text b "$(ts $HOUR)" "$D" "$(turns 'will it fit?')"
[ "$RC" = 0 ] || fail "the restart exited $RC"
want "$T/b.out" '1024' "the restart lost the correction (packing 1024)"
ls "$D" | grep -q 'torn' && fail "a valid last record without a newline was treated as torn (.torn file made)"
grep -qxF -- "$LAST" "$TR" || fail "the last record (no newline) was not kept whole on its own line"
jsonl_ok "$TR" "after the restart the transcript has a line that is not JSON (record glued to the next?)" nl
# control: a truly torn record is cut back and kept aside
printf '{"kind":"turn","text":"TORNMARK-9 actually bat' >>"$T/dt/transcript.jsonl"
chat_text c "$(ts $HOUR)" "$T/dt" "$(turns 'will it fit?')"
[ "$RC" = 0 ] || fail "control: the restart after a torn record exited $RC"
ls "$T/dt" | grep -q 'torn' || fail "control: a torn last record left no transcript.jsonl.torn-* copy"
grep -rqa 'TORNMARK-9' "$T/dt" || fail "control: the torn record's bytes were lost"
jsonl_ok "$T/dt/transcript.jsonl" "control: the torn record was not cut back" nl
want "$T/c.out" '1024' "control: after the cut, the correction (packing 1024) was lost"
finish
