//! The estimator against fine-tuning memory measured on a DGX Spark itself:
//! system-level figures (`MemTotal − MemAvailable`), compared with the
//! system-level step peak after the OS baseline (validation/spark.md).

use crate::calc::estimate::estimate;
use crate::calc::model_spec::from_catalog;
use crate::calc::runtime::Runtime;
use crate::calc::setup::{
    Attention, Dtype, LoraTargets, Loss, Method, Optimizer, PlanInput, Precision, Sharding,
};
use crate::calc::units::GIB;
use crate::knowledge::Knowledge;
use crate::knowledge::table::parse_tables;
use std::fmt::Write;

const SPARK_MD: &str = include_str!("../validation/spark.md");

#[derive(Debug, Clone)]
pub struct SparkOutcome {
    pub id: String,
    pub batch: u64,
    pub seq: u64,
    /// Measured use less the OS baseline, GB.
    pub measured_gb: f64,
    /// headroom's system-level step peak, GB.
    pub estimate_gb: f64,
    /// Constants were fitted to this row (the SFT table) or not (held out).
    pub fitted: bool,
}

impl SparkOutcome {
    /// Signed: negative when headroom is under the measurement.
    pub fn error(&self) -> f64 {
        (self.estimate_gb - self.measured_gb) / self.measured_gb
    }
}

pub fn run(k: &Knowledge) -> Result<Vec<SparkOutcome>, String> {
    let tables = parse_tables(SPARK_MD);
    if tables.is_empty() {
        return Err("validation/spark.md has no table".into());
    }
    // The first table is the one the constants were fitted to; every later
    // one is held out.
    tables
        .iter()
        .enumerate()
        .flat_map(|(i, t)| t.rows().map(move |row| (i == 0, row)))
        .map(|(fitted, row)| {
            let id = row.get("case").to_string();
            let bad = |what: &str| format!("validation/spark.md {id}: bad {what}");
            let model = k.model(row.get("model")).ok_or_else(|| bad("model"))?;
            let number = |name: &str| -> Result<f64, String> {
                row.get(name).parse().map_err(|_| bad(name))
            };
            let method = Method::parse(row.get("method")).ok_or_else(|| bad("method"))?;
            let input = PlanInput {
                model: from_catalog(model),
                method,
                dtype: Dtype::Bf16,
                weight_format: Dtype::Bf16,
                optimizer: Optimizer::parse(row.get("optimizer"))
                    .ok_or_else(|| bad("optimizer"))?,
                batch: number("batch")? as u64,
                pack: number("seq")? as u64,
                grad_checkpointing: row.get("ckpt") == "on",
                lora_rank: 16,
                lora_targets: LoraTargets::AllLinear,
                lora_dropout: false,
                precision: Precision::parse(row.get("precision"))
                    .ok_or_else(|| bad("precision"))?,
                attention: Attention::parse(row.get("attention"))
                    .ok_or_else(|| bad("attention"))?,
                loss: Loss::Upcast,
                nodes: 1,
                sharding: Sharding::Ddp,
                runtime: Runtime {
                    packed: row.get("packed") == "yes",
                    ..Runtime::default()
                },
                objective: objective(row.get("objective"), row.get("reference"))
                    .ok_or_else(|| bad("objective"))?,
            };
            let est = estimate(&input, k);
            let measured = (number("measured_gib")? - number("baseline_gib")?) * GIB / 1e9;
            Ok(SparkOutcome {
                id,
                batch: input.batch,
                seq: input.pack,
                measured_gb: measured,
                estimate_gb: est.step_centi_gb as f64 / 100.0,
                fitted,
            })
        })
        .collect()
}

/// A row's objective: SFT when the table has no such column.
fn objective(kind: &str, reference: &str) -> Option<crate::calc::objective::Objective> {
    use crate::calc::objective::{Objective, Preference, Reference};
    if kind.is_empty() || kind == "sft" {
        return Some(Objective::Sft);
    }
    Some(Objective::Preference {
        method: Preference::parse(kind)?,
        reference: Reference::parse(reference).unwrap_or(Reference::Model),
        // The profile gives only the cap: rows are priced at it.
        longest_row: None,
    })
}

pub fn report(outcomes: &[SparkOutcome]) -> String {
    let mut md = String::new();
    for (fitted, title) in [
        (
            true,
            "On a DGX Spark, in sample (system-level, validation/spark.md; two constants fitted to these rows):",
        ),
        (
            false,
            "On a DGX Spark, held out (the DPO rows; nothing fitted to them):",
        ),
    ] {
        let rows: Vec<&SparkOutcome> = outcomes.iter().filter(|o| o.fitted == fitted).collect();
        if rows.is_empty() {
            continue;
        }
        let _ = writeln!(
            md,
            "{title}\n\n| case | batch × seq | measured less baseline GB | headroom step peak GB | error |\n|---|---|---|---|---|"
        );
        for o in rows {
            let _ = writeln!(
                md,
                "| {} | {} × {} | {:.2} | {:.2} | {:+.1} % |",
                o.id,
                o.batch,
                o.seq,
                o.measured_gb,
                o.estimate_gb,
                o.error() * 100.0
            );
        }
        md.push('\n');
    }
    md
}
