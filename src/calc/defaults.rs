//! Fills what the owner did not say with the common defaults, and records
//! each one as an assumption the answer must state.

use crate::calc::setup::{
    Attention, Dtype, LoraTargets, Loss, Method, ModelSpec, Optimizer, PlanInput, Precision,
    Sharding,
};

/// A default the plan took, in full (the worksheet's list) and as the
/// few words the one-screen answer strings together.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(into = "String")]
pub struct Assumption {
    pub short: String,
    pub full: String,
}

impl From<Assumption> for String {
    fn from(a: Assumption) -> String {
        a.full
    }
}

impl Assumption {
    fn new(short: impl Into<String>, full: impl Into<String>) -> Assumption {
        Assumption {
            short: short.into(),
            full: full.into(),
        }
    }
}

pub const DEFAULT_BATCH: u64 = 1;
pub const DEFAULT_PACK: u64 = 2048;
pub const DEFAULT_RANK: u64 = 16;

/// The owner's answers; `None` means not said.
#[derive(Debug, Clone, Default)]
pub struct Choices {
    pub dtype: Option<Dtype>,
    pub optimizer: Option<Optimizer>,
    pub batch: Option<u64>,
    pub pack: Option<u64>,
    pub grad_checkpointing: Option<bool>,
    pub lora_rank: Option<u64>,
    pub lora_targets: Option<LoraTargets>,
    pub lora_dropout: Option<bool>,
    pub precision: Option<Precision>,
    pub attention: Option<Attention>,
    pub loss: Option<Loss>,
    pub nodes: Option<u64>,
    pub sharding: Option<Sharding>,
    /// The trainer stack the owner named, with its defaults
    /// (knowledge/frameworks.md); its settings fill what the owner left open.
    pub preset: Option<crate::calc::runtime::Preset>,
    /// The evaluation batch, when the run evaluates.
    pub eval_batch: Option<u64>,
    /// Whether the run resumes from a checkpoint.
    pub resumes: Option<bool>,
    pub loader: Option<crate::calc::runtime::Loader>,
    pub prequantized: Option<bool>,
    /// Batches of one fixed length (packing) or padded per batch.
    pub packed: Option<bool>,
    /// SFT unless the owner named DPO, GRPO…
    pub objective: Option<crate::calc::objective::Objective>,
}

pub fn complete(
    model: ModelSpec,
    method: Method,
    choices: &Choices,
) -> (PlanInput, Vec<Assumption>) {
    let mut assumed = Vec::new();
    // A quantized dtype named by the owner is the weights' storage; the
    // compute dtype stays 16-bit.
    let (dtype, weight_format) = match (choices.dtype, method) {
        (Some(d), Method::Qlora) if d.is_quantized() => {
            assumed.push(Assumption::new(
                "bf16 compute",
                "compute dtype bf16 (QLoRA computes in 16-bit)",
            ));
            (Dtype::Bf16, if d == Dtype::Int4 { Dtype::Nf4Dq } else { d })
        }
        (Some(d), Method::Qlora) => {
            assumed.push(Assumption::new(
                "nf4 double-quant base",
                "base weights nf4 with double quantization (bitsandbytes QLoRA as most recipes set it)",
            ));
            (d, Dtype::Nf4Dq)
        }
        (None, Method::Qlora) => {
            assumed.push(Assumption::new(
                "nf4 double-quant base, bf16 compute",
                "base weights nf4 with double quantization, compute in bf16 (QLoRA as most recipes set it)",
            ));
            (Dtype::Bf16, Dtype::Nf4Dq)
        }
        (Some(d), Method::Full) if d.is_quantized() => {
            assumed.push(Assumption::new(
                format!("bf16 (not {})", d.key()),
                format!(
                    "full fine-tuning trains 16-bit weights, so {} was read as bf16",
                    d.key()
                ),
            ));
            (Dtype::Bf16, Dtype::Bf16)
        }
        (Some(d), _) if d.is_quantized() => (Dtype::Bf16, d),
        (Some(d), _) => (d, d),
        (None, _) => {
            assumed.push(Assumption::new("bf16", "dtype bf16"));
            (Dtype::Bf16, Dtype::Bf16)
        }
    };
    let optimizer = choices.optimizer.unwrap_or_else(|| {
        assumed.push(Assumption::new("AdamW", "optimizer AdamW (torch's: two states per trainable parameter, their bytes in the estimate)"));
        Optimizer::AdamW
    });
    let batch = choices.batch.unwrap_or_else(|| {
        assumed.push(Assumption::new(
            format!("batch {DEFAULT_BATCH}"),
            format!("batch {DEFAULT_BATCH}"),
        ));
        DEFAULT_BATCH
    });
    // An RL step's sequences are its prompt and completion.
    let rl_pack = match choices.objective {
        Some(crate::calc::objective::Objective::Rl {
            prompt, completion, ..
        }) => Some(prompt + completion),
        _ => None,
    };
    let pack = rl_pack.or(choices.pack).unwrap_or_else(|| {
        assumed.push(Assumption::new(
            format!("packing {DEFAULT_PACK}"),
            format!("packing length {DEFAULT_PACK}"),
        ));
        DEFAULT_PACK
    });
    let preset = choices.preset.as_ref();
    let grad_checkpointing = choices.grad_checkpointing.unwrap_or_else(|| match preset {
        Some(p) => {
            let on = if p.checkpointing { "on" } else { "off" };
            assumed.push(Assumption::new(
                format!("checkpointing {on} ({})", p.key),
                format!(
                    "gradient checkpointing {on}, {}'s default ({})",
                    p.key, p.cite
                ),
            ));
            p.checkpointing
        }
        None => {
            assumed.push(Assumption::new(
                "checkpointing on",
                "gradient checkpointing on",
            ));
            true
        }
    });
    let (lora_rank, lora_targets) = if method.uses_adapter() {
        let rank = choices.lora_rank.unwrap_or_else(|| {
            assumed.push(Assumption::new(
                format!("rank {DEFAULT_RANK}"),
                format!("LoRA rank {DEFAULT_RANK}"),
            ));
            DEFAULT_RANK
        });
        let targets = choices.lora_targets.clone().unwrap_or_else(|| {
            assumed.push(Assumption::new(
                "all-linear",
                "LoRA on all linear projections (all-linear)",
            ));
            LoraTargets::AllLinear
        });
        (rank, targets)
    } else {
        (0, LoraTargets::AllLinear)
    };
    let lora_dropout = if method.uses_adapter() {
        choices.lora_dropout.unwrap_or_else(|| {
            assumed.push(Assumption::new(
                "dropout > 0",
                "LoRA dropout above 0 (recipes commonly use 0.05)",
            ));
            true
        })
    } else {
        false
    };
    let precision = choices.precision.unwrap_or_else(|| match preset {
        Some(p) => {
            assumed.push(Assumption::new(
                format!("{} ({})", p.precision.short(), p.key),
                format!(
                    "precision: {}, {}'s default ({})",
                    p.precision.label(),
                    p.key,
                    p.cite
                ),
            ));
            p.precision
        }
        None => {
            assumed.push(Assumption::new(
                Precision::Standard.short(),
                format!("precision: {}", Precision::Standard.label()),
            ));
            Precision::Standard
        }
    });
    let attention = choices.attention.unwrap_or_else(|| {
        assumed.push(Assumption::new(
            "SDPA",
            "attention by PyTorch SDPA (no seq × seq score matrix kept)",
        ));
        Attention::Sdpa
    });
    let loss = choices.loss.unwrap_or_else(|| match preset {
        Some(p) => {
            assumed.push(Assumption::new(
                format!("loss {} ({})", p.loss.key(), p.key),
                format!("loss: {}, {}'s default ({})", p.loss.key(), p.key, p.cite),
            ));
            p.loss
        }
        None => {
            assumed.push(Assumption::new(
                "fp32-logit loss",
                "a plain cross-entropy on logits cast to fp32, as transformers does (not fused or chunked)",
            ));
            Loss::Upcast
        }
    });
    let runtime = match preset {
        Some(p) => {
            // Only what the owner or their config left open is assumed: a
            // config with `sample_packing: true` or an eval batch of its own
            // is not "padded batches, eval batch 8" in the same reply.
            let mut short = Vec::new();
            let mut long = Vec::new();
            if choices.packed.is_none() {
                short.push(format!(
                    "{} batches",
                    if p.packed { "packed" } else { "padded" }
                ));
                long.push(format!(
                    "batches {}",
                    if p.packed {
                        "of one fixed length (packed)"
                    } else {
                        "padded to each batch's longest sample (not packed)"
                    }
                ));
            }
            if choices.eval_batch.is_none() {
                short.push(format!("eval batch {}", p.eval_batch));
                long.push(format!("evaluation batch {}", p.eval_batch));
            }
            if !short.is_empty() {
                assumed.push(Assumption::new(
                    format!("{} ({})", short.join(", "), p.key),
                    format!("{}, {}'s defaults ({})", long.join(" and "), p.key, p.cite),
                ));
            }
            crate::calc::runtime::Runtime {
                framework: crate::calc::runtime::Framework { key: p.key.clone() },
                packed: choices.packed.unwrap_or(p.packed),
                eval_batch: choices.eval_batch.unwrap_or(p.eval_batch),
                evaluates: choices.eval_batch.is_some(),
                resumes: choices.resumes.unwrap_or(false),
                loader: choices.loader.unwrap_or_default(),
                prequantized: choices.prequantized.unwrap_or(false),
            }
        }
        None => {
            if choices.packed.is_none() {
                assumed.push(Assumption::new(
                    "padded batches",
                    "batches padded to each batch's longest sample (not packed: say \"packing=True\" if yours are)",
                ));
            }
            crate::calc::runtime::Runtime {
                packed: choices.packed.unwrap_or(false),
                eval_batch: choices.eval_batch.unwrap_or(8),
                evaluates: choices.eval_batch.is_some(),
                resumes: choices.resumes.unwrap_or(false),
                loader: choices.loader.unwrap_or_default(),
                prequantized: choices.prequantized.unwrap_or(false),
                ..crate::calc::runtime::Runtime::default()
            }
        }
    };
    let nodes = choices.nodes.unwrap_or(1).max(1);
    let sharding = choices.sharding.unwrap_or(Sharding::Ddp);
    (
        PlanInput {
            model,
            method,
            dtype,
            weight_format,
            optimizer,
            batch,
            pack,
            grad_checkpointing,
            lora_rank,
            lora_targets,
            lora_dropout,
            precision,
            attention,
            loss,
            nodes,
            sharding,
            runtime,
            objective: choices
                .objective
                .unwrap_or(crate::calc::objective::Objective::Sft),
        },
        assumed,
    )
}
