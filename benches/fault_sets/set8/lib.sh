# shellcheck shell=bash
# lib.sh: helpers shared by the headroom fault scenarios. A scenario sets SID, then
# sources this file with the scenario's own arguments ("$@": the headroom binary).
# Every scenario prints exactly one final line: "PASS sNN" or "FAIL sNN: why".
# KEEP=1 keeps the scenario's temp dir (its path goes to the original stderr).

set -u
exec 3>&2
LIB_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
FX="$LIB_DIR/fx.py"
LLM_SERVER="$LIB_DIR/llm_server.py"

if [ -z "${1:-}" ]; then echo "FAIL $SID: usage: $0 /path/to/headroom"; exit 2; fi
case "$1" in /*) BIN="$1" ;; *) BIN="$PWD/$1" ;; esac
if [ ! -f "$BIN" ] || [ ! -x "$BIN" ]; then
  echo "FAIL $SID: setup: $BIN is not an executable file"; exit 2
fi

T="$(mktemp -d "${TMPDIR:-/tmp}/headroom-$SID.XXXXXX")" || { echo "FAIL $SID: setup: mktemp"; exit 2; }
chmod 700 "$T"
exec 2>>"$T/_script.stderr"

REASONS=()
BGPIDS=()
MOUNTS=()
LIVE_PID=""
LIVE_NAME=""

cleanup() {
  local p m
  [ -n "$LIVE_PID" ] && exec 7>&- 2>/dev/null
  for p in "${BGPIDS[@]:-}"; do [ -n "$p" ] && kill "$p" 2>/dev/null; done
  for p in "${BGPIDS[@]:-}"; do [ -n "$p" ] && wait "$p" 2>/dev/null; done
  for m in "${MOUNTS[@]:-}"; do
    [ -n "$m" ] && { umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null; }
  done
  if [ -n "${KEEP:-}" ]; then echo "kept $T" >&3; else rm -rf "$T"; fi
}
trap cleanup EXIT

# ---- a private, predictable environment for every headroom process
for v in $(compgen -e); do
  case "$v" in HEADROOM_*|http_proxy|https_proxy|HTTP_PROXY|HTTPS_PROXY|all_proxy|ALL_PROXY|no_proxy|NO_PROXY|DBUS_SESSION_BUS_ADDRESS|XDG_*) unset "$v" ;; esac
done
export HOME="$T/home"
export XDG_CONFIG_HOME="$T/home/.config" XDG_DATA_HOME="$T/home/.local/share"
export XDG_CACHE_HOME="$T/home/.cache" XDG_STATE_HOME="$T/home/.local/state"
export XDG_RUNTIME_DIR="$T/run"
mkdir -p "$XDG_CONFIG_HOME" "$XDG_DATA_HOME" "$XDG_CACHE_HOME" "$XDG_STATE_HOME" "$XDG_RUNTIME_DIR"
chmod 700 "$HOME" "$XDG_RUNTIME_DIR"
export NO_COLOR=1 COLUMNS=100 TERM=dumb TZ=UTC LANG=C.UTF-8 LC_ALL=C.UTF-8

# ---- fixed texts
NOW0="2026-11-29T14:56:00Z"
RUN_TXT="LoRA on Qwen2.5 7B, bf16, batch 2, max_seq_length=4096"
PEAK2='60\.17'     # README: this run's peak at batch 2
PEAK4='99\.76'     # README: the same run at batch 4
PS_HDR="USER         PID %CPU %MEM      VSZ      RSS TTY      STAT START   TIME COMMAND"
FREE_TXT='               total        used        free      shared  buff/cache   available
Mem:             119           4          80           0          35         115
Swap:             15           0          15'
# "not saved / read-only" line (README: "This turn is not saved"; a start that cannot write is read-only)
NOTSAVED_RE='not saved|read-only|read only|no space|disk (is )?full|could not (be )?(write|written|save|saved)|cannot (be )?(write|written|save|saved)|unable to (write|save)'

vllm_row() { # vllm_row PID [FRACTION]
  local cmd="/home/alice/.venv/bin/python3 /home/alice/.venv/bin/vllm serve meta-llama/Llama-3.1-8B-Instruct --port 8000"
  [ -n "${2:-}" ] && cmd="$cmd --gpu-memory-utilization $2"
  printf 'alice    %7s 12.0 38.2 98765432 48234567 ?        Sl   09:12  41:07 %s' "$1" "$cmd"
}
ollama_row() { # ollama_row PID
  printf 'ollama   %7s  3.5 52.1 92345678 66234567 ?        Ssl  08:00   3:10 /usr/local/bin/ollama serve' "$1"
}
listing() { # listing PID... : ps aux header and one uncapped vLLM row per pid
  local p; printf '%s' "$PS_HDR"
  for p in "$@"; do printf '\n%s' "$(vllm_row "$p")"; done
}

# ---- results
bad() { REASONS+=("$*"); }
finish() {
  if [ ${#REASONS[@]} -eq 0 ]; then
    echo "PASS $SID"
  else
    local msg="" r
    for r in "${REASONS[@]}"; do msg="${msg:+$msg; }$r"; done
    printf 'FAIL %s: %s\n' "$SID" "$(printf '%s' "$msg" | tr '\n\r\t' '   ')"
  fi
  exit 0
}

# ---- running headroom
mkdd() { local d="$T/$1"; mkdir -p "$d"; chmod 700 "$d"; printf '%s' "$d"; }
RUN_PREFIX=()
# run NAME NOW DD [args...]: stdin from the caller; keeps NAME.out NAME.err NAME.rc NAME.ms
run() {
  local name="$1" now="$2" dd="$3" t0 rc; shift 3
  t0=$(date +%s%3N)
  HEADROOM_NOW="$now" timeout 30 "${RUN_PREFIX[@]}" "$BIN" --data-dir "$dd" "$@" \
    >"$T/$name.out" 2>"$T/$name.err" 7>&-
  rc=$?
  echo "$rc" >"$T/$name.rc"
  echo $(( $(date +%s%3N) - t0 )) >"$T/$name.ms"
  return 0
}
# chat NAME NOW DD TEXT [args...]: a piped session whose stdin is TEXT (turns split by blank lines)
chat() { local name="$1" now="$2" dd="$3" text="$4"; shift 4; printf '%s\n' "$text" | run "$name" "$now" "$dd" "$@"; }
rc_of() { cat "$T/$1.rc"; }
ms_of() { cat "$T/$1.ms"; }
out_of() { cat "$T/$1.out" "$T/$1.err" 2>/dev/null; }
# Regexes are Python `re` syntax (the matcher is fx.py; no grep needed).
has() { out_of "$1" | python3 "$FX" grep i "$2"; }        # case-insensitive, stdout+stderr
has_cs() { out_of "$1" | python3 "$FX" grep c "$2"; }     # case-sensitive
count_re() { out_of "$1" | python3 "$FX" grep n "$2"; }   # number of matches
count_flat() { out_of "$1" | python3 "$FX" flat "$2"; }   # matches with line wraps undone
file_has() { python3 "$FX" grep i "$2" "$1"; }            # file_has FILE REGEX
panicked() { has_cs "$1" 'panicked at|stack backtrace|RUST_BACKTRACE'; }
# a kill command for PID: kill [-SIG...] [--] PID (same line)
kill_re() { printf '(?<![\\w-])kill(?:[ \\t]+-\\w+)*[ \\t]+(?:--[ \\t]+)?%s(?!\\d)' "$1"; }
has_kill() { has_cs "$1" "$(kill_re "$2")"; }
rc_is() { [ "$(rc_of "$1")" = "$2" ]; }
sane_rc() { local r; r=$(rc_of "$1"); [ "$r" -lt 124 ]; }   # not killed by timeout, not a signal
transcript_of() { # transcript_of DD: the transcript file (README: transcript.jsonl)
  local f
  if [ -f "$1/transcript.jsonl" ]; then printf '%s' "$1/transcript.jsonl"; return; fi
  for f in "$1"/*.jsonl "$1"/*/*.jsonl; do [ -f "$f" ] && { printf '%s' "$f"; return; }; done
  printf '%s' "$1/transcript.jsonl"
}
jsonl_bad() { python3 "$FX" jsonl_bad "$1"; }     # '' when every line is one JSON value

# ---- a live piped session (stdin is a FIFO this script writes turns into; fd 7)
live_start() { # live_start NAME NOW DD [args...]
  local name="$1" now="$2" dd="$3"; shift 3
  mkfifo "$T/$name.fifo"
  exec 7<>"$T/$name.fifo"
  LIVE_NAME="$name"; LIVE_T0=$(date +%s%3N)
  HEADROOM_NOW="$now" timeout 30 "$BIN" --data-dir "$dd" "$@" \
    <"$T/$name.fifo" >"$T/$name.out" 2>"$T/$name.err" 7>&- &
  LIVE_PID=$!
  BGPIDS+=("$LIVE_PID")
}
live_send() { printf '%s\n\n' "$1" >&7; }
live_send_file() { cat "$1" >&7; printf '\n\n' >&7; }
live_end() {
  exec 7>&-
  wait "$LIVE_PID"; echo $? >"$T/$LIVE_NAME.rc"
  echo $(( $(date +%s%3N) - LIVE_T0 )) >"$T/$LIVE_NAME.ms"
  LIVE_PID=""
}
# wait_re FILE REGEX SECONDS: 0 once FILE matches (case-insensitive), 1 on time-out
wait_re() {
  local f="$1" re="$2" n=$(( $3 * 5 ))
  while [ "$n" -gt 0 ]; do
    [ -f "$f" ] && python3 "$FX" grep i "$re" "$f" && return 0
    sleep 0.2; n=$((n - 1))
  done
  return 1
}
# wait_turn NAME REGEX SECONDS: the live session's stdout+stderr shows REGEX
wait_turn() {
  local n=$(( $3 * 5 ))
  while [ "$n" -gt 0 ]; do
    has "$1" "$2" && { sleep 0.3; return 0; }
    sleep 0.2; n=$((n - 1))
  done
  return 1
}
size_of() { stat -c %s "$1" 2>/dev/null || echo 0; }

# ---- servers and filesystems
start_llm() { # start_llm NAME MODE [EXTRA] -> sets PORT_<NAME>
  local name="$1" mode="$2" extra="${3:-}" n=50
  python3 "$LLM_SERVER" "$mode" "$T/$name.port" "$T/$name.log" "$extra" 7>&- &
  BGPIDS+=("$!")
  while [ ! -s "$T/$name.port" ] && [ "$n" -gt 0 ]; do sleep 0.1; n=$((n - 1)); done
  [ -s "$T/$name.port" ] || { echo "FAIL $SID: setup: fake model server $mode did not start"; exit 0; }
  printf -v "PORT_$name" '%s' "$(cat "$T/$name.port")"
}
llm_requests() { python3 "$FX" grep n '"method": ' "$T/$1.log"; }
llm_posts() { python3 "$FX" grep n '"method": "POST"' "$T/$1.log"; }
need_root_tmpfs() { # need_root_tmpfs DIR SIZE
  if [ "$(id -u)" != 0 ]; then echo "FAIL $SID: setup: needs root to mount a tmpfs"; exit 0; fi
  mkdir -p "$1"
  mount -t tmpfs -o "size=$2,mode=0755" tmpfs "$1" 2>/dev/null \
    || { echo "FAIL $SID: setup: cannot mount a tmpfs of $2 at $1"; exit 0; }
  MOUNTS+=("$1")
}
fill_disk() { dd if=/dev/zero of="$1" bs=4096 >/dev/null 2>&1; dd if=/dev/zero of="$1.2" bs=512 >/dev/null 2>&1; sync; return 0; }
# rows_of NAME PID: one line per table row of NAME's stdout whose first cell is PID:
# its keep/stop decision ('keep', 'stop') or '-' when the row has none (not judged)
rows_of() { python3 "$FX" rows "$T/$1.out" "$2"; }
# unblock_later FIFO SECONDS: after SECONDS open FIFO read-write and close it, so a product
# blocked opening or reading it is released (the hang still shows in the time taken)
unblock_later() { ( sleep "$2"; exec 5<>"$1"; sleep 0.3 ) 7>&- >/dev/null 2>&1 & BGPIDS+=("$!"); }
# fixtures DIR: DIR/thermal.csv (2 h flat, 55 C, 60 W), DIR/train.log (matching, steady)
fixtures() {
  mkdir -p "$1"
  python3 "$FX" thermal "$1/thermal.csv" flat
  python3 "$FX" trainlog "$1/train.log" 7200 1.0
  printf '%s\n' "$FREE_TXT" >"$1/free.txt"
  listing 415002 >"$1/ps.txt"; echo >>"$1/ps.txt"
  cat >"$1/config.json" <<'JSON'
{"architectures":["Qwen2ForCausalLM"],"model_type":"qwen2","hidden_size":3584,"intermediate_size":18944,"num_attention_heads":28,"num_hidden_layers":28,"num_key_value_heads":4,"vocab_size":152064,"tie_word_embeddings":false,"torch_dtype":"bfloat16","max_position_embeddings":32768,"rms_norm_eps":1e-06,"rope_theta":1000000.0,"hidden_act":"silu"}
JSON
}
# any thermal verdict (README: thermal throttling, a power-delivery low-power state, power
# cap only, no thermal event, or not enough data)
VERDICT_RE='throttl|thermal event|low-power|power cap|not enough data|cannot tell|can.t tell'
FIFO_RE='fifo|named pipe'
NOEVENT_RE='no thermal event'   # the verdict the flat fixture must get
Q_GMU="what does gpu-memory-utilization do for vllm?"
OWN_GMU='121\.69'   # headroom's own answer to Q_GMU names 121.69 GiB (README)
# one line saying why the model's text was not used (README: "headroom's own text, with one
# line saying why")
WHY_RE='(model|phrasing|llm|server|endpoint)[^\n]{0,160}(silent|no text|time|within|stall|slow|deadline|did not|didn.t|no answer|no reply|gave up|not answer|garbl|invalid|could not|couldn.t|unreadable|malformed|refus|reject|guard|not used|too (long|large|big)|limit)|(silent|no text|timed? ?out|stall|deadline|garbl|refus|reject|guard|too (long|large|big))[^\n]{0,160}(model|phrasing|llm|server|endpoint)'
ESC_BYTES='\x1b|\x07|\x9b|\udc9b'
