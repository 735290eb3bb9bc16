#!/usr/bin/env bash
# Shared helpers for set14. Sourced by every sNN_*.sh; $1 of the script is the headroom binary.
set -u
HR="${1:-}"
[ -n "$HR" ] || { echo "FAIL: usage: $0 /path/to/headroom"; exit 1; }
case "$HR" in /*) ;; *) HR="$PWD/$HR";; esac
[ -x "$HR" ] || { echo "FAIL: headroom binary not executable: $HR"; exit 1; }
H="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PY="python3"
T0="2026-11-29T14:00:00Z"
RUN_TXT="QLoRA on Llama 3.1 70B, batch 1, packing 2048"
Q_GMU="what does gpu-memory-utilization do for vllm?"
_BGPIDS=()
_MOUNTS=()
_CHATTR=()

# wall-clock T0 + N seconds (N may be negative)
at() { date -u -d "@$(( $(date -u -d "$T0" +%s) + $1 ))" +%Y-%m-%dT%H:%M:%SZ; }

setup_env() {
  local v
  for v in $(env | sed -n 's/^\(HEADROOM_[A-Za-z0-9_]*\)=.*/\1/p'); do unset "$v"; done
  W="$(mktemp -d "${TMPDIR:-/tmp}/hr14.XXXXXX")"; chmod 700 "$W"; cd "$W" || exit 1
  mkdir -p -m 700 home xdg/config xdg/data xdg/cache xdg/state xdg/run
  export HOME="$W/home" XDG_CONFIG_HOME="$W/xdg/config" XDG_DATA_HOME="$W/xdg/data" \
         XDG_CACHE_HOME="$W/xdg/cache" XDG_STATE_HOME="$W/xdg/state" XDG_RUNTIME_DIR="$W/xdg/run"
  export DBUS_SESSION_BUS_ADDRESS="unix:path=$W/no-such-bus"
  export NO_COLOR=1 COLUMNS=100 TZ=UTC LC_ALL=C.UTF-8
  trap _cleanup EXIT
}

_cleanup() {
  local p m
  for p in "${_BGPIDS[@]:-}"; do [ -n "$p" ] && kill "$p" 2>/dev/null; done
  for p in "${_BGPIDS[@]:-}"; do [ -n "$p" ] && wait "$p" 2>/dev/null; done
  for m in "${_CHATTR[@]:-}"; do [ -n "$m" ] && chattr -i -a "$m" 2>/dev/null; done
  if [ -n "${SET14_KEEP:-}" ]; then echo "kept $W" >&2; return; fi
  for m in "${_MOUNTS[@]:-}"; do [ -n "$m" ] && { umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null; umount -l "$m" 2>/dev/null; }; done
  cd / && [ -n "${W:-}" ] && [ -d "$W" ] && rm -rf "$W"
}

pass() { echo "PASS${1:+ ($1)}"; exit 0; }
fail() { echo "FAIL: $*"; exit 1; }

newdir() { mkdir -p "$1" && chmod 700 "$1"; }

# crash: exit 101/124/134/137/139 or a panic message in the given file(s)
is_crash() { # rc file...
  local rc="$1"; shift
  case "$rc" in 101|124|134|137|139) return 0;; esac
  grep -qs 'panicked at\|overflowed its stack' "$@" && return 0
  return 1
}

# Drive a chat session. Usage: drive OUTDIR SPECJSON  (see _drive.py)
drive() { "$PY" "$H/_drive.py" "$HR" "$1" "$2"; }

# Start the hostile model server. Usage: llm_start NAME MODE [extra args]; sets LLM_PORT_<NAME>
llm_start() { # NAME MODE [--behave B] [more _llm.py args]
  local name="$1" mode="$2"; shift 2
  "$PY" "$H/_llm.py" --mode "$mode" --log "$W/llm_$name.log" --portfile "$W/llm_$name.port" "$@" \
     >"$W/llm_$name.out" 2>&1 &
  _BGPIDS+=($!)
  local i
  for i in $(seq 1 300); do [ -s "$W/llm_$name.port" ] && break; sleep 0.05; done
  [ -s "$W/llm_$name.port" ] || fail "harness: model server $name did not start: $(head -c 300 "$W/llm_$name.out")"
  printf -v "LLM_PORT_$name" '%s' "$(cat "$W/llm_$name.port")"
}
# number of phrasing requests (POST to a chat/generate/completions path) a server got
llm_posts() { "$PY" "$H/_hr.py" posts "$W/llm_$1.log"; }
llm_reqs() { "$PY" "$H/_hr.py" reqs "$W/llm_$1.log"; }

# pids of kill commands in a file
kills() { "$PY" "$H/_hr.py" kills "$@"; }
has_kill() { kills "$1" | tr ' ' '\n' | grep -qx -- "$2"; }

# seconds with fraction
now_s() { date +%s.%N; }
elapsed() { "$PY" -c 'import sys; print("%.2f" % (float(sys.argv[2]) - float(sys.argv[1])))' "$1" "$2"; }
lt() { "$PY" -c 'import sys; sys.exit(0 if float(sys.argv[1]) < float(sys.argv[2]) else 1)' "$1" "$2"; }

# Common listings -----------------------------------------------------------
ps_header='USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND'
ps_vllm() { # pid
  printf '%s\n' "owner      $1  2.1 38.0 132144400 47185920 ?    Sl   13:02   4:11 /usr/bin/python3 -m vllm.entrypoints.openai.api_server --model meta-llama/Llama-3.1-8B-Instruct --port 8000"
}
ps_vllm_capped() { # pid frac
  printf '%s\n' "owner      $1  1.4 20.0 80144400 26214400 ?    Sl   12:40   2:03 /usr/bin/python3 -m vllm.entrypoints.openai.api_server --model Qwen/Qwen2.5-1.5B-Instruct --gpu-memory-utilization $2 --port 8001"
}
ps_ollama() { # pid
  printf '%s\n' "ollama     $1  0.3  1.2 6512000 1572864 ?     Ssl  09:15   0:40 /usr/local/bin/ollama serve"
}
listing() { # pids for: vllm [ollama]
  echo "$ps_header"; ps_vllm "$1"; [ -n "${2:-}" ] && ps_ollama "$2"; true
}

# output up to (and including) slice K: what had arrived before turn K+1 was sent
upto() { local d="$1" k="$2" i; for i in $(seq 0 "$k"); do cat "$d/slice_$i.txt" 2>/dev/null; done; }
# slice K and K+1
around() { cat "$1/slice_$2.txt" "$1/slice_$(( $2 + 1 )).txt" 2>/dev/null; }
# JSON-quote a string for building driver specs
jq_s() { "$PY" -c 'import json,sys; print(json.dumps(sys.argv[1]))' "$1"; }

# steps KEY VAL ...: turn TEXT | file PATH | sh CMD | sleep S | raw TEXT; wait S / until RE modify the last step
steps() { "$PY" - "$@" <<'PYEOF'
import json, sys
a = sys.argv[1:]; out = []
for i in range(0, len(a), 2):
    k, v = a[i], a[i + 1]
    if k in ('wait', 'until'):
        out[-1][k] = float(v) if k == 'wait' else v
    elif k == 'sleep':
        out.append({'sleep': float(v)})
    else:
        out.append({k: v})
print(json.dumps(out))
PYEOF
}
# chat OUT DATADIR NOW STEPS [EXTRA_ARGS_JSON] [EXTRA_ENV_JSON] [TIMEOUT]
chat() {
  local out="$1" dd="$2" now="$3" st="$4" xa="${5:-[]}" xe="${6:-{\}}" to="${7:-30}"
  [ -d "$dd" ] || newdir "$dd"
  local spec
  spec="$("$PY" -c 'import json,sys
dd,now,st,xa,xe,to=sys.argv[1:7]
import os
env={"HEADROOM_NOW":now}; env.update(json.loads(xe))
print(json.dumps({"args":["--data-dir",dd]+json.loads(xa),"env":env,"steps":json.loads(st),"timeout":int(to),
  "quiet":float(os.environ.get("CHAT_QUIET","0.4")),"start_wait":float(os.environ.get("CHAT_START_WAIT","2"))}))' \
    "$dd" "$now" "$st" "$xa" "$xe" "$to")"
  drive "$out" "$spec"
  CHAT_RC="$(cat "$out/rc")"
}
crash_chat() { is_crash "$(cat "$1/rc")" "$1/all.txt"; }
verdict_lines() { grep -i 'verdict' "$@" | sort; }
no_ctl_bytes() { # file: no ESC, BEL, C1 controls
  "$PY" -c 'import sys,re
d=open(sys.argv[1],"rb").read()
bad=[b for b in (b"\x1b",b"\x07",b"\x9b") if b in d]
t=d.decode("utf-8","replace")
c1=[hex(ord(ch)) for ch in t if 0x80<=ord(ch)<=0x9f]
sys.exit(1 if bad or c1 else 0)' "$1"; }

# run the same steps with the model server NAME and without a model; outputs in outL / outN.
# PROTO is openai (default) or ollama. Sets POSTS (phrasing requests the server got).
pair_runs() { # NAME STEPS [PROTO] [EXTRA_ENV_JSON]
  local proto="${3:-openai}" xe="${4:-{\}}" port spec
  port="$(eval echo \$LLM_PORT_$1)"
  if [ "$proto" = ollama ]; then spec="ollama:m@http://127.0.0.1:$port"; else spec="openai:m@http://127.0.0.1:$port/v1"; fi
  chat outL "$W/dL" "$T0" "$2" "[\"--llm\",\"$spec\"]" "$xe" 60
  chat outN "$W/dN" "$T0" "$2"
  crash_chat outL && fail "crash with the model server (rc $(cat outL/rc))"
  crash_chat outN && fail "crash without a model (rc $(cat outN/rc))"
  POSTS=$(llm_posts "$1")
  [ "$POSTS" -ge 1 ] || fail "control: the model server got no phrasing request, so nothing was tested"
}
# count STRING in FILE (wrapped lines joined); cnt_i: case-insensitive; rcnt: regex, case-insensitive
cnt() { "$PY" "$H/_hr.py" count "$1" "$2"; }
cnt_i() { "$PY" "$H/_hr.py" count "$1" "$2" i; }
rcnt() { "$PY" "$H/_hr.py" rcount "$1" "$2"; }
# no_more FILE_L FILE_N STRING...: FAIL if any STRING shows more often in L than in N
no_more() { local l="$1" n="$2" s a b; shift 2
  for s in "$@"; do a=$(cnt_i "$l" "$s"); b=$(cnt_i "$n" "$s")
    [ "$a" -le "$b" ] || fail "'$s' shown $a times with the model, $b without"; done; }
# the model's answers held STRING (control that the attack was sent)
llm_sent() { "$PY" -c 'import json,sys
try:
    L = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8") if l.strip()]
except FileNotFoundError:
    L = []
sys.exit(0 if any(sys.argv[2] in e.get("answer", "") for e in L) else 1)' "$W/llm_$1.log.ans" "$2"; }
# request bodies+headers of server NAME
llm_bodies() { "$PY" "$H/_hr.py" bodies "$W/llm_$1.log"; }
# [W] a why-line: lines naming the model / phrasing shown more often with the model than without
WHY_RX='model|phras|llm|guard|wording|rephras|server|own text|refus|reject'
why_line() { [ "$(rcnt "$1" "$WHY_RX")" -gt "$(rcnt "$2" "$WHY_RX")" ]; }
# typed verdict lines, sorted
vlines() { grep -E 'Verdict:' "$1" | sort; }

THERMAL_RX='thermal throttling|low-power state|power cap only|no thermal event|not enough data'
# good thermal inputs in DIR: thermal.csv (nvidia-smi CSV, 2 h at 30 s) and train.log
good_thermal() { mkdir -p "$1"; "$PY" "$H/_gen.py" thermal "$1/thermal.csv"; "$PY" "$H/_gen.py" trainlog "$1/train.log"; }
mksock() { "$PY" -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])' "$1"; }
# timed one-shot: tcall NAME TIMEOUT args...  -> TC_RC, TC_EL, output in NAME.out
tcall() { local n="$1" to="$2"; shift 2; local s; s=$(now_s)
  HEADROOM_DATA_DIR="$W/oneshot" HEADROOM_NOW="$T0" timeout "$to" "$HR" "$@" > "$W/$n.out" 2>&1 < /dev/null; TC_RC=$?
  TC_EL=$(elapsed "$s" "$(now_s)"); }

# a small tmpfs at $1 (root only); FAIL if it cannot be mounted
mk_tmpfs() { mkdir -p "$1"; mount -t tmpfs -o "size=$2,mode=0700" tmpfs "$1" 2>/dev/null || fail "cannot mount a tmpfs at $1 (needs root)"; _MOUNTS+=("$1"); }
fill_fs() { dd if=/dev/zero of="$1/.filler" bs=4096 2>/dev/null; dd if=/dev/zero of="$1/.filler2" bs=512 2>/dev/null; sync; true; }

# seconds from sending turn K (1-based) until its `until` regex matched (empty if it never matched)
m_after() { "$PY" -c 'import json,sys; t=json.load(open(sys.argv[1]+"/meta.json"))["turns"][int(sys.argv[2])-1]; v=t.get("matched_after"); print("" if v is None else "%.2f" % v)' "$1" "$2"; }
# peak RSS (KiB) of the headroom process in a driven session
peak_kb() { "$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]+"/meta.json")).get("peak_rss_kb",0))' "$1"; }
# session wall time
sess_s() { "$PY" -c 'import json,sys; print("%.2f" % json.load(open(sys.argv[1]+"/meta.json"))["elapsed"])' "$1"; }
# python arithmetic: calc EXPR
calc() { "$PY" -c "print($1)"; }

# ---- set14 additions ---------------------------------------------------------------------------
NOTSAVED_RX='not saved|not be saved|isn.t saved|wasn.t saved|cannot save|can.t save|could not save|couldn.t save|read-only|read only|unsaved|not written|could not write|cannot write|can.t write'
VERDICT_RX='Verdict: (fits|does not fit|tight)'
# a verdict in either form: the typed plan line, or the follow-up sentence a repeated "will it fit?" gets
# ("It fits, so nothing is wrong for memory: … peak 61.07 GB …") (HARNESS_FIXES.md fix 1)
VERDICT_ANY_RX='Verdict: (fits|does not fit|tight)|\b[Ii]t (fits|does not fit|is tight)\b'
FREE_G='               total        used        free      shared  buff/cache   available
Mem:             119           4          80           0          35         115
Swap:             15           0          15'
peaks() { "$PY" "$H/_hr.py" peaks "$1"; }
badctl() { "$PY" "$H/_hr.py" badctl "$@"; }
# kill pids in slices FROM..TO of a driven session
kills_in() { local d="$1" a="$2" b="$3" i f=(); for i in $(seq "$a" "$b"); do [ -f "$d/slice_$i.txt" ] && f+=("$d/slice_$i.txt"); done
  [ ${#f[@]} -gt 0 ] && kills "${f[@]}"; true; }
# a small ext4 filesystem on a loop device at DIR (root only)
mk_ext4() { # DIR SIZE_MB
  mkdir -p "$1"; dd if=/dev/zero of="$W/.ext4.img" bs=1M count="$2" 2>/dev/null
  mkfs.ext4 -q -F "$W/.ext4.img" >/dev/null 2>&1 || fail "harness: mkfs.ext4 failed"
  mount -o loop "$W/.ext4.img" "$1" 2>/dev/null || fail "harness: cannot loop-mount an ext4 image at $1 (needs root)"
  _MOUNTS+=("$1"); chmod 700 "$1"; }
# timed one-shot with peak RSS: rcall NAME TIMEOUT args... (stdin from $RC_IN or /dev/null) -> TC_RC TC_EL TC_RSS (KiB)
rcall() { local n="$1" to="$2"; shift 2; local s; s=$(now_s)
  HEADROOM_DATA_DIR="$W/oneshot" HEADROOM_NOW="$T0" timeout -k 3 "$to" /usr/bin/time -f '%M' -o "$W/$n.rss" "$HR" "$@" \
     > "$W/$n.out" 2>&1 < "${RC_IN:-/dev/null}"; TC_RC=$?
  TC_EL=$(elapsed "$s" "$(now_s)"); TC_RSS=$(tail -n 1 "$W/$n.rss" 2>/dev/null | tr -dc 0-9); TC_RSS=${TC_RSS:-0}
  grep -q 'Command terminated by signal\|Command exited with non-zero status' "$W/$n.rss" 2>/dev/null && true; }
ps_trainer() { # pid
  printf '%s\n' "owner      $1 98.0 31.0 90144400 39845888 pts/3  Rl+  13:40  38:02 /usr/bin/python3 train.py --config qlora-70b.yaml  # trl SFTTrainer"
}
ollama_ps_two='NAME            ID              SIZE     PROCESSOR    UNTIL
gpt-oss:120b    a951a23b46a1    65 GB    100% GPU     4 minutes from now
qwen2.5:32b     9f13ba1299af    22 GB    100% GPU     3 minutes from now'
ollama_ps_empty='NAME    ID    SIZE    PROCESSOR    UNTIL'
# a line that proposes or gives an Ollama unload command for MODEL
unload_lines() { grep -E "ollama stop|keep_alive|keep-alive" "${@:2}" 2>/dev/null | grep -F "$1"; }

# ---- set14 additions ---------------------------------------------------------------------------
LISTING="$(listing 41500)"
# chat_raw OUT NOW STEPS ARGS_JSON [ENV_JSON] [TIMEOUT]: like chat, but the args are given whole (no --data-dir added)
chat_raw() {
  local out="$1" now="$2" st="$3" xa="$4" xe="${5:-{\}}" to="${6:-30}" spec
  spec="$("$PY" -c 'import json,sys,os
now,st,xa,xe,to=sys.argv[1:6]
env={"HEADROOM_NOW":now}; env.update(json.loads(xe))
print(json.dumps({"args":json.loads(xa),"env":env,"steps":json.loads(st),"timeout":int(to),
  "quiet":float(os.environ.get("CHAT_QUIET","0.4")),"start_wait":float(os.environ.get("CHAT_START_WAIT","2"))}))' \
    "$now" "$st" "$xa" "$xe" "$to")"
  drive "$out" "$spec"
  CHAT_RC="$(cat "$out/rc")"
}
# pty_run OUT SPECJSON (see _pty.py); PTY_RC
pty_run() { "$PY" "$H/_pty.py" "$HR" "$1" "$2"; PTY_RC="$(cat "$1/rc")"; }
# whitespace-free count of STRING in FILE
sqcnt() { "$PY" "$H/_hr.py" squashcount "$1" "$2"; }
peakset() { "$PY" "$H/_hr.py" peakset "$@"; }
# slices FROM..TO of a driven session, as file names
slices() { local d="$1" a="$2" b="$3" i; for i in $(seq "$a" "$b"); do [ -f "$d/slice_$i.txt" ] && echo "$d/slice_$i.txt"; done; }
# all of A's words are in B (space-separated sets)
subset() { "$PY" -c 'import sys; a=set(sys.argv[1].split()); b=set(sys.argv[2].split()); sys.exit(0 if a <= b else 1)' "$1" "$2"; }
# the standard approval control: RUN, the vLLM listing, then a plain "yes" gives kill 41500 (in OUT, data dir DD)
ctl_yes_kills() { # OUT DD
  chat "$1" "$2" "$T0" "$(steps turn "$RUN_TXT" turn "$LISTING" turn yes)"
  crash_chat "$1" && fail "crash in the control session (rc $(cat "$1/rc"))"
  has_kill "$1/slice_3.txt" 41500 || fail "control: a plain yes after the proposal did not give kill 41500"
}
# background helpers: run a command in the background and remember it for wait_all
_JOBS=()
bg() { "$@" & _JOBS+=($!); }
wait_all() { local p; for p in "${_JOBS[@]:-}"; do [ -n "$p" ] && wait "$p"; done; _JOBS=(); }
OOM_TB='Traceback (most recent call last):
  File "/home/owner/train.py", line 212, in <module>
    trainer.train()
  File "/usr/lib/python3/dist-packages/transformers/trainer.py", line 2325, in train
    return inner_training_loop(
  File "/usr/lib/python3/dist-packages/torch/utils/checkpoint.py", line 496, in checkpoint
    ret = function(*args, **kwargs)
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 119.70 GiB of which 1.21 GiB is free. Including non-PyTorch memory, this process has 110.46 GiB memory in use. Of the allocated memory 104.22 GiB is allocated by PyTorch, and 4.91 GiB is reserved by PyTorch but unallocated.'
