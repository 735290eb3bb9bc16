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
}

impl SparkOutcome {
    /// Signed: negative when headroom is under the measurement.
    pub fn error(&self) -> f64 {
        (self.estimate_gb - self.measured_gb) / self.measured_gb
    }
}

pub fn run(k: &Knowledge) -> Result<Vec<SparkOutcome>, String> {
    let tables = parse_tables(SPARK_MD);
    let table = tables.first().ok_or("validation/spark.md has no table")?;
    table
        .rows()
        .map(|row| {
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
            };
            let est = estimate(&input, k);
            let measured = (number("measured_gib")? - number("baseline_gib")?) * GIB / 1e9;
            Ok(SparkOutcome {
                id,
                batch: input.batch,
                seq: input.pack,
                measured_gb: measured,
                estimate_gb: est.step_centi_gb as f64 / 100.0,
            })
        })
        .collect()
}

pub fn report(outcomes: &[SparkOutcome]) -> String {
    let mut md = String::from(
        "On a DGX Spark (system-level, validation/spark.md; two constants fitted to these rows):\n\n| case | batch × seq | measured less baseline GB | headroom step peak GB | error |\n|---|---|---|---|---|\n",
    );
    for o in outcomes {
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
    md
}
