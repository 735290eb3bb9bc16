//! The memory worksheet: each term of a training run's peak footprint.
//!
//! Step peak = weights (+ autocast copies) + adapter + gradients + optimizer
//! states + activations + loss logits (+ QLoRA's dequantization buffer) +
//! CUDA context + allocator slack. The load-time peak (weights plus a shard
//! in flight) is computed beside it, and the larger of the two binds. Every
//! term carries its formula with the numbers and the knowledge rows it used,
//! so an owner can redo the arithmetic by hand.

use crate::calc::setup::{
    Attention, Dtype, Loss, Method, Optimizer, PlanInput, Precision, Sharding,
};
use crate::calc::units::{centi_gb_up, grouped, plain, show_centi};
use crate::knowledge::{Figure, Knowledge};
use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Term {
    pub key: &'static str,
    pub label: &'static str,
    /// Exact bytes as computed.
    pub bytes: f64,
    /// Hundredths of a GB, rounded up; totals are sums of these.
    pub centi_gb: u64,
    pub formula: String,
    pub source: String,
}

/// Which moment of the run needs the most memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Peak {
    /// A training step: forward, backward and the optimizer update.
    Step,
    /// Loading the checkpoint: weights in place plus a shard in flight.
    Load,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Estimate {
    /// The step peak's terms, per Spark.
    pub terms: Vec<Term>,
    pub step_centi_gb: u64,
    pub load: Term,
    pub binding: Peak,
    /// The binding peak: what the verdict compares with the budget.
    pub total_centi_gb: u64,
    /// The step peak without CUDA context and allocator slack: what
    /// `torch.cuda.max_memory_allocated()` would report.
    pub allocated_centi_gb: u64,
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

/// LoRA parameters: r × (in + out) for each targeted projection, every layer,
/// plus lm_head when it is targeted.
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
    let head = if input.lora_targets.includes_head() {
        input.lora_rank * (arch.hidden + arch.vocab)
    } else {
        0
    };
    arch.layers * per_layer + head
}

/// Parameters that receive gradients and optimizer state.
pub fn trainable_params(input: &PlanInput) -> u64 {
    match input.method {
        Method::Full => input.model.params,
        Method::Lora | Method::Qlora => lora_params(input),
    }
}

/// Shared numbers for one estimate.
struct Sheet<'a> {
    input: &'a PlanInput,
    k: &'a Knowledge,
    /// Bytes of one 16-bit compute element.
    compute: f64,
    tokens: u64,
    trainable: u64,
    /// Split N ways under FSDP, else 1.
    shards: u64,
}

impl Sheet<'_> {
    fn constant(&self, name: &str) -> &Figure {
        self.k.constant(name)
    }

    /// Bytes of a trainable parameter and its gradient under the precision
    /// set-up, with the words for the formula.
    fn trainable_bytes(&self) -> (f64, &'static str) {
        let fp32 = dtype_figure(self.k, Dtype::Fp32).value;
        match (self.input.precision, self.input.method) {
            (Precision::Mixed, _) => (fp32, "fp32"),
            (Precision::Pure, _) => (self.compute, "16-bit"),
            (Precision::Standard, Method::Full) => (self.compute, "16-bit"),
            (Precision::Standard, _) => (fp32, "fp32 adapter"),
        }
    }

    /// Per-node share of a model-state term under FSDP.
    fn shard(&self, bytes: f64) -> f64 {
        bytes / self.shards as f64
    }

    fn shard_text(&self) -> String {
        if self.shards > 1 {
            format!(" ÷ {} Sparks (FSDP)", self.shards)
        } else {
            String::new()
        }
    }

    fn shape_source(&self) -> String {
        use crate::calc::setup::ShapeBasis;
        match &self.input.model.basis {
            ShapeBasis::Catalog { model, row } => {
                format!("knowledge/models.md row {row} ({model})")
            }
            ShapeBasis::Config { path } => format!("your config.json ({path})"),
            ShapeBasis::Approximated { proxy, .. } => format!(
                "{proxy}'s shapes scaled to your parameter count (an approximation: name the model or give its config.json for exact shapes)"
            ),
        }
    }
}

pub fn estimate(input: &PlanInput, k: &Knowledge) -> Estimate {
    let sheet = Sheet {
        input,
        k,
        compute: dtype_figure(k, input.dtype).value,
        tokens: input.batch * input.pack,
        trainable: trainable_params(input),
        shards: if input.sharding == Sharding::Fsdp {
            input.nodes.max(1)
        } else {
            1
        },
    };
    let weights = weights(&sheet);
    let mut terms = vec![weights.clone()];
    if input.precision == Precision::Mixed {
        terms.push(autocast_copies(&sheet));
    }
    if input.method.uses_adapter() {
        terms.push(adapter(&sheet));
    }
    terms.push(gradients(&sheet));
    terms.push(optimizer(&sheet));
    if input.nodes > 1 {
        terms.push(multi_node(&sheet));
    }
    terms.push(activations(&sheet));
    terms.push(logits(&sheet));
    if input.weight_format.is_quantized() && input.method == Method::Qlora {
        terms.push(dequantization(&sheet));
        terms.push(qlora_overhead(&sheet));
    }
    let allocated: u64 = terms.iter().map(|t| t.centi_gb).sum();
    let slack = slack(&sheet, allocated);
    let context = context(&sheet);
    let step = allocated + slack.centi_gb + context.centi_gb;
    terms.push(slack);
    terms.push(context.clone());
    let load = load_peak(&sheet, &weights, &context);
    let (binding, total) = if load.centi_gb > step {
        (Peak::Load, load.centi_gb)
    } else {
        (Peak::Step, step)
    };
    Estimate {
        terms,
        step_centi_gb: step,
        load,
        binding,
        total_centi_gb: total,
        allocated_centi_gb: allocated,
        trainable_params: sheet.trainable,
    }
}

fn weights(s: &Sheet<'_>) -> Term {
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

fn autocast_copies(s: &Sheet<'_>) -> Term {
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

fn adapter(s: &Sheet<'_>) -> Term {
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

fn gradients(s: &Sheet<'_>) -> Term {
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
fn adafactor_bytes(s: &Sheet<'_>, per_state: f64) -> (f64, u64) {
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

fn optimizer(s: &Sheet<'_>) -> Term {
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

fn multi_node(s: &Sheet<'_>) -> Term {
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

/// Bytes one decoder layer keeps for backward without checkpointing, and
/// the formula.
fn layer_activation_bytes(s: &Sheet<'_>) -> (f64, String) {
    let input = s.input;
    let a = &input.model.arch;
    let elem = s.compute;
    let tokens = s.tokens as f64;
    let c = |name: &str| s.constant(name).value;
    // Under autocast the residual stream and norm inputs stay fp32.
    let h_elem = if input.precision == Precision::Mixed {
        c("fp32 activation bytes under autocast")
    } else {
        elem
    };
    let n_h = c("activation tensors of width hidden per layer");
    let n_q = c("activation tensors of width heads x head_dim per layer");
    let n_kv = c("activation tensors of width kv_heads x head_dim per layer");
    let n_i = if a.mlp_gated {
        c("activation tensors of width intermediate per layer")
    } else {
        c("activation tensors of width intermediate per layer, plain MLP")
    };
    let lse = c("SDPA softmax statistics bytes per head per token") * a.heads as f64;
    let mut bytes = tokens
        * (h_elem * n_h * a.hidden as f64
            + elem
                * (n_q * a.q_out() as f64
                    + n_kv * a.kv_out() as f64
                    + n_i * a.active_intermediate() as f64)
            + lse);
    let t = grouped(s.tokens);
    let mut text = format!(
        "{t} tokens × ({} B·{}·{} + {} B·({}·{} + {}·{} + {}·{}) + {} B·{} heads)",
        plain(h_elem),
        plain(n_h),
        a.hidden,
        plain(elem),
        plain(n_q),
        a.q_out(),
        plain(n_kv),
        a.kv_out(),
        plain(n_i),
        a.active_intermediate(),
        plain(c("SDPA softmax statistics bytes per head per token")),
        a.heads,
    );
    if input.attention == Attention::Eager {
        let per = c("eager attention bytes per score element");
        let scores = (a.heads * input.pack * input.pack * input.batch) as f64;
        bytes += per * scores;
        text.push_str(&format!(
            " + eager attention {} B × {} heads × {}² × batch {}",
            plain(per),
            a.heads,
            input.pack,
            input.batch
        ));
    }
    if input.method.uses_adapter() {
        let targeted: Vec<_> = a
            .linears()
            .into_iter()
            .filter(|l| input.lora_targets.includes(l.name, l.is_attention))
            .collect();
        let mut inputs: u64 = targeted
            .iter()
            .map(|l| l.in_features * l.active_copies)
            .sum();
        let mut modules: u64 = targeted.iter().map(|l| l.active_copies).sum();
        if input.lora_targets.includes_head() {
            inputs += a.hidden;
            modules += 1;
        }
        let rank_bytes = tokens * elem * (input.lora_rank * modules) as f64;
        bytes += rank_bytes;
        text.push_str(&format!(
            " + LoRA A outputs {} B × {t} tokens × rank {} × {} modules",
            plain(elem),
            input.lora_rank,
            modules
        ));
        if input.lora_dropout {
            let per = c("LoRA dropout bytes per input element");
            bytes += tokens * per * inputs as f64;
            text.push_str(&format!(
                " + LoRA dropout {} B × {t} tokens × {} input features",
                plain(per),
                grouped(inputs)
            ));
        }
    }
    (bytes, text)
}

fn activations(s: &Sheet<'_>) -> Term {
    let input = s.input;
    let a = &input.model.arch;
    let (layer, layer_text) = layer_activation_bytes(s);
    let h_elem = if input.precision == Precision::Mixed {
        s.constant("fp32 activation bytes under autocast").value
    } else {
        s.compute
    };
    let source = format!(
        "knowledge/worksheet.md rows 3–8, 11, 12 and 14; shapes from {}",
        s.shape_source()
    );
    if input.grad_checkpointing {
        let kept = h_elem * s.tokens as f64 * a.hidden as f64 * a.layers as f64;
        let bytes = kept + layer;
        term(
            "activations",
            "activations",
            bytes,
            format!(
                "gradient checkpointing keeps each layer's input: {} B × {} tokens × hidden {} × {} layers = {}; plus one layer recomputed in backward: {} = {}; total {}",
                plain(h_elem),
                grouped(s.tokens),
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
                "no checkpointing: {} layers × {layer_text} = {} layers × {} = {}",
                a.layers,
                a.layers,
                gb(layer),
                gb(bytes)
            ),
            source,
        )
    }
}

fn logits(s: &Sheet<'_>) -> Term {
    let input = s.input;
    let vocab = input.model.arch.vocab;
    if input.loss == Loss::Fused {
        return term(
            "logits",
            "loss logits",
            0.0,
            "fused/chunked loss: the batch × seq × vocab logits are never held whole".into(),
            "shared/research/estimator.md §3.4 (Liger, Unsloth, torchtune chunked CE, Apple CCE)"
                .into(),
        );
    }
    let per = if input.loss == Loss::Native {
        s.constant("logits bytes per element without upcast")
    } else {
        s.constant("logits bytes per element")
    };
    let bytes = s.tokens as f64 * vocab as f64 * per.value;
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

fn dequantization(s: &Sheet<'_>) -> Term {
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

fn qlora_overhead(s: &Sheet<'_>) -> Term {
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

fn slack(s: &Sheet<'_>, allocated_centi: u64) -> Term {
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

fn context(s: &Sheet<'_>) -> Term {
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
fn load_peak(s: &Sheet<'_>, weights: &Term, context: &Term) -> Term {
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
