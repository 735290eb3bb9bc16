//! The training set-up a plan is made for: method, formats and knobs.

use crate::calc::arch::Arch;
use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    Full,
    Lora,
    Qlora,
}

impl Method {
    pub fn parse(s: &str) -> Option<Method> {
        match s.to_ascii_lowercase().replace(['-', '_', ' '], "").as_str() {
            "full" | "fullft" | "fullfinetune" | "fft" => Some(Method::Full),
            "lora" => Some(Method::Lora),
            "qlora" => Some(Method::Qlora),
            _ => None,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Method::Full => "full fine-tune",
            Method::Lora => "LoRA",
            Method::Qlora => "QLoRA",
        }
    }

    pub fn key(self) -> &'static str {
        match self {
            Method::Full => "full",
            Method::Lora => "lora",
            Method::Qlora => "qlora",
        }
    }

    pub fn uses_adapter(self) -> bool {
        matches!(self, Method::Lora | Method::Qlora)
    }
}

/// Storage format of a weight; the key is its row in knowledge/dtypes.md.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Dtype {
    Fp32,
    Bf16,
    Fp16,
    Fp8,
    Int8,
    Int4,
    Nf4,
    Nf4Dq,
    Nvfp4,
    Mxfp4,
}

impl Dtype {
    pub fn parse(s: &str) -> Option<Dtype> {
        match s.to_ascii_lowercase().replace(['-', '_', ' '], "").as_str() {
            "fp32" | "float32" | "f32" => Some(Dtype::Fp32),
            "bf16" | "bfloat16" => Some(Dtype::Bf16),
            "fp16" | "float16" | "f16" | "half" => Some(Dtype::Fp16),
            "fp8" | "float8" => Some(Dtype::Fp8),
            "int8" | "8bit" => Some(Dtype::Int8),
            "int4" | "4bit" => Some(Dtype::Int4),
            "nf4" => Some(Dtype::Nf4),
            "nf4dq" => Some(Dtype::Nf4Dq),
            "nvfp4" => Some(Dtype::Nvfp4),
            "mxfp4" => Some(Dtype::Mxfp4),
            _ => None,
        }
    }

    pub fn key(self) -> &'static str {
        match self {
            Dtype::Fp32 => "fp32",
            Dtype::Bf16 => "bf16",
            Dtype::Fp16 => "fp16",
            Dtype::Fp8 => "fp8",
            Dtype::Int8 => "int8",
            Dtype::Int4 => "int4",
            Dtype::Nf4 => "nf4",
            Dtype::Nf4Dq => "nf4-dq",
            Dtype::Nvfp4 => "nvfp4",
            Dtype::Mxfp4 => "mxfp4",
        }
    }

    /// Formats that store linear layers below 16 bits; embeddings, lm_head and
    /// norms stay in the compute dtype beside them.
    pub fn is_quantized(self) -> bool {
        !matches!(self, Dtype::Fp32 | Dtype::Bf16 | Dtype::Fp16)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Optimizer {
    AdamW,
    AdamW8bit,
    PagedAdamW8bit,
    PagedAdamW32bit,
    Adafactor,
    Sgd,
}

impl Optimizer {
    pub fn parse(s: &str) -> Option<Optimizer> {
        match s.to_ascii_lowercase().replace(['-', ' '], "_").as_str() {
            "adamw" | "adam" | "adamw_torch" | "adamw_torch_fused" | "adamw_32bit" => {
                Some(Optimizer::AdamW)
            }
            "adamw_8bit" | "adamw8bit" | "adamw_bnb_8bit" | "8bit_adamw" => {
                Some(Optimizer::AdamW8bit)
            }
            "paged_adamw_8bit" | "pagedadamw8bit" => Some(Optimizer::PagedAdamW8bit),
            "paged_adamw_32bit" | "paged_adamw" | "pagedadamw" => Some(Optimizer::PagedAdamW32bit),
            "adafactor" => Some(Optimizer::Adafactor),
            "sgd" => Some(Optimizer::Sgd),
            _ => None,
        }
    }

    pub fn key(self) -> &'static str {
        match self {
            Optimizer::AdamW => "adamw",
            Optimizer::AdamW8bit => "adamw_8bit",
            Optimizer::PagedAdamW8bit => "paged_adamw_8bit",
            Optimizer::PagedAdamW32bit => "paged_adamw_32bit",
            Optimizer::Adafactor => "adafactor",
            Optimizer::Sgd => "sgd",
        }
    }

    /// Paged optimizers move pages between "GPU" and "CPU" memory, which on
    /// a Spark are the same pool.
    pub fn is_paged(self) -> bool {
        matches!(self, Optimizer::PagedAdamW8bit | Optimizer::PagedAdamW32bit)
    }
}

/// Where the bytes of trainable parameters, their gradients and optimizer
/// states live, by training set-up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Precision {
    /// The seed's worksheet and the Hugging Face/PEFT default: 16-bit base
    /// weights and gradients, fp32 LoRA adapters, fp32 optimizer states.
    Standard,
    /// Everything in the 16-bit dtype, optimizer states included (PyTorch's
    /// AdamW allocates them like the parameter): litgpt bf16-true, torchtune.
    Pure,
    /// fp32 master weights under 16-bit autocast (HF Trainer with an fp32
    /// model and bf16=True, litgpt bf16-mixed).
    Mixed,
}

impl Precision {
    pub fn parse(s: &str) -> Option<Precision> {
        match s.to_ascii_lowercase().replace(['_', ' '], "-").as_str() {
            "standard" | "default" => Some(Precision::Standard),
            "pure" | "pure-bf16" | "pure-16" | "bf16-true" | "true" => Some(Precision::Pure),
            "mixed" | "amp" | "bf16-mixed" | "fp16-mixed" | "mixed-precision" => {
                Some(Precision::Mixed)
            }
            _ => None,
        }
    }

    pub fn key(self) -> &'static str {
        match self {
            Precision::Standard => "standard",
            Precision::Pure => "pure",
            Precision::Mixed => "mixed",
        }
    }

    /// A few words for the one-screen answer's "assumed" line.
    pub fn short(self) -> &'static str {
        match self {
            Precision::Standard => "16-bit weights/fp32 states",
            Precision::Pure => "pure 16-bit",
            Precision::Mixed => "fp32 master weights",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Precision::Standard => {
                "16-bit weights and gradients, fp32 adapters and optimizer states"
            }
            Precision::Pure => {
                "pure 16-bit: weights, gradients, adapters and optimizer states all 16-bit"
            }
            Precision::Mixed => {
                "mixed precision: fp32 master weights, gradients and states under 16-bit autocast"
            }
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Attention {
    /// PyTorch SDPA / flash: no s × s score matrix is kept.
    Sdpa,
    /// Eager attention keeps the s × s probabilities for backward.
    Eager,
}

impl Attention {
    pub fn parse(s: &str) -> Option<Attention> {
        match s.to_ascii_lowercase().as_str() {
            "sdpa" | "flash" | "flash_attention_2" | "flash-attn" | "fa2" => Some(Attention::Sdpa),
            "eager" => Some(Attention::Eager),
            _ => None,
        }
    }

    pub fn key(self) -> &'static str {
        match self {
            Attention::Sdpa => "sdpa",
            Attention::Eager => "eager",
        }
    }
}

/// How the loss meets the logits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Loss {
    /// transformers: logits cast to fp32 before cross-entropy.
    Upcast,
    /// Cross-entropy on the 16-bit logits as they are (litgpt bf16-true,
    /// remote or custom modelling code).
    Native,
    /// The logits whole in 16 bits, upcast one chunk at a time (torchtune's
    /// CEWithChunkedOutputLoss, Liger's chunked CE).
    Chunked,
    /// Fused linear cross-entropy: the logits are never held whole
    /// (Unsloth's cut cross-entropy, Liger's fused linear CE, TRL ≥ 1.7).
    Fused,
}

impl Loss {
    pub fn parse(s: &str) -> Option<Loss> {
        match s.to_ascii_lowercase().as_str() {
            "upcast" | "fp32" | "plain" => Some(Loss::Upcast),
            "native" | "16-bit" | "bf16" | "fp16" => Some(Loss::Native),
            "chunked" => Some(Loss::Chunked),
            "fused" | "fused-linear" | "cce" => Some(Loss::Fused),
            _ => None,
        }
    }

    pub fn key(self) -> &'static str {
        match self {
            Loss::Upcast => "upcast",
            Loss::Native => "native",
            Loss::Chunked => "chunked",
            Loss::Fused => "fused",
        }
    }
}

/// Why headroom will not plan tensor parallelism across Sparks.
/// The largest micro-batch a plan accepts: far beyond any run on one box,
/// small enough that every product of the worksheet stays exact.
pub const MAX_BATCH: u64 = 65_536;
/// The longest packing length a plan accepts (4 Mi tokens).
pub const MAX_PACK: u64 = 4_194_304;
/// The largest LoRA rank a plan accepts.
pub const MAX_RANK: u64 = 65_536;

/// Why a batch, packing length or rank cannot be planned, if it cannot.
pub fn out_of_range(what: &str, value: u64) -> Option<String> {
    let (limit, name) = match what {
        "batch" => (MAX_BATCH, "a batch"),
        "pack" => (MAX_PACK, "a packing length"),
        _ => (MAX_RANK, "a LoRA rank"),
    };
    if value == 0 {
        Some(format!("{name} of 0 is not a run"))
    } else if value > limit {
        Some(format!(
            "{name} of {value} is beyond what headroom plans (at most {limit}); check the number"
        ))
    } else {
        None
    }
}

pub const TENSOR_PARALLEL_REFUSAL: &str = "Tensor parallel is refused: it splits every layer's matmuls across the Sparks and exchanges activations inside every layer, so each step waits on the network between the boxes instead of NVLink inside one GPU. The seed's rule for two Sparks is DDP or FSDP only, never tensor parallel. Ask for FSDP to split the weights, gradients and optimizer states, or DDP to keep a whole copy on each Spark.";

/// Whether the words ask for tensor parallelism.
pub fn is_tensor_parallel(s: &str) -> bool {
    let l = s.to_ascii_lowercase();
    l == "tp"
        || l.contains("tensor parallel")
        || l.contains("tensor-parallel")
        || l.contains("tensor_parallel")
}

/// How a run spreads over several Sparks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Sharding {
    /// Every node holds the whole model and its states.
    Ddp,
    /// FSDP full-shard / ZeRO-3: weights, gradients and states split N ways.
    Fsdp,
}

impl Sharding {
    pub fn parse(s: &str) -> Option<Sharding> {
        match s.to_ascii_lowercase().replace(['_', ' '], "-").as_str() {
            "ddp" => Some(Sharding::Ddp),
            "fsdp" | "zero3" | "zero-3" | "full-shard" => Some(Sharding::Fsdp),
            _ => None,
        }
    }

    pub fn key(self) -> &'static str {
        match self {
            Sharding::Ddp => "ddp",
            Sharding::Fsdp => "fsdp",
        }
    }
}

/// Which projections carry LoRA adapters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum LoraTargets {
    AllLinear,
    /// All linear projections and lm_head (litgpt's `lora_head`).
    AllLinearAndHead,
    Attention,
    Named(Vec<String>),
}

impl LoraTargets {
    pub fn parse(s: &str) -> Option<LoraTargets> {
        match s.trim().to_ascii_lowercase().as_str() {
            "all-linear" | "all_linear" | "all" => Some(LoraTargets::AllLinear),
            "all-linear+lm_head" | "all-linear,lm_head" | "all+head" => {
                Some(LoraTargets::AllLinearAndHead)
            }
            "attn" | "attention" => Some(LoraTargets::Attention),
            list => {
                let names: Vec<String> = list
                    .split(',')
                    .map(|n| n.trim().to_string())
                    .filter(|n| !n.is_empty())
                    .collect();
                (!names.is_empty()).then_some(LoraTargets::Named(names))
            }
        }
    }

    pub fn includes(&self, linear: &str, is_attention: bool) -> bool {
        let aliases: &[&str] = match linear {
            "q_proj" => &["q_proj", "q", "query"],
            "k_proj" => &["k_proj", "k", "key"],
            "v_proj" => &["v_proj", "v", "value"],
            "o_proj" => &["o_proj", "o", "out_proj", "output_proj", "dense"],
            "gate_proj" => &["gate_proj", "w1"],
            "up_proj" => &["up_proj", "w3", "fc1", "dense_h_to_4h"],
            "down_proj" => &["down_proj", "w2", "fc2", "dense_4h_to_h"],
            other => return self.names_include(other),
        };
        match self {
            LoraTargets::AllLinear | LoraTargets::AllLinearAndHead => true,
            LoraTargets::Attention => is_attention,
            LoraTargets::Named(names) => names.iter().any(|n| aliases.contains(&n.as_str())),
        }
    }

    fn names_include(&self, name: &str) -> bool {
        matches!(self, LoraTargets::Named(names) if names.iter().any(|n| n == name))
    }

    /// Whether lm_head carries an adapter too.
    pub fn includes_head(&self) -> bool {
        match self {
            LoraTargets::AllLinearAndHead => true,
            LoraTargets::Named(names) => names.iter().any(|n| n == "lm_head"),
            _ => false,
        }
    }

    pub fn label(&self) -> String {
        match self {
            LoraTargets::AllLinear => "all-linear".into(),
            LoraTargets::AllLinearAndHead => "all-linear and lm_head".into(),
            LoraTargets::Attention => "attention (q,k,v,o)".into(),
            LoraTargets::Named(names) => names.join(","),
        }
    }
}

/// How the model's shapes were learned; said in every answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ShapeBasis {
    /// A catalog row in knowledge/models.md.
    Catalog { model: String, row: usize },
    /// A Hugging Face config.json the owner gave.
    Config { path: String },
    /// A bare parameter count: shapes borrowed from the nearest catalog model.
    Approximated { params: u64, proxy: String },
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ModelSpec {
    pub display: String,
    pub arch: Arch,
    /// Total parameters the weights term counts.
    pub params: u64,
    pub basis: ShapeBasis,
}

/// Everything the estimator needs; each field is either the owner's answer or
/// a stated default.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlanInput {
    pub model: ModelSpec,
    pub method: Method,
    /// Compute dtype: the 16-bit format of activations, adapters' compute and
    /// unquantized weights.
    pub dtype: Dtype,
    /// Storage of the frozen base weights (nf4-dq for QLoRA, else `dtype`
    /// unless the owner named a quantized format).
    pub weight_format: Dtype,
    pub optimizer: Optimizer,
    pub batch: u64,
    pub pack: u64,
    pub grad_checkpointing: bool,
    pub lora_rank: u64,
    pub lora_targets: LoraTargets,
    /// LoRA dropout above zero keeps a dropped-out copy of each input.
    pub lora_dropout: bool,
    pub precision: Precision,
    pub attention: Attention,
    /// A fused or chunked loss never materializes batch × seq × vocab logits.
    pub loss: Loss,
    /// Sparks the run spans, and how.
    pub nodes: u64,
    pub sharding: Sharding,
    /// The trainer stack, batch shape and evaluation batch (system-level).
    pub runtime: crate::calc::runtime::Runtime,
    /// SFT, a preference method or an RL method with generation.
    pub objective: crate::calc::objective::Objective,
}
