//! The run's system-level context beside its shapes: which trainer stack
//! runs it (its defaults), whether batches have one fixed length, and the
//! evaluation batch. These change what the box holds, not what the model is.

use crate::calc::setup::{Loss, Precision};
use crate::knowledge::Knowledge;
use serde::Serialize;

/// A trainer stack, by its row in knowledge/frameworks.md.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Framework {
    /// The row's `framework` key ("hf", "unsloth", …).
    pub key: String,
}

impl Default for Framework {
    fn default() -> Self {
        Framework { key: "hf".into() }
    }
}

/// A stack's defaults, read from its row.
#[derive(Debug, Clone, PartialEq)]
pub struct Preset {
    pub key: String,
    pub names: Vec<String>,
    pub loss: Loss,
    pub checkpointing: bool,
    pub packed: bool,
    pub precision: Precision,
    pub eval_batch: u64,
    pub cite: String,
}

/// How the checkpoint is read into memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Loader {
    /// transformers 4.x: one safetensors shard mapped and copied at a time.
    #[default]
    V4,
    /// transformers 5.x: every shard mapped at once.
    V5,
}

impl Loader {
    pub fn label(self) -> &'static str {
        match self {
            Loader::V4 => "transformers 4.x (one shard at a time)",
            Loader::V5 => "transformers 5.x (every shard mapped at once)",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Runtime {
    pub framework: Framework,
    /// Batches of one fixed length (packing): no allocator reserve for
    /// differently sized steps.
    pub packed: bool,
    /// `per_device_eval_batch_size`.
    pub eval_batch: u64,
    /// The run evaluates during training (transformers' eval_strategy is
    /// "no" by default, so only when the owner says so).
    pub evaluates: bool,
    /// The run resumes from a checkpoint.
    pub resumes: bool,
    pub loader: Loader,
    /// The checkpoint is already 4-bit (a `-bnb-4bit` repository), so it is
    /// read at its stored size rather than quantized from 16-bit on load.
    pub prequantized: bool,
}

impl Default for Runtime {
    fn default() -> Self {
        Runtime {
            framework: Framework::default(),
            packed: false,
            eval_batch: 8,
            evaluates: false,
            resumes: false,
            loader: Loader::V4,
            prequantized: false,
        }
    }
}

/// The preset named by `key`, or the default stack's.
pub fn preset<'k>(key: &str, k: &'k Knowledge) -> &'k Preset {
    k.frameworks
        .iter()
        .find(|p| p.key == key)
        .or_else(|| k.frameworks.iter().find(|p| p.key == "hf"))
        .expect("knowledge/frameworks.md has an hf row")
}

/// The stack a name or phrase refers to ("I use Unsloth" → unsloth).
pub fn find(text: &str, k: &Knowledge) -> Option<String> {
    let lower = text.to_ascii_lowercase();
    k.frameworks
        .iter()
        .flat_map(|p| p.names.iter().map(move |n| (n, &p.key)))
        .filter(|(n, _)| {
            lower.match_indices(n.as_str()).any(|(i, _)| {
                let before = lower[..i].chars().next_back();
                let after = lower[i + n.len()..].chars().next();
                !before.is_some_and(|c| c.is_alphanumeric())
                    && !after.is_some_and(|c| c.is_alphanumeric())
            })
        })
        .max_by_key(|(n, _)| n.len())
        .map(|(_, key)| key.clone())
}
