//! The memory worksheet: each term of a training run's peak footprint.
//!
//! Footprint = weights + adapter + gradients + optimizer states +
//! activations + logits (+ QLoRA's dequantization buffer) + runtime overhead.
//! Every term carries the formula with its numbers and the knowledge rows it
//! used, so an owner can redo the arithmetic by hand.

use crate::calc::setup::{Dtype, Method, PlanInput};
use crate::calc::units::{centi_gb_up, grouped, plain, show_centi};
use crate::knowledge::{Figure, Knowledge};
use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Term {
    pub key: &'static str,
    pub label: &'static str,
    /// Exact bytes as computed.
    pub bytes: f64,
    /// Hundredths of a GB, rounded up; the total is the sum of these.
    pub centi_gb: u64,
    pub formula: String,
    pub source: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Estimate {
    pub terms: Vec<Term>,
    pub total_centi_gb: u64,
    pub trainable_params: u64,
}

impl Estimate {
    pub fn term(&self, key: &str) -> Option<&Term> {
        self.terms.iter().find(|t| t.key == key)
    }

    /// Hundredths of a GB in a term, 0 when the term does not apply.
    pub fn centi(&self, key: &str) -> u64 {
        self.term(key).map_or(0, |t| t.centi_gb)
    }

    pub fn total_gb(&self) -> f64 {
        self.total_centi_gb as f64 / 100.0
    }
}

fn gb(bytes: f64) -> String {
    format!("{} GB", show_centi(centi_gb_up(bytes)))
}

fn term(
    key: &'static str,
    label: &'static str,
    bytes: f64,
    formula: String,
    source: String,
) -> Term {
    Term {
        key,
        label,
        bytes,
        centi_gb: centi_gb_up(bytes),
        formula,
        source,
    }
}

fn dtype_figure(k: &Knowledge, d: Dtype) -> &Figure {
    k.dtype(d.key())
        .unwrap_or_else(|| panic!("knowledge/dtypes.md has no row {:?}", d.key()))
}

/// LoRA parameters: r × (in + out) for each targeted projection, every layer.
pub fn lora_params(input: &PlanInput) -> u64 {
    if !input.method.uses_adapter() {
        return 0;
    }
    let arch = &input.model.arch;
    let per_layer: u64 = arch
        .linears()
        .iter()
        .filter(|l| input.lora_targets.includes(l.name, l.is_attention))
        .map(|l| input.lora_rank * (l.in_features + l.out_features) * l.copies)
        .sum();
    arch.layers * per_layer
}

/// Parameters that receive gradients and optimizer state.
pub fn trainable_params(input: &PlanInput) -> u64 {
    match input.method {
        Method::Full => input.model.params,
        Method::Lora | Method::Qlora => lora_params(input),
    }
}

pub fn estimate(input: &PlanInput, k: &Knowledge) -> Estimate {
    let mut terms = vec![weights(input, k)];
    let trainable = trainable_params(input);
    if input.method.uses_adapter() {
        terms.push(adapter(input, k, trainable));
    }
    terms.push(gradients(input, k, trainable));
    terms.push(optimizer(input, k, trainable));
    terms.push(activations(input, k));
    terms.push(logits(input, k));
    if input.weight_format.is_quantized() && input.method == Method::Qlora {
        terms.push(dequantization(input, k));
    }
    terms.push(overhead(k));
    let total_centi_gb = terms.iter().map(|t| t.centi_gb).sum();
    Estimate {
        terms,
        total_centi_gb,
        trainable_params: trainable,
    }
}

fn weights(input: &PlanInput, k: &Knowledge) -> Term {
    let stored = dtype_figure(k, input.weight_format);
    let compute = dtype_figure(k, input.dtype);
    let params = input.model.params;
    if !input.weight_format.is_quantized() {
        let bytes = params as f64 * stored.value;
        return term(
            "weights",
            "weights",
            bytes,
            format!(
                "{} params × {} B ({}) = {}",
                grouped(params),
                plain(stored.value),
                input.weight_format.key(),
                gb(bytes)
            ),
            format!("{}", stored.cite),
        );
    }
    // Embeddings, lm_head and norms come from the shapes; the rest of the
    // count is the quantized linear layers.
    let rest = input.model.arch.unquantized_params().min(params);
    let linear = params - rest;
    let bytes = linear as f64 * stored.value + rest as f64 * compute.value;
    term(
        "weights",
        "weights",
        bytes,
        format!(
            "{} linear params × {} B ({}) + {} embedding/lm_head/norm params kept in {} × {} B = {}",
            grouped(linear),
            plain(stored.value),
            input.weight_format.key(),
            grouped(rest),
            input.dtype.key(),
            plain(compute.value),
            gb(bytes)
        ),
        format!("{}; {}", stored.cite, compute.cite),
    )
}

fn adapter(input: &PlanInput, k: &Knowledge, trainable: u64) -> Term {
    let per = k.constant("adapter bytes per parameter");
    let bytes = trainable as f64 * per.value;
    term(
        "adapter",
        "LoRA adapter",
        bytes,
        format!(
            "rank {} on {}: {} params (r × (in + out) per projection per layer) × {} B (fp32) = {}",
            input.lora_rank,
            input.lora_targets.label(),
            grouped(trainable),
            plain(per.value),
            gb(bytes)
        ),
        format!("{}; shapes from {}", per.cite, shape_source(input)),
    )
}

fn gradients(input: &PlanInput, k: &Knowledge, trainable: u64) -> Term {
    let (per, cite, what) = if input.method == Method::Full {
        let f = dtype_figure(k, input.weight_format);
        (f.value, f.cite.to_string(), input.weight_format.key())
    } else {
        let f = k.constant("adapter gradient bytes per parameter");
        (f.value, f.cite.to_string(), "fp32 adapter")
    };
    let bytes = trainable as f64 * per;
    term(
        "gradients",
        "gradients",
        bytes,
        format!(
            "{} trainable params × {} B ({what}) = {}",
            grouped(trainable),
            plain(per),
            gb(bytes)
        ),
        cite,
    )
}

fn optimizer(input: &PlanInput, k: &Knowledge, trainable: u64) -> Term {
    let f = k
        .optimizer(input.optimizer.key())
        .unwrap_or_else(|| panic!("dtypes.md has no optimizer {:?}", input.optimizer.key()));
    let bytes = trainable as f64 * f.value;
    term(
        "optimizer",
        "optimizer states",
        bytes,
        format!(
            "{} trainable params × {} B ({}) = {}",
            grouped(trainable),
            plain(f.value),
            input.optimizer.key(),
            gb(bytes)
        ),
        f.cite.to_string(),
    )
}

/// Bytes one decoder layer keeps for backward without checkpointing.
fn layer_activation_bytes(input: &PlanInput, k: &Knowledge) -> (f64, String) {
    let a = &input.model.arch;
    let elem = dtype_figure(k, input.dtype).value;
    let tokens = (input.batch * input.pack) as f64;
    let c = |name: &str| k.constant(name).value;
    let n_h = c("activation tensors of width hidden per layer");
    let n_q = c("activation tensors of width heads x head_dim per layer");
    let n_kv = c("activation tensors of width kv_heads x head_dim per layer");
    let n_i = c("activation tensors of width intermediate per layer");
    let width = n_h * a.hidden as f64
        + n_q * a.q_out() as f64
        + n_kv * a.kv_out() as f64
        + n_i * a.active_intermediate() as f64;
    let lse = c("SDPA softmax statistics bytes per head per token") * a.heads as f64;
    let mut bytes = tokens * (elem * width + lse);
    let mut text = format!(
        "{} B × {} tokens × ({}·{} + {}·{} + {}·{} + {}·{}) + {} B·{} heads × {} tokens",
        plain(elem),
        grouped(input.batch * input.pack),
        plain(n_h),
        a.hidden,
        plain(n_q),
        a.q_out(),
        plain(n_kv),
        a.kv_out(),
        plain(n_i),
        a.active_intermediate(),
        plain(c("SDPA softmax statistics bytes per head per token")),
        a.heads,
        grouped(input.batch * input.pack),
    );
    if input.method.uses_adapter() {
        let inputs: u64 = a
            .linears()
            .iter()
            .filter(|l| input.lora_targets.includes(l.name, l.is_attention))
            .map(|l| l.in_features * l.active_copies)
            .sum();
        let per = c("LoRA dropout bytes per input element");
        bytes += tokens * per * inputs as f64;
        text.push_str(&format!(
            " + LoRA dropout {} B × {} tokens × {} input features",
            plain(per),
            grouped(input.batch * input.pack),
            grouped(inputs)
        ));
    }
    (bytes, text)
}

fn activations(input: &PlanInput, k: &Knowledge) -> Term {
    let a = &input.model.arch;
    let elem = dtype_figure(k, input.dtype).value;
    let (layer, layer_text) = layer_activation_bytes(input, k);
    let tokens = input.batch * input.pack;
    let source = format!(
        "{}; knowledge/worksheet.md rows 3–8; shapes from {}",
        dtype_figure(k, input.dtype).cite,
        shape_source(input)
    );
    if input.grad_checkpointing {
        let kept = elem * tokens as f64 * a.hidden as f64 * a.layers as f64;
        let bytes = kept + layer;
        term(
            "activations",
            "activations",
            bytes,
            format!(
                "gradient checkpointing keeps each layer's input: {} B × {} tokens × hidden {} × {} layers = {}; plus one layer recomputed in backward: {} = {}; total {}",
                plain(elem),
                grouped(tokens),
                a.hidden,
                a.layers,
                gb(kept),
                layer_text,
                gb(layer),
                gb(bytes)
            ),
            source,
        )
    } else {
        let bytes = layer * a.layers as f64;
        term(
            "activations",
            "activations",
            bytes,
            format!(
                "no checkpointing: {} layers × [{}] = {} layers × {} = {}",
                a.layers,
                layer_text,
                a.layers,
                gb(layer),
                gb(bytes)
            ),
            source,
        )
    }
}

fn logits(input: &PlanInput, k: &Knowledge) -> Term {
    let per = k.constant("logits bytes per element");
    let tokens = input.batch * input.pack;
    let vocab = input.model.arch.vocab;
    let bytes = tokens as f64 * vocab as f64 * per.value;
    term(
        "logits",
        "loss logits",
        bytes,
        format!(
            "batch {} × pack {} × vocab {} × {} B = {}",
            input.batch,
            input.pack,
            grouped(vocab),
            plain(per.value),
            gb(bytes)
        ),
        per.cite.to_string(),
    )
}

fn dequantization(input: &PlanInput, k: &Knowledge) -> Term {
    let per = k.constant("dequantized weight bytes per element");
    let largest = input
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

fn overhead(k: &Knowledge) -> Term {
    let f = k.spark("CUDA context and allocator");
    let bytes = f.value * 1e9;
    term(
        "overhead",
        "CUDA context",
        bytes,
        format!("{} GB per process", plain(f.value)),
        f.cite.to_string(),
    )
}

fn shape_source(input: &PlanInput) -> String {
    use crate::calc::setup::ShapeBasis;
    match &input.model.basis {
        ShapeBasis::Catalog { model, row } => format!("knowledge/models.md row {row} ({model})"),
        ShapeBasis::Config { path } => format!("your config.json ({path})"),
        ShapeBasis::Approximated { proxy, .. } => format!(
            "{proxy}'s shapes scaled to your parameter count (an approximation: name the model or give its config.json for exact shapes)"
        ),
    }
}
