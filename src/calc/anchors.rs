//! The seed's known-working anchors, recomputed with the same worksheet so
//! the owner sees them side by side with their own plan.

use crate::calc::estimate::estimate;
use crate::calc::model_spec::from_catalog;
use crate::calc::setup::{
    Attention, Dtype, LoraTargets, Loss, Method, Optimizer, PlanInput, Precision, Sharding,
};
use crate::knowledge::{Anchor, Knowledge};
use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AnchorComparison {
    pub anchor: String,
    pub rule: String,
    /// The figure the anchor states, when it states one.
    pub figure_gb: Option<f64>,
    /// Our worksheet total for the anchor's set-up, hundredths of a GB.
    pub worksheet_centi_gb: u64,
    pub setup: String,
    pub source: String,
    /// The worksheet's weights term alone for the anchor's set-up.
    pub weights_centi_gb: u64,
    /// The packing length the anchor was stated at.
    pub pack: u64,
    pub method: String,
    /// The anchor model's parameter count, to match runs of its size.
    pub params: u64,
    /// The set-up it was priced with, to name where a run differs.
    pub input: PlanInput,
}

/// The anchor's set-up as a plan input (batch 1, checkpointing on, rank 16
/// on all linear layers: the common recipe defaults).
pub fn anchor_input(anchor: &Anchor, k: &Knowledge) -> Option<PlanInput> {
    let model = k.model(&anchor.model)?;
    let weight_format = Dtype::parse(&anchor.weight_dtype)?;
    let method = Method::parse(&anchor.method)?;
    Some(PlanInput {
        model: from_catalog(model),
        method,
        dtype: Dtype::Bf16,
        weight_format,
        optimizer: Optimizer::parse(&anchor.optimizer)?,
        batch: 1,
        pack: anchor.pack,
        grad_checkpointing: true,
        lora_rank: 16,
        lora_targets: LoraTargets::parse(&anchor.lora_targets).unwrap_or(LoraTargets::AllLinear),
        lora_dropout: true,
        precision: Precision::Standard,
        attention: Attention::Sdpa,
        loss: Loss::Upcast,
        nodes: 1,
        sharding: Sharding::Ddp,
        runtime: crate::calc::runtime::Runtime::default(),
        objective: crate::calc::objective::Objective::Sft,
    })
}

fn compare(anchor: &Anchor, k: &Knowledge) -> Option<AnchorComparison> {
    let input = anchor_input(anchor, k)?;
    let est = estimate(&input, k);
    Some(AnchorComparison {
        anchor: anchor.name.clone(),
        rule: anchor.rule.clone(),
        figure_gb: anchor.figure_gb,
        worksheet_centi_gb: est.total_centi_gb,
        weights_centi_gb: est.centi("weights"),
        pack: anchor.pack,
        method: anchor.method.clone(),
        params: input.model.params,
        setup: format!(
            "{} {}, {} weights, {}, batch 1, pack {}, checkpointing on{}",
            input.model.display,
            input.method.label(),
            input.weight_format.key(),
            input.optimizer.key(),
            input.pack,
            if input.method.uses_adapter() {
                format!(", rank 16 on {}", input.lora_targets.label())
            } else {
                String::new()
            }
        ),
        source: format!("{} ({})", anchor.cite, anchor.cite.source),
        input,
    })
}

/// The `n` anchors closest to the owner's run: same method first, then the
/// nearest model size.
pub fn closest(input: &PlanInput, n: usize, k: &Knowledge) -> Vec<AnchorComparison> {
    let size = (input.model.params as f64).ln();
    let mut scored: Vec<(f64, &Anchor)> = k
        .anchors
        .iter()
        .filter_map(|a| {
            let m = k.model(&a.model)?;
            let method_gap = if Method::parse(&a.method) == Some(input.method) {
                0.0
            } else {
                10.0
            };
            Some((
                method_gap + ((m.arch.total_params() as f64).ln() - size).abs(),
                a,
            ))
        })
        .collect();
    scored.sort_by(|a, b| a.0.total_cmp(&b.0));
    scored
        .into_iter()
        .take(n)
        .filter_map(|(_, a)| compare(a, k))
        .collect()
}
