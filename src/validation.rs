//! The estimator measured against published training runs.
//!
//! `validation/cases.md` maps each usable row of `validation/measurements.csv`
//! to headroom's inputs; this module estimates every case, compares like with
//! like (allocated vs reserved counters) and reports the absolute percentage
//! errors beside two common rules of thumb.

use crate::calc::estimate::estimate;
use crate::calc::model_spec::from_catalog;
use crate::calc::setup::{
    Attention, Dtype, LoraTargets, Loss, Method, Optimizer, PlanInput, Precision, Sharding,
};
use crate::knowledge::Knowledge;
use crate::knowledge::table::parse_tables;
use std::fmt::Write;

const CASES_MD: &str = include_str!("../validation/cases.md");

/// The cases the one empirical constant (QLoRA saved tensors, see
/// knowledge/worksheet.md) was fitted on; every other case is held out.
pub const FIT_CASES: [&str; 8] = [
    "M003", "M004", "M008", "M009", "M013", "M014", "M018", "M019",
];

#[derive(Debug, Clone)]
pub struct Case {
    pub id: String,
    pub model: String,
    pub input: PlanInput,
    /// "allocated" or "reserved".
    pub counter: String,
    pub measured_gb: f64,
    pub source: String,
}

#[derive(Debug, Clone)]
pub struct Outcome {
    pub case: Case,
    pub estimate_gb: f64,
    pub weights_only_gb: f64,
    pub rule_of_thumb_gb: f64,
}

impl Outcome {
    pub fn error(&self) -> f64 {
        ape(self.estimate_gb, self.case.measured_gb)
    }
}

fn ape(estimate: f64, measured: f64) -> f64 {
    (estimate - measured).abs() / measured
}

fn field<'a>(row: &'a crate::knowledge::table::Row<'_>, name: &str) -> &'a str {
    row.get(name)
}

/// Every case in validation/cases.md, or what is wrong with a row.
pub fn cases(k: &Knowledge) -> Result<Vec<Case>, String> {
    let tables = parse_tables(CASES_MD);
    let table = tables.first().ok_or("validation/cases.md has no table")?;
    table
        .rows()
        .map(|row| {
            let id = field(&row, "case").to_string();
            let bad = |what: &str| format!("validation/cases.md {id}: bad {what}");
            let model = k
                .model(field(&row, "model"))
                .ok_or_else(|| bad("model (not in knowledge/models.md)"))?;
            let method = Method::parse(field(&row, "method")).ok_or_else(|| bad("method"))?;
            let weights = Dtype::parse(field(&row, "weights")).ok_or_else(|| bad("weights"))?;
            let number = |name: &str| -> Result<u64, String> {
                field(&row, name).parse().map_err(|_| bad(name))
            };
            let input = PlanInput {
                model: from_catalog(model),
                method,
                dtype: Dtype::Bf16,
                weight_format: weights,
                optimizer: Optimizer::parse(field(&row, "optimizer"))
                    .ok_or_else(|| bad("optimizer"))?,
                batch: number("batch")?,
                pack: number("seq")?,
                grad_checkpointing: field(&row, "ckpt") == "on",
                lora_rank: if method.uses_adapter() {
                    number("rank")?
                } else {
                    0
                },
                lora_targets: if method.uses_adapter() {
                    LoraTargets::parse(field(&row, "targets")).ok_or_else(|| bad("targets"))?
                } else {
                    LoraTargets::AllLinear
                },
                lora_dropout: field(&row, "dropout") == "on",
                precision: Precision::parse(field(&row, "precision"))
                    .ok_or_else(|| bad("precision"))?,
                attention: Attention::Sdpa,
                loss: Loss::parse(field(&row, "loss")).ok_or_else(|| bad("loss"))?,
                nodes: 1,
                sharding: Sharding::Ddp,
                runtime: crate::calc::runtime::Runtime::default(),
                objective: crate::calc::objective::Objective::Sft,
            };
            Ok(Case {
                model: model.name.clone(),
                counter: field(&row, "counter").to_string(),
                measured_gb: field(&row, "measured_gb")
                    .parse()
                    .map_err(|_| bad("measured_gb"))?,
                source: field(&row, "source").to_string(),
                id,
                input,
            })
        })
        .collect()
}

/// What a weights-only calculator says: parameters × bytes of the format.
fn weights_only(input: &PlanInput, k: &Knowledge) -> f64 {
    let format = if input.precision == Precision::Mixed {
        Dtype::Fp32
    } else {
        input.weight_format
    };
    let bytes = k.dtype(format.key()).map_or(2.0, |f| f.value);
    input.model.params as f64 * bytes / 1e9
}

/// The common per-parameter rules: 16 B/param for a full fine-tune (ZeRO
/// paper's mixed-precision Adam), LLaMA-Factory's 2 GB per billion for
/// 16-bit LoRA and 0.5 GB per billion for 4-bit QLoRA.
fn rule_of_thumb(input: &PlanInput) -> f64 {
    let per_param = match input.method {
        Method::Full => 16.0,
        Method::Lora => 2.0,
        Method::Qlora => 0.5,
    };
    input.model.params as f64 * per_param / 1e9
}

pub fn run(k: &Knowledge) -> Result<Vec<Outcome>, String> {
    Ok(cases(k)?
        .into_iter()
        .map(|case| {
            let est = estimate(&case.input, k);
            let slack = est.term("slack").map_or(0, |t| t.centi_gb);
            let centi = if case.counter == "reserved" {
                est.allocated_centi_gb + slack
            } else {
                est.allocated_centi_gb
            };
            Outcome {
                estimate_gb: centi as f64 / 100.0,
                weights_only_gb: weights_only(&case.input, k),
                rule_of_thumb_gb: rule_of_thumb(&case.input),
                case,
            }
        })
        .collect())
}

/// Nearest-rank percentile of absolute errors, as a fraction.
pub fn percentile(errors: &[f64], q: f64) -> f64 {
    let mut sorted = errors.to_vec();
    sorted.sort_by(f64::total_cmp);
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

#[derive(Debug, Clone, Copy)]
pub struct Summary {
    pub median: f64,
    pub p90: f64,
}

pub fn summarize(errors: &[f64]) -> Summary {
    Summary {
        median: percentile(errors, 0.5),
        p90: percentile(errors, 0.9),
    }
}

/// The error summaries of the worksheet, of its held-out cases, and of the
/// two rules of thumb.
pub struct Summaries {
    pub ours: Summary,
    pub held_out: Summary,
    pub weights: Summary,
    pub rule: Summary,
}

pub fn summaries(outcomes: &[Outcome]) -> Summaries {
    let of = |f: &dyn Fn(&Outcome) -> f64, held_out_only: bool| {
        summarize(
            &outcomes
                .iter()
                .filter(|o| !held_out_only || !FIT_CASES.contains(&o.case.id.as_str()))
                .map(f)
                .collect::<Vec<_>>(),
        )
    };
    Summaries {
        ours: of(&Outcome::error, false),
        held_out: of(&Outcome::error, true),
        weights: of(&|o| ape(o.weights_only_gb, o.case.measured_gb), false),
        rule: of(&|o| ape(o.rule_of_thumb_gb, o.case.measured_gb), false),
    }
}

pub fn report(outcomes: &[Outcome]) -> String {
    let mut md = String::from(
        "| case | model | method | batch × seq | counter | measured GB | headroom GB | error | weights-only GB | error | rule of thumb GB | error |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for o in outcomes {
        let c = &o.case;
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} × {} | {} | {:.2} | {:.2} | {:.1} % | {:.2} | {:.1} % | {:.2} | {:.1} % |",
            c.id,
            c.model,
            c.input.method.label(),
            c.input.batch,
            c.input.pack,
            c.counter,
            c.measured_gb,
            o.estimate_gb,
            o.error() * 100.0,
            o.weights_only_gb,
            ape(o.weights_only_gb, c.measured_gb) * 100.0,
            o.rule_of_thumb_gb,
            ape(o.rule_of_thumb_gb, c.measured_gb) * 100.0,
        );
    }
    let Summaries {
        ours,
        held_out,
        weights,
        rule,
    } = summaries(outcomes);
    let _ = write!(
        md,
        "\n{} cases. Absolute percentage error, median / p90: **headroom {:.1} % / {:.1} %** (held out from the QLoRA fit, {} cases: {:.1} % / {:.1} %); weights-only {:.1} % / {:.1} %; rule of thumb {:.1} % / {:.1} %.\n",
        outcomes.len(),
        ours.median * 100.0,
        ours.p90 * 100.0,
        outcomes.len() - FIT_CASES.len(),
        held_out.median * 100.0,
        held_out.p90 * 100.0,
        weights.median * 100.0,
        weights.p90 * 100.0,
        rule.median * 100.0,
        rule.p90 * 100.0,
    );
    md
}
