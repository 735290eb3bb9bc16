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

/// The runner settings of the last runner started in the excerpt.
pub fn parse_ollama_log(text: &str) -> Result<OllamaLog, OllamaLogError> {
    let starts: Vec<&str> = text.lines().filter(|l| START.is_match(l)).collect();
    let last = starts.last().ok_or(OllamaLogError::NoRunner)?;
    Ok(OllamaLog {
        ctx_size: flag(last, "ctx-size"),
        parallel: flag(last, "parallel"),
        gpu_layers: flag(last, "n-gpu-layers"),
        runners_started: starts.len(),
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
    fn words_about_ollama_are_not_its_log() {
        assert!(!looks_like_ollama_log(
            "ollama serve is running with --batch-size 512"
        ));
    }
}
