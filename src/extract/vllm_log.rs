//! Reads a pasted vLLM server log: the memory fraction it was started with,
//! what loading the model took, the KV cache it pre-allocated, and the
//! refusal vLLM prints when the pool has less free than the fraction asks.
//! A vLLM log is data about the inference server, never the owner's words:
//! its paths and attention backend say nothing about the training run.

use crate::extract::re;
use regex::Regex;
use std::sync::LazyLock;

/// What a vLLM startup log says about its memory.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct VllmLog {
    /// `gpu_memory_utilization` from the non-default args or the flag.
    pub utilization: Option<f64>,
    /// "Model loading took 17.17 GiB memory": GiB.
    pub model_load_gib: Option<f64>,
    /// "Available KV cache memory: 65.25 GiB": GiB.
    pub kv_cache_gib: Option<f64>,
    /// The startup refusal: free and total GiB, and the GiB it wanted.
    pub refused: Option<Refusal>,
    /// The model the server serves (`'model': '…'` in the non-default
    /// args): the server's, never the run's.
    pub served_model: Option<String>,
    /// The longest sequence it serves (`max_model_len`), tokens.
    pub max_model_len: Option<u64>,
    /// The start refused for KV cache: "23.25 GiB KV cache is needed" for
    /// one request at `max_model_len`, and vLLM's own estimate of the
    /// longest length that fits ("estimated maximum model length is N").
    pub kv_short: Option<KvShort>,
    /// `--kv-cache-memory-bytes`: a fixed KV cache, bytes. When set, vLLM
    /// ignores the fraction (its `CacheConfig` docstring).
    pub kv_cache_bytes: Option<u64>,
    /// The container it runs in (`--name`, `container_name:`).
    pub container: Option<String>,
    /// Which text of vLLM's it was read from.
    pub origin: VllmText,
}

/// The text of vLLM's the figures came from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum VllmText {
    /// Its own startup log.
    #[default]
    Log,
    /// A command line (`vllm serve …`).
    Command,
    /// `docker run` of a vLLM image.
    DockerRun,
    /// A compose service or Kubernetes spec.
    Manifest,
}

impl VllmText {
    /// "your vLLM log", "your vLLM launch command", as the owner pasted it.
    pub fn noun(self) -> &'static str {
        match self {
            VllmText::Log => "vLLM log",
            VllmText::Command => "vLLM command line",
            VllmText::DockerRun => "`docker run` of vLLM",
            VllmText::Manifest => "vLLM service's `command:`",
        }
    }

    /// How the fraction is spelled in that text.
    pub fn fraction_name(self) -> &'static str {
        match self {
            VllmText::Log => "`gpu_memory_utilization`",
            _ => "`--gpu-memory-utilization`",
        }
    }
}

impl VllmLog {
    /// The fraction vLLM claims at start: none when a fixed KV size
    /// overrides it.
    pub fn claimed_fraction(&self) -> Option<f64> {
        self.utilization.filter(|_| self.kv_cache_bytes.is_none())
    }
}

/// vLLM's check that one request at `max_model_len` fits its KV cache
/// (vllm/v1/core/kv_cache_utils.py, `check_enough_kv_cache_memory`).
#[derive(Debug, Clone, PartialEq)]
pub struct KvShort {
    pub needed_gib: f64,
    pub estimated_max_len: Option<u64>,
}

/// "Free memory on device cuda:0 (74.9/142.5 GiB) on startup is less than
/// desired GPU memory utilization (0.9, 128.25 GiB)".
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    pub free_gib: f64,
    pub total_gib: f64,
    pub utilization: f64,
    pub wanted_gib: f64,
}

/// Lines only vLLM prints: its process tags and its source files.
static MARKER: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?m)^\((?:APIServer|EngineCore[\w]*|VllmWorker[^)]*|Worker[^)]*) pid=\d+\)|\[?(?:gpu_worker|gpu_model_runner|kv_cache_utils|api_server|core|llm_engine|worker)\.py:\d+\]|less than desired GPU memory utilization|Desired GPU memory utilization is \(|Available KV cache memory: [\d.]+ GiB|KV cache is needed, which is larger than the available KV cache memory|the estimated maximum model length is \d+|To serve at least one request with the model's max seq len|GPU KV cache size: [\d,]+ tokens|the current vLLM instance can use|model weights take [\d.]+ ?GiB|^\s*(?:max_model_len|max_num_seqs|max_num_batched_tokens|enable_chunked_prefill|enable_prefix_caching|kv_cache_dtype)\s*[=:]",
    )
});
static UTILIZATION: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?:'gpu_memory_utilization':\s*|--gpu[-_]memory[-_]utilization[=\s]+|gpu_memory_utilization \(|gpu_memory_utilization\s{2,}|(?m:^\s*gpu_memory_utilization\s*[=:]\s*)|Desired GPU memory utilization is \()([0-9]*\.?[0-9]+)",
    )
});
static KV_NEEDED: LazyLock<Regex> = LazyLock::new(|| re(r"([\d.]+) GiB KV cache is needed"));
static ESTIMATED_MAX: LazyLock<Regex> =
    LazyLock::new(|| re(r"estimated maximum model length is (\d+)"));
static MAX_MODEL_LEN: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?:'max_model_len':\s*|--max[-_]model[-_]len[=\s]+|(?m:^\s*max_model_len\s*[=:]\s*)|model's max seq len \()(\d+)",
    )
});
static SERVED_MODEL: LazyLock<Regex> =
    LazyLock::new(|| re(r"'model(?:_tag)?':\s*'([^'\s]+)'|\bvllm\s+serve\s+([^\s-][^\s]*)"));
// V1 prints "Model loading took"; V0's profiler "model weights take".
static MODEL_LOAD: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?:Model loading took|model weights take)\s+([\d.]+) ?GiB"));
static KV_CACHE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)(?:Available KV cache memory:?\s+\(?|reserved for KV Cache is\s+|KV Cache is\s+)([\d.]+) ?GiB",
    )
});
// 0.9/0.10 name the device ("cuda:0"); later releases do not.
static REFUSAL: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"Free memory on device(?: \S+)? \(([\d.]+)/([\d.]+) GiB\) on startup is less than desired GPU memory utilization \(([\d.]+), ([\d.]+) GiB\)",
    )
});

/// True when the text carries lines only vLLM prints.
pub fn looks_like_vllm_log(text: &str) -> bool {
    MARKER.is_match(text)
}

fn number(pattern: &Regex, text: &str) -> Option<f64> {
    pattern.captures(text)?[1].parse().ok()
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum VllmLogError {
    #[error(
        "it looks like vLLM's log, but it has no memory figure I read (gpu_memory_utilization, \"Model loading took\", \"Available KV cache memory\")"
    )]
    NoFigures,
}

impl VllmLogError {
    pub fn hint(&self) -> &'static str {
        "Paste vLLM's startup lines from the `non-default args` line to `Available KV cache memory`, or `ps aux` with the `vllm serve` command line."
    }
}

/// The memory figures of a vLLM log.
pub fn parse_vllm_log(text: &str) -> Result<VllmLog, VllmLogError> {
    let refused = REFUSAL.captures(text).and_then(|c| {
        Some(Refusal {
            free_gib: c[1].parse().ok()?,
            total_gib: c[2].parse().ok()?,
            utilization: c[3].parse().ok()?,
            wanted_gib: c[4].parse().ok()?,
        })
    });
    let log = VllmLog {
        utilization: number(&UTILIZATION, text).or(refused.as_ref().map(|r| r.utilization)),
        model_load_gib: number(&MODEL_LOAD, text),
        kv_cache_gib: number(&KV_CACHE, text),
        refused,
        served_model: None,
        max_model_len: MAX_MODEL_LEN.captures(text).and_then(|c| c[1].parse().ok()),
        kv_short: number(&KV_NEEDED, text).map(|needed_gib| KvShort {
            needed_gib,
            estimated_max_len: ESTIMATED_MAX.captures(text).and_then(|c| c[1].parse().ok()),
        }),
        ..VllmLog::default()
    };
    if log == VllmLog::default() {
        return Err(VllmLogError::NoFigures);
    }
    let served_model = SERVED_MODEL.captures(text).and_then(|c| {
        c.get(1)
            .or_else(|| c.get(2))
            .map(|m| m.as_str().to_string())
    });
    Ok(VllmLog {
        served_model,
        ..log
    })
}

crate::extract::reading::paste_reader!(
    /// vLLM's own log lines.
    VllmLogPaste,
    "a vLLM log",
    looks_like_vllm_log,
    parse_vllm_log => crate::extract::reading::Reading::VllmLog
);

#[cfg(test)]
mod tests {
    use super::*;

    use crate::extract::shared_fixture as fixture;

    #[test]
    fn a_start_refused_for_kv_cache_is_read() {
        let text = "Available KV cache memory: 22.5 GiB\nValueError: To serve at least one request with the model's max seq len (196608),\n23.25 GiB KV cache is needed, which is larger than the available KV cache memory (22.5 GiB).\nBased on the available memory, the estimated maximum model length is 190272.";
        assert!(looks_like_vllm_log(text));
        let log = parse_vllm_log(text).unwrap();
        assert_eq!(log.kv_cache_gib, Some(22.5));
        assert_eq!(log.max_model_len, Some(196608));
        assert_eq!(
            log.kv_short,
            Some(KvShort {
                needed_gib: 23.25,
                estimated_max_len: Some(190272)
            })
        );
        // The refusal's lines alone are a vLLM log too.
        let alone = parse_vllm_log(&text[text.find("ValueError").unwrap()..]).unwrap();
        assert_eq!(alone.kv_cache_gib, Some(22.5));
    }

    #[test]
    fn the_startup_log_on_gb10() {
        let text = fixture("vllm-startup-gb10.txt");
        assert!(looks_like_vllm_log(&text));
        let log = parse_vllm_log(&text).unwrap();
        assert_eq!(log.utilization, Some(0.8));
        assert_eq!(log.model_load_gib, Some(17.17));
        assert_eq!(log.kv_cache_gib, Some(65.25));
        assert!(log.refused.is_none());
        let served = parse_vllm_log(
            "INFO 11-24 10:02:14 [utils.py:328] non-default args: {'model_tag': 'google/gemma-3-12b-it', 'model': 'google/gemma-3-12b-it'}\nINFO [gpu_worker.py:298] Available KV cache memory: 82.71 GiB",
        )
        .unwrap();
        assert_eq!(
            served.served_model.as_deref(),
            Some("google/gemma-3-12b-it")
        );
    }

    #[test]
    fn the_startup_refusal() {
        let text = fixture("vllm-startup-oom-error.txt");
        assert!(looks_like_vllm_log(&text));
        let r = parse_vllm_log(&text).unwrap().refused.unwrap();
        assert_eq!(
            (r.free_gib, r.total_gib, r.utilization, r.wanted_gib),
            (74.9, 142.5, 0.9, 128.25)
        );
    }

    #[test]
    fn other_releases_wordings() {
        // V1 after 0.10: the startup check without a device name, passed.
        let v1 = "Free memory on device (110.34/121.69 GiB) on startup.\nDesired GPU memory utilization is (0.87, 105.87 GiB).";
        assert!(looks_like_vllm_log(v1));
        let log = parse_vllm_log(v1).unwrap();
        assert_eq!(log.utilization, Some(0.87));
        assert!(log.refused.is_none());
        // The refusal without a device name.
        let refusal = "ValueError: Free memory on device (0.49/79.32 GiB) on startup is less than desired GPU memory utilization (0.6, 47.59 GiB).";
        let r = parse_vllm_log(refusal).unwrap().refused.unwrap();
        assert_eq!((r.free_gib, r.wanted_gib), (0.49, 47.59));
        // V0's profiler.
        let v0 = "INFO 04-12 08:21:19 [worker.py:267] the current vLLM instance can use total_gpu_memory (23.58GiB) x gpu_memory_utilization (0.99) = 23.35GiB\nINFO 04-12 08:21:19 [worker.py:267] model weights take 21.21GiB; non_torch_memory takes 0.20GiB; PyTorch activation peak memory takes 0.37GiB; the rest of the memory reserved for KV Cache is 1.57GiB.";
        let log = parse_vllm_log(v0).unwrap();
        assert_eq!(
            (log.utilization, log.model_load_gib, log.kv_cache_gib),
            (Some(0.99), Some(21.21), Some(1.57))
        );
        // Two bare lines.
        let kv = parse_vllm_log(
            "Available KV cache memory: 8.11 GiB\nGPU KV cache size: 178,880 tokens",
        )
        .unwrap();
        assert_eq!(kv.kv_cache_gib, Some(8.11));
    }

    #[test]
    fn the_owners_words_are_not_a_vllm_log() {
        assert!(!looks_like_vllm_log(
            "can I run vllm beside my training with gpu_memory_utilization 0.5?"
        ));
    }
}
