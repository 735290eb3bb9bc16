//! The one classification of a turn's text: a registry of readers behind one
//! trait. Each reader says whether the text is its kind and returns a typed
//! reading; the first that claims the text reads it, and text no reader
//! claims is the owner's own words.
//!
//! Adding a paste kind is one `Reader` impl and one line in `READERS`.

use crate::calc::arch::Arch;
use crate::extract::free::FreeReading;
use crate::extract::meminfo::MeminfoReading;
use crate::extract::nvidia_smi::{SmiProcess, SmiTable};
use crate::extract::ollama_ps::OllamaModel;
use crate::extract::oom::OomReport;
use crate::extract::ps::Process;
use crate::extract::trainer_config::TrainerConfig;

/// What a turn's text was read as.
#[derive(Debug, Clone, PartialEq)]
pub enum Reading {
    Free(FreeReading),
    Meminfo(MeminfoReading),
    Procs(Vec<Process>),
    OllamaPs(Vec<OllamaModel>),
    SmiTable(SmiTable),
    /// `nvidia-smi -q`: throttle reasons, their counters, temperatures.
    SmiQuery(crate::extract::smi_query::SmiQuery),
    /// A one-off `nvidia-smi --query-gpu` CSV (no timestamp column).
    SmiCsv(crate::extract::smi_csv::SmiCsv),
    ComputeApps(Vec<SmiProcess>),
    /// A pasted traceback or kernel log that reports an OOM.
    OomPaste(OomReport),
    /// Thermal samples (nvidia-smi CSV or the sampler's log), kept raw so
    /// the analysis re-reads them whole.
    ThermalCsv,
    /// A pasted training log, kept raw for the same reason.
    TrainLog,
    /// A trainer's start banner: what it ran with, beside the run.
    Banner(crate::extract::trainer_banner::Banner),
    /// Ollama's server log: the runner it started, not the run's settings.
    OllamaLog(crate::extract::ollama_log::OllamaLog),
    /// vLLM's own log: the inference server's memory, not the run's.
    VllmLog(crate::extract::vllm_log::VllmLog),
    ConfigJson(Box<Arch>),
    TrainerConfig(TrainerConfig),
    /// File paths typed on their own (absolute, relative or `~`).
    Paths(Vec<String>),
    /// The owner's words: intent and slots are read from them next.
    Words,
}

/// A paste that claimed to be a kind but could not be read as it.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadProblem {
    /// The kind it looked like ("`free` output").
    pub kind: &'static str,
    /// What was wrong.
    pub why: String,
    /// What to paste instead.
    pub hint: &'static str,
}

/// One kind of text headroom can read.
pub trait Reader: Sync {
    /// The kind, as the owner would name it ("`free` output").
    fn kind(&self) -> &'static str;
    /// Is the text this kind at all? Cheap, and never an error.
    fn claims(&self, text: &str) -> bool;
    /// Read a text this reader claimed.
    fn read(&self, text: &str) -> Result<Reading, ReadProblem>;
}

/// Shorthand for a reader's error.
pub(crate) fn problem(kind: &'static str, why: impl ToString, hint: &'static str) -> ReadProblem {
    ReadProblem {
        kind,
        why: why.to_string(),
        hint,
    }
}

/// A reader for a paste kind whose parser returns an error with a `hint()`:
/// the struct, its kind, its cheap test and its parser, in one line.
macro_rules! paste_reader {
    ($(#[$doc:meta])* $name:ident, $kind:expr, $claims:path, $parse:path => $wrap:expr) => {
        $(#[$doc])*
        pub struct $name;

        impl $crate::extract::reading::Reader for $name {
            fn kind(&self) -> &'static str {
                $kind
            }
            fn claims(&self, text: &str) -> bool {
                $claims(text)
            }
            fn read(
                &self,
                text: &str,
            ) -> Result<$crate::extract::reading::Reading, $crate::extract::reading::ReadProblem>
            {
                $parse(text)
                    .map($wrap)
                    .map_err(|e| $crate::extract::reading::problem(self.kind(), &e, e.hint()))
            }
        }
    };
}
pub(crate) use paste_reader;

/// Every reader, most specific first: a ps line that mentions OOM is still a
/// process listing, and any paste beats the owner's words.
pub static READERS: &[&dyn Reader] = &[
    &crate::extract::free::FreeOutput,
    &crate::extract::meminfo::MeminfoPaste,
    &crate::extract::nvidia_smi::SmiTablePaste,
    &crate::extract::smi_query::SmiQueryPaste,
    &crate::extract::nvidia_smi::ComputeAppsPaste,
    &crate::extract::ollama_ps::OllamaPsPaste,
    &crate::extract::ps::ProcessListing,
    &crate::extract::vllm_log::VllmLogPaste,
    &crate::extract::ollama_log::OllamaLogPaste,
    &crate::extract::vllm_launch::VllmLaunchPaste,
    &crate::extract::config_json::ConfigJsonPaste,
    &crate::extract::smi_csv::SmiCsvPaste,
    &crate::extract::thermal_csv::ThermalPaste,
    &crate::extract::oom::OomPaste,
    &crate::extract::train_log::TrainLogPaste,
    &crate::extract::trainer_banner::TrainerBannerPaste,
    &crate::extract::trainer_config::TrainerConfigPaste,
    &crate::extract::paths::TypedPaths,
];

/// Classify a turn's text once: the first reader that claims it reads it.
pub fn classify(text: &str) -> Result<Reading, ReadProblem> {
    READERS
        .iter()
        .find(|r| r.claims(text))
        .map_or(Ok(Reading::Words), |r| r.read(text))
}

/// Which reader claims the text, for tests and `/status`.
pub fn kind_of(text: &str) -> &'static str {
    READERS
        .iter()
        .find(|r| r.claims(text))
        .map_or("your words", |r| r.kind())
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::extract::shared_fixture as fixture;

    #[test]
    fn each_shared_fixture_is_claimed_by_its_reader() {
        for (file, kind) in [
            ("free-h-spark.txt", "`free` output"),
            ("free-b-spark.txt", "`free` output"),
            ("free-h-spark-comma-locale.txt", "`free` output"),
            ("meminfo-gb10-excerpt.txt", "`/proc/meminfo`"),
            ("nvidia-smi-table-gb10-vllm.txt", "the nvidia-smi table"),
            (
                "nvidia-smi-table-gb10-stress-105w.txt",
                "the nvidia-smi table",
            ),
            (
                "nvidia-smi-compute-apps-gb10.txt",
                "`nvidia-smi --query-compute-apps` output",
            ),
            ("ollama-ps.txt", "`ollama ps` output"),
            (
                "nvidia-smi-q-performance-gb10.txt",
                "`nvidia-smi -q` output",
            ),
            (
                "nvidia-smi-q-temperature-gb10.txt",
                "`nvidia-smi -q` output",
            ),
            ("vllm-startup-gb10.txt", "a vLLM log"),
            ("ollama-server-log.txt", "an Ollama server log"),
            ("vllm-startup-oom-error.txt", "a vLLM log"),
            ("vllm-stats.txt", "a vLLM log"),
            ("ps-ef-ollama-runner.txt", "a process listing"),
            ("ps-aux-ollama-zh-locale.txt", "a process listing"),
            ("pgrep-llama-server.txt", "a process listing"),
            ("kernel-oom-kill.txt", "an OOM report"),
            ("kernel-nv-err-no-memory.txt", "an OOM report"),
            ("hf-trainer-it-per-s.txt", "a training log"),
            ("torchtune-steps.txt", "a training log"),
            ("axolotl-step-line.txt", "a training log"),
            ("torchtune-tqdm.txt", "a training log"),
            ("lightning-epoch.txt", "a training log"),
            (
                "nvidia-smi-query-timestamp-loop.txt",
                "thermal samples (CSV)",
            ),
        ] {
            assert_eq!(kind_of(&fixture(file)), kind, "{file}");
        }
    }

    #[test]
    fn words_and_hub_ids_are_words() {
        for text in [
            "QLoRA on Llama 3.1 70B, batch 1, packing 2048",
            "SFTTrainer on google/gemma-2-9b-it with LoRA r=32, per_device_train_batch_size=4",
            "what does gpu-memory-utilization actually do for vllm?",
            "yes",
        ] {
            assert_eq!(classify(text), Ok(Reading::Words), "{text}");
        }
    }

    #[test]
    fn an_absolute_path_is_a_path() {
        assert_eq!(
            classify("/home/owner/runs/sft-0412/thermal.log"),
            Ok(Reading::Paths(vec![
                "/home/owner/runs/sft-0412/thermal.log".into()
            ]))
        );
    }

    #[test]
    fn a_broken_paste_says_what_it_looked_like() {
        let e = classify("Mem: 119 4 80").unwrap_err();
        assert_eq!(e.kind, "`free` output");
        assert!(e.why.contains("6"), "{}", e.why);
    }
}
