//! Transient and runtime terms: QLoRA's buffers, allocator slack, the CUDA
//! context, and the load-time peak.

use super::Term;
use super::{Sheet, dtype_figure, gb, term};
use crate::calc::setup::{Dtype, PlanInput};
use crate::calc::units::{centi_gb_up, grouped, plain, show_centi};

pub(super) fn dequantization(s: &Sheet<'_>) -> Term {
    let per = s.constant("dequantized weight bytes per element");
    let largest = s
        .input
        .model
        .arch
        .linears()
        .into_iter()
        .max_by_key(|l| l.in_features * l.out_features)
        .map(|l| (l.name, l.in_features, l.out_features))
        .unwrap_or(("none", 0, 0));
    let bytes = (largest.1 * largest.2) as f64 * per.value;
    term(
        "dequant",
        "QLoRA dequantization buffer",
        bytes,
        format!(
            "largest 4-bit projection ({} {} × {}) dequantized to {} B per element = {}",
            largest.0,
            largest.1,
            largest.2,
            plain(per.value),
            gb(bytes)
        ),
        per.cite.to_string(),
    )
}

/// The gap between measured bitsandbytes QLoRA peaks and the analytic
/// terms, in the form of extra saved 16-bit tensors per layer: an
/// empirical term, shown as one.
pub fn qlora_overhead_elements_per_token_layer(input: &PlanInput) -> u64 {
    let a = &input.model.arch;
    let mlp = if a.mlp_gated {
        2 * a.active_intermediate()
    } else {
        a.active_intermediate()
    };
    a.hidden + mlp
}

pub(super) fn qlora_overhead(s: &Sheet<'_>) -> Term {
    let sets = s.constant("bitsandbytes QLoRA saved tensors per layer");
    let a = &s.input.model.arch;
    let width = qlora_overhead_elements_per_token_layer(s.input);
    let layers = if s.input.grad_checkpointing {
        1
    } else {
        a.layers
    };
    let bytes = sets.value * s.compute * s.tokens as f64 * width as f64 * layers as f64;
    term(
        "qlora_overhead",
        "QLoRA saved tensors (empirical)",
        bytes,
        format!(
            "{} set × {} B × {} tokens × (hidden {} + {}) × {} {} = {}",
            plain(sets.value),
            plain(s.compute),
            grouped(s.tokens),
            a.hidden,
            if a.mlp_gated {
                format!("2 × {}", a.active_intermediate())
            } else {
                a.active_intermediate().to_string()
            },
            layers,
            if s.input.grad_checkpointing {
                "recomputed layer"
            } else {
                "layers"
            },
            gb(bytes)
        ),
        sets.cite.to_string(),
    )
}

pub(super) fn slack(s: &Sheet<'_>, allocated_centi: u64) -> Term {
    let f = s.constant("allocator slack");
    let allocated = allocated_centi as f64 * 1e7;
    let bytes = allocated * f.value;
    term(
        "slack",
        "allocator slack",
        bytes,
        format!(
            "{} × the {} GB allocated above = {}",
            plain(f.value),
            show_centi(allocated_centi),
            gb(bytes)
        ),
        f.cite.to_string(),
    )
}

pub(super) fn context(s: &Sheet<'_>) -> Term {
    let f = s.k.spark("CUDA context and allocator");
    let bytes = f.value * 1e9;
    term(
        "overhead",
        "CUDA context",
        bytes,
        format!("{} GB per process", plain(f.value)),
        f.cite.to_string(),
    )
}

/// Loading: the weights in place, one shard mmapped (page cache) and its
/// CUDA copy in flight at once, and the CUDA context.
pub(super) fn load_peak(s: &Sheet<'_>, weights: &Term, context: &Term) -> Term {
    let input = s.input;
    let shard = s.constant("safetensors shard bytes");
    // Pre-quantized checkpoints (NVFP4, MXFP4, FP8) load as stored; others
    // come as 16-bit shards and are quantized on the way in.
    let checkpoint = if matches!(
        input.weight_format,
        Dtype::Nvfp4 | Dtype::Mxfp4 | Dtype::Fp8
    ) {
        weights.bytes
    } else {
        s.shard(input.model.params as f64 * dtype_figure(s.k, Dtype::Bf16).value)
    };
    let in_flight = shard.value.min(checkpoint);
    let transient = 2.0 * in_flight;
    let centi = weights.centi_gb + centi_gb_up(transient) + context.centi_gb;
    Term {
        key: "load",
        label: "load-time peak",
        bytes: weights.bytes + transient + context.bytes,
        centi_gb: centi,
        formula: format!(
            "weights {} GB + one shard in flight twice (mmapped page cache and its CUDA copy): 2 × {} = {} + CUDA context {} GB = {} GB",
            show_centi(weights.centi_gb),
            gb(in_flight),
            gb(transient),
            show_centi(context.centi_gb),
            show_centi(centi)
        ),
        source: shard.cite.to_string(),
    }
}
