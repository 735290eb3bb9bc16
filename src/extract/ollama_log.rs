//! Reads a pasted Ollama server log (`journalctl -u ollama`, `ollama serve`
//! output): the runner it started and the context and parallel slots that
//! size its KV cache. It is the inference server's data: its `--batch-size`
//! is llama.cpp's prompt batch, never the training run's batch.

use crate::extract::re;
use regex::Regex;
use std::sync::LazyLock;

/// The runner settings a "starting llama server" / "starting runner" line shows.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OllamaLog {
    pub ctx_size: Option<u64>,
    pub parallel: Option<u64>,
    pub gpu_layers: Option<u64>,
    /// "starting …" lines seen: runners started in this excerpt.
    pub runners_started: usize,
    /// The allocation the runner failed, bytes (llama.cpp's "failed to
    /// allocate CUDA0 buffer of size N", "allocating N MiB … cudaMalloc
    /// failed"), and whether it was the KV cache.
    pub failed_alloc_bytes: Option<u64>,
    pub kv_cache_failed: bool,
    /// The model's weights buffer, MiB ("CUDA0 model buffer size = …").
    pub model_buffer_mib: Option<f64>,
}

impl OllamaLog {
    /// Tokens of context each parallel slot gets: llama.cpp's server splits
    /// its `--ctx-size` across `--parallel` slots (n_ctx_slot = n_ctx /
    /// n_parallel), and Ollama passes the request context × parallel.
    pub fn per_slot_tokens(&self) -> Option<u64> {
        Some(self.ctx_size? / self.parallel.unwrap_or(1).max(1))
    }
}

/// Ollama's Go logger: `time=… level=INFO source=server.go:376 msg="…"`.
static LINE: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?m)^time=\S+ level=[A-Z]+ source=[\w./-]+\.go:\d+ msg="));
static START: LazyLock<Regex> =
    LazyLock::new(|| re(r#"msg="starting (?:llama server|runner|llama runner)""#));

fn flag(text: &str, name: &str) -> Option<u64> {
    let pattern = re(&format!(r"--{name}[=\s]+(\d+)"));
    pattern.captures(text)?[1].parse().ok()
}

/// True when the text carries Ollama's own log lines.
pub fn looks_like_ollama_log(text: &str) -> bool {
    LINE.is_match(text)
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum OllamaLogError {
    #[error("these look like Ollama's log lines, but none starts a runner")]
    NoRunner,
}

impl OllamaLogError {
    pub fn hint(&self) -> &'static str {
        "For what Ollama holds now, run `ollama ps` and paste what it prints; from its log, paste the \"starting llama server\" line."
    }
}

fn first_number(pattern: &Regex, text: &str) -> Option<f64> {
    pattern.captures(text)?[1].parse().ok()
}

static ENV_CONTEXT: LazyLock<Regex> = LazyLock::new(|| re(r"OLLAMA_CONTEXT_LENGTH:(\d+)"));
static ENV_PARALLEL: LazyLock<Regex> = LazyLock::new(|| re(r"OLLAMA_NUM_PARALLEL:(\d+)"));
static N_CTX: LazyLock<Regex> = LazyLock::new(|| re(r"\bn_ctx\s*=\s*(\d+)"));
static N_SEQ: LazyLock<Regex> = LazyLock::new(|| re(r"\bn_seq_max\s*=\s*(\d+)"));
static FAILED_BYTES: LazyLock<Regex> =
    LazyLock::new(|| re(r"failed to allocate \S+ buffer of size (\d+)"));
static FAILED_MIB: LazyLock<Regex> =
    LazyLock::new(|| re(r"allocating ([\d.]+) MiB on device \d+: cudaMalloc failed"));
static KV_FAILED: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)failed to allocate buffer for kv cache|kv cache.{0,40}failed"));
static MODEL_BUFFER: LazyLock<Regex> =
    LazyLock::new(|| re(r"CUDA\d* model buffer size\s*=\s*([\d.]+) MiB"));

/// The runner settings of the last runner started in the excerpt, with the
/// server's own environment and llama.cpp's context lines where the
/// runner's command line does not show them.
pub fn parse_ollama_log(text: &str) -> Result<OllamaLog, OllamaLogError> {
    let starts: Vec<&str> = text.lines().filter(|l| START.is_match(l)).collect();
    let last = starts.last().ok_or(OllamaLogError::NoRunner)?;
    let env_ctx = first_number(&ENV_CONTEXT, text).map(|v| v as u64);
    let env_parallel = first_number(&ENV_PARALLEL, text).map(|v| v as u64);
    let parallel = flag(last, "parallel")
        .or(first_number(&N_SEQ, text).map(|v| v as u64))
        .or(env_parallel);
    let ctx_size = flag(last, "ctx-size")
        .or(first_number(&N_CTX, text).map(|v| v as u64))
        .or(env_ctx.zip(parallel).map(|(c, p)| c * p.max(1)));
    let failed_alloc_bytes = first_number(&FAILED_BYTES, text)
        .map(|b| b as u64)
        .or(first_number(&FAILED_MIB, text).map(|m| (m * 1_048_576.0) as u64));
    Ok(OllamaLog {
        ctx_size,
        parallel,
        gpu_layers: flag(last, "n-gpu-layers"),
        runners_started: starts.len(),
        failed_alloc_bytes,
        kv_cache_failed: KV_FAILED.is_match(text),
        model_buffer_mib: first_number(&MODEL_BUFFER, text),
    })
}

crate::extract::reading::paste_reader!(
    /// Ollama's server log.
    OllamaLogPaste,
    "an Ollama server log",
    looks_like_ollama_log,
    parse_ollama_log => crate::extract::reading::Reading::OllamaLog
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_runner_line_from_a_real_log() {
        let text = crate::extract::shared_fixture("ollama-server-log.txt");
        assert!(looks_like_ollama_log(&text));
        let log = parse_ollama_log(&text).unwrap();
        assert_eq!(log.ctx_size, Some(8192));
        assert_eq!(log.parallel, Some(4));
        assert_eq!(log.gpu_layers, Some(41));
        assert_eq!(log.per_slot_tokens(), Some(2048));
    }

    #[test]
    fn a_kv_cache_that_did_not_fit() {
        let text = "time=2025-11-25T19:41:02.114+01:00 level=INFO source=routes.go:1511 msg=\"server config\" env=\"map[OLLAMA_CONTEXT_LENGTH:32768 OLLAMA_NUM_PARALLEL:4]\"\ntime=2025-11-25T19:41:05.870+01:00 level=INFO source=server.go:400 msg=\"starting runner\" cmd=\"/usr/local/bin/ollama runner --model x --port 1\"\nload_tensors:        CUDA0 model buffer size = 39183.47 MiB\nllama_context: n_seq_max     = 4\nllama_context: n_ctx         = 131072\nalloc_tensor_range: failed to allocate CUDA0 buffer of size 42949672960\nllama_init_from_model: failed to initialize the context: failed to allocate buffer for kv cache";
        let log = parse_ollama_log(text).unwrap();
        assert_eq!((log.ctx_size, log.parallel), (Some(131072), Some(4)));
        assert_eq!(log.failed_alloc_bytes, Some(42_949_672_960));
        assert!(log.kv_cache_failed);
        assert_eq!(log.model_buffer_mib, Some(39183.47));
        assert_eq!(log.per_slot_tokens(), Some(32768));
    }

    #[test]
    fn words_about_ollama_are_not_its_log() {
        assert!(!looks_like_ollama_log(
            "ollama serve is running with --batch-size 512"
        ));
    }
}
