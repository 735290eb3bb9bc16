//! Pure readers: plain language to slots, pasted output to typed readings.

pub mod approval;
pub mod available_said;
pub mod config_json;
pub mod dmon;
pub mod free;
pub mod held_words;
pub mod intent;
pub mod log_fields;
pub mod log_lines;
pub mod meminfo;
pub mod nvidia_smi;
pub mod objective_words;
pub mod ollama_log;
pub mod ollama_ps;
pub mod oom;
pub mod oom_figures;
pub mod owner_words;
pub mod paths;
pub mod ps;
pub mod rate_change;
pub mod reading;
pub mod segment;
pub mod share;
pub mod shell_vars;
pub mod slots;
pub mod smi_csv;
pub mod smi_query;
pub mod thermal_csv;
pub mod traceback;
pub mod train_log;
pub mod trainer_banner;
pub mod trainer_config;
pub mod trainer_memory;
pub mod vllm_launch;
pub mod vllm_log;
pub mod when;

/// A real capture copied from the shared fixtures into `tests/fixtures/`, for the readers' tests.
#[cfg(test)]
pub(crate) fn shared_fixture(name: &str) -> String {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Compile one of the built-in patterns; they are fixed at build time and
/// covered by tests, so a bad one is a defect, not an input error.
pub(crate) fn re(pattern: &str) -> regex::Regex {
    regex::Regex::new(pattern).unwrap_or_else(|e| panic!("bad built-in pattern {pattern}: {e}"))
}
