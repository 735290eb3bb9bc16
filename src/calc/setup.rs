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
            Optimizer::Sgd => "sgd",
        }
    }
}

/// Which projections carry LoRA adapters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum LoraTargets {
    AllLinear,
    Attention,
    Named(Vec<String>),
}

impl LoraTargets {
    pub fn parse(s: &str) -> Option<LoraTargets> {
        match s.trim().to_ascii_lowercase().as_str() {
            "all-linear" | "all_linear" | "all" => Some(LoraTargets::AllLinear),
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
        match self {
            LoraTargets::AllLinear => true,
            LoraTargets::Attention => is_attention,
            LoraTargets::Named(names) => names.iter().any(|n| n == linear),
        }
    }

    pub fn label(&self) -> String {
        match self {
            LoraTargets::AllLinear => "all-linear".into(),
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
}
