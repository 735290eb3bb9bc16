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

/// Loading: the weights in place plus what the loader holds on the way
/// in. transformers 4.x maps one shard at a time (its page cache and its
/// CUDA copy at once); 5.x maps every shard at once, so the whole
/// checkpoint sits in page cache that GB10's CUDA allocations may not get
/// back in time. A pre-quantized checkpoint is read at its stored size; a
/// 16-bit one is read whole and quantized on the way in.
pub(super) fn load_peak(s: &Sheet<'_>, weights: &Term, context: &Term) -> Term {
    use crate::calc::runtime::Loader;
    let input = s.input;
    let shard = s.constant("safetensors shard bytes");
    let stored = matches!(
        input.weight_format,
        Dtype::Nvfp4 | Dtype::Mxfp4 | Dtype::Fp8
    ) || (input.runtime.prequantized && input.weight_format.is_quantized());
    let checkpoint = if stored {
        weights.bytes
    } else {
        s.shard(input.model.params as f64 * dtype_figure(s.k, Dtype::Bf16).value)
    };
    let read_as = if stored {
        "the checkpoint as stored"
    } else {
        "a 16-bit checkpoint, quantized or cast on the way in"
    };
    let (transient, what, source) = match input.runtime.loader {
        Loader::V4 => {
            let in_flight = shard.value.min(checkpoint);
            (
                2.0 * in_flight,
                format!(
                    "one shard in flight twice (mmapped page cache and its CUDA copy; {read_as}, transformers 4.x): 2 × {} = {}",
                    gb(in_flight),
                    gb(2.0 * in_flight)
                ),
                shard.cite.to_string(),
            )
        }
        Loader::V5 => {
            let in_flight = shard.value.min(checkpoint);
            (
                checkpoint + in_flight,
                format!(
                    "every shard mapped at once (transformers 5.x): the whole checkpoint {} in page cache + one shard's CUDA copy {} ({read_as}) = {}",
                    gb(checkpoint),
                    gb(in_flight),
                    gb(checkpoint + in_flight)
                ),
                "transformers 5.x opens every shard with mmap at once (huggingface/transformers issue #48285; `disable_mmap`, PR #45547); docs/spark-memory-research.md §4".to_string(),
            )
        }
    };
    let centi = weights.centi_gb + centi_gb_up(transient) + context.centi_gb;
    Term {
        key: "load",
        label: "load-time peak",
        bytes: weights.bytes + transient + context.bytes,
        centi_gb: centi,
        formula: format!(
            "weights {} GB + {what} + CUDA context {} GB = {} GB",
            show_centi(weights.centi_gb),
            show_centi(context.centi_gb),
            show_centi(centi)
        ),
        source,
    }
}
