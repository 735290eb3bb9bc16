# common.sh: sourced by every scenario of set 10 after it sets SID.
# Isolates the environment, gives helpers for one-shot calls, driven chat
# sessions, fake model servers, tmpfs mounts and checks, and prints the verdict.
set -u
LIB=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
BIN_IN=${1:-}
if [ -z "$BIN_IN" ]; then echo "FAIL $SID: no headroom binary given as \$1"; exit 1; fi
BIN=$(readlink -f "$BIN_IN")
if [ ! -x "$BIN" ]; then echo "FAIL $SID: $BIN_IN is not an executable file"; exit 1; fi

# --- environment ------------------------------------------------------------
for _v in $(compgen -e); do case $_v in HEADROOM_*) unset "$_v" ;; esac; done
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy NO_PROXY no_proxy
WORK=$(mktemp -d "${TMPDIR:-/tmp}/hr10-$SID.XXXXXX") || { echo "FAIL $SID: mktemp failed"; exit 1; }
chmod 700 "$WORK"
cd "$WORK" || exit 1
export HOME=$WORK/home
export XDG_CONFIG_HOME=$HOME/.config XDG_DATA_HOME=$HOME/.local/share \
       XDG_CACHE_HOME=$HOME/.cache XDG_STATE_HOME=$HOME/.local/state XDG_RUNTIME_DIR=$WORK/run
mkdir -p "$XDG_CONFIG_HOME" "$XDG_DATA_HOME" "$XDG_CACHE_HOME" "$XDG_STATE_HOME" "$XDG_RUNTIME_DIR"
chmod -R 700 "$HOME" "$XDG_RUNTIME_DIR"
export DBUS_SESSION_BUS_ADDRESS="unix:path=$WORK/no-such-bus"
export NO_COLOR=1 COLUMNS=100 TZ=UTC LC_ALL=C.UTF-8
unset TERM_PROGRAM

T0=2026-11-29T14:00:00Z
T0S=$(date -u -d "$T0" +%s)
# at SECONDS: T0 plus (or minus) that many seconds, as RFC 3339
at() { date -u -d "@$(( T0S + $1 ))" +%Y-%m-%dT%H:%M:%SZ; }

RUN="QLoRA on Llama 3.1 70B, batch 1, packing 2048"
Q_GMU="what does gpu-memory-utilization do for vllm?"

FAILS=()
BGPIDS=()
MOUNTS=()
note() { echo "[$SID] $*" >&2; }
fail() { FAILS+=("$*"); echo "[$SID] CHECK FAILED: $*" >&2; }
tool() { python3 "$LIB/tools.py" "$@"; }

cleanup() {
  local p m
  for p in "${BGPIDS[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
  BGPIDS=()
  for m in "${MOUNTS[@]}"; do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null; done
  MOUNTS=()
  cd /
  if [ ${#FAILS[@]} -eq 0 ] && [ -z "${HR_KEEP:-}" ]; then rm -rf "$WORK"; else note "work directory kept: $WORK"; fi
}
finish() {
  cleanup
  if [ ${#FAILS[@]} -eq 0 ]; then echo "PASS $SID"; else
    local msg="" f
    for f in "${FAILS[@]}"; do msg+="${msg:+; }$f"; done
    echo "FAIL $SID: $msg"
  fi
  exit 0
}
trap 'FAILS+=("interrupted (the scenario ran out of time)"); cleanup; echo "FAIL $SID: interrupted before its checks ended (time limit)"; exit 143' INT TERM

# --- inputs -----------------------------------------------------------------
mkdata() { mkdir -p -m 700 "$WORK/$1"; chmod 700 "$WORK/$1"; echo "$WORK/$1"; }
free_g() { # free_g AVAILABLE [TOTAL] : a `free -g` paste
  local av=${1:-115} tot=${2:-119}
  printf '               total        used        free      shared  buff/cache   available\n'
  printf 'Mem:          %6s           4          %3s           0          35         %3s\n' "$tot" "$(( av > 35 ? av - 35 : 0 ))" "$av"
  printf 'Swap:             15           0          15\n'
}
ps_head() { printf 'USER         PID %%CPU %%MEM      VSZ      RSS TTY      STAT START   TIME COMMAND\n'; }
ps_row() { # ps_row PID COMMAND...
  local pid=$1; shift
  printf '%-10s %6s %4s %4s %8s %8s %-8s %-4s %5s %6s %s\n' owner "$pid" 2.1 11.8 98123456 14680064 '?' Sl 13:02 4:51 "$*"
}
VLLM_CMD="/home/owner/venv/bin/python3 /home/owner/venv/bin/vllm serve meta-llama/Llama-3.1-8B-Instruct --port 8000"
listing() { ps_head; ps_row 41500 "$VLLM_CMD"; }

# --- running headroom -------------------------------------------------------
# run1 NAME TIMEOUT [VAR=VAL ...] -- ARGS...   (stdin: $IN, or /dev/null)
# leaves NAME.out NAME.err NAME.rc NAME.ms in $WORK
run1() {
  local name=$1 to=$2; shift 2
  local envs=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  local s e
  s=$(date +%s%N)
  env "${envs[@]}" timeout -k 5 "$to" "$BIN" "$@" <"${IN:-/dev/null}" >"$WORK/$name.out" 2>"$WORK/$name.err"
  echo $? >"$WORK/$name.rc"
  e=$(date +%s%N)
  echo $(( (e - s) / 1000000 )) >"$WORK/$name.ms"
  note "$name: rc=$(cat "$WORK/$name.rc") in $(cat "$WORK/$name.ms") ms"
}
rc_of() { cat "$WORK/$1.rc" 2>/dev/null || echo none; }
ms_of() { cat "$WORK/$1.ms" 2>/dev/null || echo 999999; }

# drive NAME TIMEOUT [drive.py options] -- ARGS...   (script on stdin)
# leaves $WORK/NAME/{s0,s1,...,all,err,rc,times,...}
drive() {
  local name=$1 to=$2; shift 2
  python3 "$LIB/drive.py" --out "$WORK/$name" --bin "$BIN" --timeout "$to" "$@"
  note "$name: rc=$(cat "$WORK/$name/rc" 2>/dev/null) slices=$(ls "$WORK/$name" | grep -c '^s[0-9]') exit at $(cat "$WORK/$name/exit_t" 2>/dev/null)s"
}
S() { echo "$WORK/$1/s$2"; }          # slice K of session NAME
SL() { local n=$1 k=$2; echo "$WORK/$n/s$k" "$WORK/$n/s$((k + 1))"; }  # slice K and K+1
crashed() { # crashed RC FILES... : true when the run crashed
  local rc=$1; shift
  case $rc in 101|124|134|137|139) return 0 ;; esac
  grep -aqs 'panicked at' "$@" && return 0
  return 1
}
no_crash() { # no_crash LABEL RC FILES...
  local label=$1 rc=$2; shift 2
  if crashed "$rc" "$@"; then fail "$label: crashed or hung (rc=$rc)"; return 1; fi
  return 0
}
drive_ok() { # drive_ok NAME: the session ended by itself, no crash
  no_crash "$1" "$(cat "$WORK/$1/rc" 2>/dev/null || echo none)" "$WORK/$1/all" "$WORK/$1/err"
}

# --- checks -----------------------------------------------------------------
kills() { tool kills "$@"; }
has_kill() { kills "${@:2}" | grep -qx -- "$1"; }
# nokill LABEL FILES...: no kill command at all in FILES
nokill() { local k; k=$(kills "${@:2}" | tr '\n' ' '); [ -z "$k" ] || fail "$1: kill command(s) shown for pid(s) $k"; }
# wm REGEX FILES...: case-insensitive regex over the files (a [W] check)
wm() { local rx=$1; shift; cat "$@" 2>/dev/null | tr '\n' ' ' | grep -aEiq -- "$rx"; }
cnt() { tool count "$1" "${@:2}"; }
# le_count LABEL STR PLAIN LLM: the LLM run shows STR no more often than the plain run
le_count() {
  local a b; a=$(cnt "$2" "$3"); b=$(cnt "$2" "$4")
  [ "$b" -le "$a" ] || fail "$1: '$2' shown $b time(s) with the model, $a without"
}
ge_count() {
  local a b; a=$(cnt "$2" "$3"); b=$(cnt "$2" "$4")
  [ "$b" -ge "$a" ] || fail "$1: '$2' shown $b time(s) with the model, $a without (lost)"
}
present() { # present LABEL STR FILES...
  grep -aqiF -- "$2" "${@:3}" 2>/dev/null || fail "$1: '$2' not shown"
}
absent() { # absent LABEL STR FILES...
  if grep -aqiF -- "$2" "${@:3}" 2>/dev/null; then fail "$1: '$2' shown"; fi
}

# --- fake model servers -----------------------------------------------------
# start_llm NAME MODE [fakellm options]: sets ${NAME}_PORT, log in $WORK/NAME.log
start_llm() {
  local name=$1 mode=$2; shift 2
  rm -f "$WORK/$name.port"
  python3 "$LIB/fakellm.py" --port-file "$WORK/$name.port" --log "$WORK/$name.log" --mode "$mode" "$@" \
    >"$WORK/$name.srv.out" 2>&1 &
  BGPIDS+=($!)
  local i
  for i in $(seq 1 100); do [ -s "$WORK/$name.port" ] && break; sleep 0.05; done
  if [ ! -s "$WORK/$name.port" ]; then fail "setup: fake model server $name did not start"; finish; fi
  printf -v "${name}_PORT" '%s' "$(cat "$WORK/$name.port")"
  touch "$WORK/$name.log"
}
posts() { tool llm "$WORK/$1.log" posts; }
offered() { tool llm "$WORK/$1.log" offered "$2"; }

# --- filesystems ------------------------------------------------------------
# mount_tmpfs DIR OPTIONS : a private tmpfs (needs root); FAILs the scenario if it cannot
mount_tmpfs() {
  mkdir -p "$1"
  if ! mount -t tmpfs -o "mode=0700,$2" tmpfs "$1" 2>"$WORK/mount.err"; then
    fail "needs root: mounting a tmpfs at $1 ($2) failed: $(head -c 200 "$WORK/mount.err")"
    finish
  fi
  MOUNTS+=("$1")
}
# fill DIR: fill the filesystem holding DIR until writes fail (ENOSPC)
fill() {
  local i
  for i in 1 2 3; do dd if=/dev/zero of="$1/.filler$i" bs=$(( 65536 >> (i * 3) )) 2>/dev/null; done
  : > "$1/.filler-probe" 2>/dev/null
  note "filled $1: $(df -k "$1" | tail -1 | awk '{print $4}') KiB left"
}
unfill() { rm -f "$1"/.filler*; }

# --- sessions with and without a model -------------------------------------
spec_oai() { echo "openai:fake-135m@http://127.0.0.1:$1/v1"; }
spec_oll() { echo "ollama:fake-135m@http://127.0.0.1:$1"; }
# plain_session NAME SCRIPT [drive options]: the same dialogue without a model
plain_session() {
  local n=$1 sc=$2; shift 2; local d; d=$(mkdata "$n.d")
  drive "$n" 45 --env HEADROOM_NOW=$T0 "$@" -- --data-dir "$d" <"$sc"
}
# llm_session NAME SPEC SCRIPT [drive options]: the dialogue with --llm SPEC
# (timeout $LLM_TO seconds, 60 by default)
llm_session() {
  local n=$1 spec=$2 sc=$3; shift 3; local d; d=$(mkdata "$n.d")
  drive "$n" "${LLM_TO:-60}" --start 8 --quiet 1 --env HEADROOM_NOW=$T0 "$@" -- --data-dir "$d" --llm "$spec" <"$sc"
}
# why_line PLAIN LLM LABEL: [W] some line the model run added says why (the model's
# text was not used); added lines = lines of LLM's output that PLAIN's lacks
why_line() {
  local added; added=$(tool added "$WORK/$1/all" "$WORK/$2/all")
  if ! printf '%s' "$added" | grep -aEiq 'model|phras|llm|guard|wording|server|rephras|own text|refus|reject'; then
    fail "[W] $3: no line saying why the model's text was not used (added lines: $(printf '%s' "$added" | head -c 300 | tr '\n' '|'))"
  fi
}
# asked LOG LABEL: control, the fake model got at least one phrasing request
asked() { local n; n=$(posts "$1"); [ "$n" -ge 1 ] || fail "control: $2: the model was never asked to phrase anything (0 requests), so the guard was not exercised"; }
# offer LOG STR LABEL: control, the fake model did send STR
offer() { local n; n=$(offered "$1" "$2"); [ "$n" -ge 1 ] || fail "control: $3: the model never sent '$2'"; }
VERDICT_RX='thermal throttling|power-delivery|low-power state|power cap only|no thermal event|not enough data'

# thermal inputs: good.csv (2 h at 30 s, 62 C, 58 W, 2405 MHz) and train.log
make_thermal() {
  python3 "$LIB/gen.py" smi "$WORK/good.csv" 240 2026-11-29T14:00:00Z 30 62 58 2405
  python3 "$LIB/gen.py" trainlog "$WORK/train.log" 2026-11-29T14:00:00Z 700 10
}
# fast LABEL NAME MS: the call NAME ended (no timeout) within MS milliseconds
fast() { local ms; ms=$(ms_of "$2"); [ "$ms" -le "$3" ] || fail "$1: took $ms ms (limit $3)"; }
# big_listing N: a ps aux listing of N harmless processes around the vLLM at 41500
big_listing() {
  ps_head; local i
  for i in $(seq 1 "$1"); do
    ps_row $((3000 + i)) "/usr/bin/python3 /home/owner/tools/monitor_$i.py --interval 30 --output /home/owner/logs/monitor_$i.log --config /etc/monitor/$i.yaml"
    [ "$i" -eq $(( $1 / 2 )) ] && ps_row 41500 "$VLLM_CMD"
  done
}
# long_traceback N: a real-looking CUDA OOM traceback with N frames (about 130 B each)
long_traceback() {
  echo "Traceback (most recent call last):"
  echo '  File "/home/owner/train.py", line 212, in <module>'
  echo "    trainer.train()"
  local i
  for i in $(seq 1 "$1"); do
    echo '  File "/home/owner/venv/lib/python3.12/site-packages/torch/nn/modules/module.py", line '$((1700 + i))', in _call_impl'
    echo "    return forward_call(*args, **kwargs)"
  done
  echo "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 119.70 GiB of which 1.12 GiB is free. Including non-PyTorch memory, this process has 110.31 GiB memory in use."
}
