//! Model-state terms: weights, autocast copies, the LoRA adapter, gradients,
//! optimizer states and the multi-Spark terms.

use super::Term;
use super::{Sheet, dtype_figure, gb, term};
use crate::calc::setup::{Dtype, Method, Optimizer, Precision, Sharding};
use crate::calc::units::{grouped, plain};

pub(super) fn weights(s: &Sheet<'_>) -> Term {
    let input = s.input;
    let k = s.k;
    let params = input.model.params;
    // Mixed precision keeps fp32 master weights; quantized formats keep
    // their own storage for the linear layers.
    let dense = if input.precision == Precision::Mixed {
        Dtype::Fp32
    } else {
        input.dtype
    };
    let dense_fig = dtype_figure(k, dense);
    if !input.weight_format.is_quantized() {
        let stored = if input.precision == Precision::Mixed {
            dense_fig
        } else {
            dtype_figure(k, input.weight_format)
        };
        let key = if input.precision == Precision::Mixed {
            "fp32 master"
        } else {
            input.weight_format.key()
        };
        let bytes = s.shard(params as f64 * stored.value);
        return term(
            "weights",
            "weights",
            bytes,
            format!(
                "{} params × {} B ({key}){} = {}",
                grouped(params),
                plain(stored.value),
                s.shard_text(),
                gb(bytes)
            ),
            stored.cite.to_string(),
        );
    }
    let stored = dtype_figure(k, input.weight_format);
    // Embeddings, lm_head and norms come from the shapes; the rest of the
    // count is the quantized linear layers.
    let rest = input.model.arch.unquantized_params().min(params);
    let linear = params - rest;
    let bytes = s.shard(linear as f64 * stored.value + rest as f64 * dense_fig.value);
    term(
        "weights",
        "weights",
        bytes,
        format!(
            "({} linear params × {} B ({}) + {} embedding/lm_head/norm params kept in {} × {} B){} = {}",
            grouped(linear),
            plain(stored.value),
            input.weight_format.key(),
            grouped(rest),
            dense.key(),
            plain(dense_fig.value),
            s.shard_text(),
            gb(bytes)
        ),
        format!("{}; {}", stored.cite, dense_fig.cite),
    )
}

pub(super) fn autocast_copies(s: &Sheet<'_>) -> Term {
    let per = s.constant("autocast weight copy bytes per element");
    let arch = &s.input.model.arch;
    let head = if arch.tied_embeddings {
        arch.vocab * arch.hidden
    } else {
        arch.embedding_params() / 2
    };
    let matmul_params = arch.linear_params() + head;
    let bytes = matmul_params as f64 * per.value;
    term(
        "autocast",
        "autocast weight copies",
        bytes,
        format!(
            "{} matmul weights (linears and lm_head) × {} B 16-bit copy kept for backward = {}",
            grouped(matmul_params),
            plain(per.value),
            gb(bytes)
        ),
        per.cite.to_string(),
    )
}

pub(super) fn adapter(s: &Sheet<'_>) -> Term {
    let (per, what) = s.trainable_bytes();
    let bytes = s.shard(s.trainable as f64 * per);
    term(
        "adapter",
        "LoRA adapter",
        bytes,
        format!(
            "rank {} on {}: {} params (r × (in + out) per projection per layer) × {} B ({what}){} = {}",
            s.input.lora_rank,
            s.input.lora_targets.label(),
            grouped(s.trainable),
            plain(per),
            s.shard_text(),
            gb(bytes)
        ),
        format!(
            "{}; shapes from {}",
            s.constant("adapter bytes per parameter").cite,
            s.shape_source()
        ),
    )
}

pub(super) fn gradients(s: &Sheet<'_>) -> Term {
    let (per, what) = s.trainable_bytes();
    let bytes = s.shard(s.trainable as f64 * per);
    term(
        "gradients",
        "gradients",
        bytes,
        format!(
            "{} trainable params × {} B ({what}){} = {}",
            grouped(s.trainable),
            plain(per),
            s.shard_text(),
            gb(bytes)
        ),
        if s.input.method == Method::Full {
            dtype_figure(s.k, s.input.dtype).cite.to_string()
        } else {
            s.constant("adapter gradient bytes per parameter")
                .cite
                .to_string()
        },
    )
}

/// fp32 row and column statistics per trainable matrix.
pub(super) fn adafactor_bytes(s: &Sheet<'_>, per_state: f64) -> (f64, u64) {
    let arch = &s.input.model.arch;
    let mut elements: u64 = 0;
    if s.input.method == Method::Full {
        for l in arch.linears() {
            elements += (l.in_features + l.out_features) * l.copies * arch.layers;
        }
        elements += (arch.vocab + arch.hidden) * if arch.tied_embeddings { 1 } else { 2 };
        elements += arch.norm_params();
    } else {
        let r = s.input.lora_rank;
        for l in arch.linears() {
            if s.input.lora_targets.includes(l.name, l.is_attention) {
                elements += (r + l.in_features + r + l.out_features) * l.copies * arch.layers;
            }
        }
        if s.input.lora_targets.includes_head() {
            elements += 2 * r + arch.hidden + arch.vocab;
        }
    }
    (elements as f64 * per_state, elements)
}

pub(super) fn optimizer(s: &Sheet<'_>) -> Term {
    let key = s.input.optimizer.key();
    let facts =
        s.k.optimizer(key)
            .unwrap_or_else(|| panic!("knowledge/dtypes.md has no optimizer {key:?}"));
    if s.input.optimizer == Optimizer::Adafactor {
        let per_state = facts.bytes_per_state.unwrap_or(4.0);
        let (bytes, elements) = adafactor_bytes(s, per_state);
        let bytes = s.shard(bytes);
        return term(
            "optimizer",
            "optimizer states",
            bytes,
            format!(
                "adafactor: {} row and column statistics × {} B{} = {}",
                grouped(elements),
                plain(per_state),
                s.shard_text(),
                gb(bytes)
            ),
            facts.cite.to_string(),
        );
    }
    let (per_state, what) = match facts.bytes_per_state {
        Some(b) => (b, format!("{} B", plain(b))),
        None => {
            let fp32 = dtype_figure(s.k, Dtype::Fp32).value;
            match s.input.precision {
                Precision::Pure => (
                    s.compute,
                    format!("{} B, like the 16-bit parameter", plain(s.compute)),
                ),
                _ => (fp32, format!("{} B fp32", plain(fp32))),
            }
        }
    };
    let per = facts.states_per_param * per_state;
    let bytes = s.shard(s.trainable as f64 * per);
    term(
        "optimizer",
        "optimizer states",
        bytes,
        format!(
            "{} trainable params × {} states × {what} = {} B/param ({key}){} = {}",
            grouped(s.trainable),
            plain(facts.states_per_param),
            plain(per),
            s.shard_text(),
            gb(bytes)
        ),
        facts.cite.to_string(),
    )
}

pub(super) fn multi_node(s: &Sheet<'_>) -> Term {
    let input = s.input;
    match input.sharding {
        Sharding::Ddp => {
            let copies = s.constant("DDP gradient bucket copies");
            let (per, what) = s.trainable_bytes();
            let bytes = copies.value * s.trainable as f64 * per;
            term(
                "distributed",
                "DDP gradient buckets",
                bytes,
                format!(
                    "{} copy × {} trainable params × {} B ({what}) = {}",
                    plain(copies.value),
                    grouped(s.trainable),
                    plain(per),
                    gb(bytes)
                ),
                copies.cite.to_string(),
            )
        }
        Sharding::Fsdp => {
            let units = s.constant("FSDP gathered units");
            let arch = &input.model.arch;
            let layer_params: u64 = arch
                .linears()
                .iter()
                .map(|l| l.in_features * l.out_features * l.copies)
                .sum();
            let per = if input.weight_format.is_quantized() {
                dtype_figure(s.k, input.weight_format).value
            } else if input.precision == Precision::Mixed {
                dtype_figure(s.k, Dtype::Fp32).value
            } else {
                s.compute
            };
            let bytes = units.value * layer_params as f64 * per;
            term(
                "distributed",
                "FSDP gathered layers",
                bytes,
                format!(
                    "{} decoder layers gathered whole: {} × {} params × {} B = {}",
                    plain(units.value),
                    plain(units.value),
                    grouped(layer_params),
                    plain(per),
                    gb(bytes)
                ),
                units.cite.to_string(),
            )
        }
    }
}
