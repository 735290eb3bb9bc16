//! The memory worksheet: each term of a training run's peak footprint.
//!
//! Step peak = weights (+ autocast copies) + adapter + gradients + optimizer
//! states + activations + loss logits (+ QLoRA's dequantization buffer) +
//! CUDA context + allocator slack. The load-time peak (weights plus a shard
//! in flight) is computed beside it, and the larger of the two binds. Every
//! term carries its formula with the numbers and the knowledge rows it used,
//! so an owner can redo the arithmetic by hand.

use crate::calc::setup::{Dtype, Method, PlanInput, Precision, Sharding};
use crate::calc::units::{centi_gb_up, show_centi};
use crate::knowledge::{Figure, Knowledge};
use serde::Serialize;

mod activations;
mod model_state;
mod objective;
mod phases;
mod transients;

use activations::{activations, logits};
use model_state::{adapter, autocast_copies, gradients, multi_node, optimizer, weights};
pub use transients::qlora_overhead_elements_per_token_layer;
use transients::{context, dequantization, load_peak, qlora_overhead, slack};

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
    /// An evaluation pass: forward only, at the eval batch size.
    Eval,
    /// Writing a checkpoint.
    Save,
    /// Resuming from a checkpoint (the optimizer state read back).
    Resume,
}

impl Peak {
    pub fn label(self) -> &'static str {
        match self {
            Peak::Step => "the training step",
            Peak::Load => "loading",
            Peak::Eval => "evaluation",
            Peak::Save => "checkpoint save",
            Peak::Resume => "resume",
        }
    }
}

/// One moment's peak at the three levels a measurement can mean, each in
/// hundredths of a GB: tensors alone (`torch.cuda.max_memory_allocated`,
/// axolotl's `memory/max_allocated`), plus the caching allocator's slack and
/// reserve (`max_memory_reserved`), plus the CUDA context and the trainer
/// process's host memory (what the unified pool loses: `free`'s used, and
/// what the verdict uses).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Levels {
    pub allocated: u64,
    pub reserved: u64,
    pub system: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Estimate {
    /// The step peak's terms, per Spark.
    pub terms: Vec<Term>,
    pub step_centi_gb: u64,
    pub load: Term,
    /// Evaluation, checkpoint save and resume, each with its terms and
    /// whether this run has that moment (it binds only then).
    pub phases: Vec<(Peak, Term, bool)>,
    pub binding: Peak,
    /// The binding peak: what the verdict compares with the budget.
    pub total_centi_gb: u64,
    /// The step peak without CUDA context and allocator slack: what
    /// `torch.cuda.max_memory_allocated()` would report.
    pub allocated_centi_gb: u64,
    /// Every moment's peak at the three levels, the step first.
    pub levels: Vec<(Peak, Levels)>,
    pub trainable_params: u64,
}

impl Estimate {
    /// The three levels of one moment's peak.
    pub fn levels_of(&self, peak: Peak) -> Option<Levels> {
        self.levels
            .iter()
            .find(|(p, _)| *p == peak)
            .map(|(_, l)| *l)
    }

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

pub(super) fn gb(bytes: f64) -> String {
    format!("{} GB", show_centi(centi_gb_up(bytes)))
}

pub(super) fn term(
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

pub(super) fn dtype_figure(k: &Knowledge, d: Dtype) -> &Figure {
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
pub(super) struct Sheet<'a> {
    pub(super) input: &'a PlanInput,
    pub(super) k: &'a Knowledge,
    /// Bytes of one 16-bit compute element.
    pub(super) compute: f64,
    /// Tokens through the policy's forward and backward per step.
    pub(super) tokens: u64,
    /// Tokens per sequence: the pack, or a preference run's shorter
    /// longest row.
    pub(super) row: u64,
    /// Tokens whose logits reach the loss (an RL step scores only its
    /// completions).
    pub(super) logit_tokens: u64,
    pub(super) trainable: u64,
    /// Split N ways under FSDP, else 1.
    pub(super) shards: u64,
}

impl Sheet<'_> {
    pub(super) fn constant(&self, name: &str) -> &Figure {
        self.k.constant(name)
    }

    /// Bytes of a trainable parameter and its gradient under the precision
    /// set-up, with the words for the formula.
    pub(super) fn trainable_bytes(&self) -> (f64, &'static str) {
        let fp32 = dtype_figure(self.k, Dtype::Fp32).value;
        match (self.input.precision, self.input.method) {
            (Precision::Mixed, _) => (fp32, "fp32"),
            (Precision::Pure, _) => (self.compute, "16-bit"),
            (Precision::Standard, Method::Full) => (self.compute, "16-bit"),
            (Precision::Standard, _) => (fp32, "fp32 adapter"),
        }
    }

    /// How the loss's tokens are counted, in words.
    pub(super) fn logit_token_text(&self) -> String {
        use crate::calc::objective::Objective;
        let input = self.input;
        match input.objective {
            Objective::Sft => format!("batch {} × pack {}", input.batch, input.pack),
            Objective::Preference {
                longest_row: Some(_),
                ..
            } if self.row < input.pack => format!(
                "batch {} × 2 sequences (chosen and rejected, one concatenated forward) × longest row {} (every row padded to it, under the pack {} cap)",
                input.batch, self.row, input.pack
            ),
            Objective::Preference { .. } => format!(
                "batch {} × 2 sequences (chosen and rejected, one concatenated forward) × pack {}",
                input.batch, input.pack
            ),
            Objective::Rl { completion, .. } => format!(
                "batch {} completions × completion {completion} tokens (only completions are scored)",
                input.batch
            ),
        }
    }

    /// Per-node share of a model-state term under FSDP.
    pub(super) fn shard(&self, bytes: f64) -> f64 {
        bytes / self.shards as f64
    }

    pub(super) fn shard_text(&self) -> String {
        if self.shards > 1 {
            format!(" ÷ {} Sparks (FSDP)", self.shards)
        } else {
            String::new()
        }
    }

    pub(super) fn shape_source(&self) -> String {
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
    let row = input.objective.row_tokens(input.pack);
    let tokens = input
        .batch
        .saturating_mul(row)
        .saturating_mul(input.objective.sequences_per_example());
    let sheet = Sheet {
        input,
        k,
        compute: dtype_figure(k, input.dtype).value,
        // Inputs are bounded (setup::MAX_BATCH, MAX_PACK); saturate anyway
        // so no input can wrap to a small, fitting number.
        tokens,
        row,
        logit_tokens: match input.objective {
            crate::calc::objective::Objective::Rl { completion, .. } => {
                input.batch.saturating_mul(completion)
            }
            _ => tokens,
        },
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
    terms.extend(objective::reference(&sheet, &weights));
    terms.push(activations(&sheet));
    terms.push(logits(&sheet));
    terms.extend(objective::generation(&sheet, &weights));
    if input.weight_format.is_quantized() && input.method == Method::Qlora {
        terms.push(dequantization(&sheet));
        terms.push(qlora_overhead(&sheet));
    }
    let allocated: u64 = terms.iter().map(|t| t.centi_gb).sum();
    let slack = slack(&sheet, allocated);
    let context = context(&sheet);
    let logits_term = terms.iter().find(|t| t.key == "logits").cloned();
    let reserve = logits_term.map(|l| phases::reserve(&sheet, &l));
    let host = phases::host(&sheet);
    let step = allocated
        + slack.centi_gb
        + context.centi_gb
        + reserve.as_ref().map_or(0, |r| r.centi_gb)
        + host.centi_gb;
    terms.push(slack);
    terms.push(context.clone());
    terms.extend(reserve);
    terms.push(host.clone());
    let mut load = load_peak(&sheet, &weights, &context);
    // The trainer process is in the pool while it loads, too.
    load.centi_gb += host.centi_gb;
    load.bytes += host.bytes;
    load.formula = format!(
        "{} + host {} GB = {} GB",
        load.formula
            .rsplit_once(" = ")
            .map_or(load.formula.as_str(), |(a, _)| a),
        show_centi(host.centi_gb),
        show_centi(load.centi_gb)
    );
    let rt = &input.runtime;
    let phases = vec![
        (
            Peak::Eval,
            phases::eval_peak(&sheet, &terms, &context, &host),
            rt.evaluates,
        ),
        (
            Peak::Save,
            phases::save_peak(&sheet, &terms, &weights, &context, &host),
            true,
        ),
        (
            Peak::Resume,
            phases::resume_peak(&terms, &context, &host),
            rt.resumes,
        ),
    ];
    // Context and host memory sit outside PyTorch's allocator; the step
    // adds the allocator's slack and reserve to the tensors. The other
    // moments model no slack, and a checkpoint save's copy is host memory.
    let outside = context.centi_gb + host.centi_gb;
    let reserved_step = step - outside;
    let device = |system: u64| system.saturating_sub(outside);
    let mut levels = vec![
        (
            Peak::Step,
            Levels {
                allocated,
                reserved: reserved_step,
                system: step,
            },
        ),
        (
            Peak::Load,
            Levels {
                allocated: device(load.centi_gb),
                reserved: device(load.centi_gb),
                system: load.centi_gb,
            },
        ),
    ];
    for (peak, t, _) in &phases {
        let on_device = match peak {
            Peak::Save => phases::resident_centi(&terms),
            _ => device(t.centi_gb),
        };
        levels.push((
            *peak,
            Levels {
                allocated: on_device,
                reserved: on_device,
                system: t.centi_gb,
            },
        ));
    }
    let (binding, total) = std::iter::once((Peak::Step, step))
        .chain(std::iter::once((Peak::Load, load.centi_gb)))
        .chain(
            phases
                .iter()
                .filter(|(_, _, applies)| *applies)
                .map(|(p, t, _)| (*p, t.centi_gb)),
        )
        .fold(
            (Peak::Step, 0),
            |best, (p, c)| if c > best.1 { (p, c) } else { best },
        );
    Estimate {
        terms,
        step_centi_gb: step,
        load,
        phases,
        binding,
        total_centi_gb: total,
        allocated_centi_gb: allocated,
        levels,
        trainable_params: sheet.trainable,
    }
}
