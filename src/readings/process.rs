//! A process sharing the pool, as read from a process listing.

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ProcessKind {
    /// `vllm serve` / the OpenAI API server entry point.
    Vllm,
    /// vLLM's engine child (`VLLM::EngineCore`), part of a vLLM server.
    VllmEngine,
    /// `ollama serve`: loads models on demand, no memory cap of its own.
    OllamaServer,
    /// `ollama runner` / `ollama_llama_server`: one loaded model.
    OllamaRunner,
    /// llama.cpp's `llama-server`.
    LlamaCpp,
    /// trl, accelerate, torchrun, axolotl, unsloth or a train script.
    Trainer,
    Unknown,
}

impl ProcessKind {
    pub fn label(self) -> &'static str {
        match self {
            ProcessKind::Vllm => "vLLM server",
            ProcessKind::VllmEngine => "vLLM engine (part of a vLLM server)",
            ProcessKind::OllamaServer => "Ollama server",
            ProcessKind::OllamaRunner => "Ollama runner (a loaded model)",
            ProcessKind::LlamaCpp => "llama.cpp server",
            ProcessKind::Trainer => "trainer",
            ProcessKind::Unknown => "unknown",
        }
    }

    /// The table's "what" column.
    pub fn short(self) -> &'static str {
        match self {
            ProcessKind::Vllm => "vLLM",
            ProcessKind::VllmEngine => "vLLM engine",
            ProcessKind::OllamaServer => "Ollama",
            ProcessKind::OllamaRunner => "Ollama model",
            ProcessKind::LlamaCpp => "llama.cpp",
            ProcessKind::Trainer => "trainer",
            ProcessKind::Unknown => "unknown",
        }
    }

    pub fn key(self) -> &'static str {
        match self {
            ProcessKind::Vllm => "vllm",
            ProcessKind::VllmEngine => "vllm_engine",
            ProcessKind::OllamaServer => "ollama_server",
            ProcessKind::OllamaRunner => "ollama_runner",
            ProcessKind::LlamaCpp => "llama_cpp",
            ProcessKind::Trainer => "trainer",
            ProcessKind::Unknown => "unknown",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Process {
    pub pid: u64,
    pub kind: ProcessKind,
    /// `--gpu-memory-utilization` exactly as written on the command line.
    pub utilization_flag: Option<f64>,
    /// Resident memory from the RSS column, KiB (ps aux only).
    pub rss_kib: Option<u64>,
    /// The command as pasted (trimmed to the executable and arguments).
    pub command: String,
}
