//! A plan as one JSON object for scripts (`headroom plan --json`) and for
//! the transcript's record of the facts behind a reply.

use crate::calc::budget::BudgetBasis;
use crate::calc::plan::Plan;
use serde_json::{Map, Value, json};

fn gb(centi: u64) -> Value {
    // Hundredths are exact in decimal; format then parse so JSON shows 51.23,
    // not 51.230000000000004.
    let text = crate::calc::units::show_centi(centi);
    text.parse::<f64>().map(Value::from).unwrap_or(Value::Null)
}

pub fn plan_json(plan: &Plan) -> Value {
    let mut terms = Map::new();
    for key in ["weights", "optimizer", "gradients", "activations"] {
        terms.insert(format!("{key}_gb"), gb(plan.estimate.centi(key)));
    }
    for t in &plan.estimate.terms {
        terms.insert(format!("{}_gb", t.key), gb(t.centi_gb));
    }
    let detail: Vec<Value> = plan
        .estimate
        .terms
        .iter()
        .map(|t| {
            json!({
                "key": t.key,
                "label": t.label,
                "gb": gb(t.centi_gb),
                "bytes": t.bytes,
                "formula": t.formula,
                "source": t.source,
            })
        })
        .collect();
    let pasted = plan.budget.basis == BudgetBasis::Pasted;
    json!({
        "model": plan.input.model.display,
        "params": plan.input.model.params,
        "trainable_params": plan.estimate.trainable_params,
        "method": plan.input.method.key(),
        "dtype": plan.input.dtype.key(),
        "weight_format": plan.input.weight_format.key(),
        "optimizer": plan.input.optimizer.key(),
        "batch": plan.input.batch,
        "pack": plan.input.pack,
        "grad_checkpointing": plan.input.grad_checkpointing,
        "lora_rank": plan.input.method.uses_adapter().then_some(plan.input.lora_rank),
        "lora_targets": plan.input.method.uses_adapter().then(|| plan.input.lora_targets.label()),
        "shape_basis": plan.input.model.basis,
        "total_gb": gb(plan.estimate.total_centi_gb),
        "step_peak_gb": gb(plan.estimate.step_centi_gb),
        "load_peak_gb": gb(plan.estimate.load.centi_gb),
        "load_peak_formula": plan.estimate.load.formula,
        "binding_peak": plan.estimate.binding,
        "now": crate::calc::budget::now(plan.estimate.total_centi_gb, &plan.budget),
        "free_now_gb": plan.budget.free_now_centi_gb.map(gb),
        "page_cache_gb": plan.budget.page_cache_centi_gb.map(gb),
        "phases": plan.estimate.phases.iter().map(|(p, t, applies)| json!({
            "phase": p, "gb": gb(t.centi_gb), "applies": applies, "formula": t.formula, "source": t.source,
        })).collect::<Vec<_>>(),
        "allocated_gb": gb(plan.estimate.allocated_centi_gb),
        // Each moment at the three levels a measurement can mean; the
        // verdict uses the system level.
        "levels": plan.estimate.levels.iter().map(|(p, l)| json!({
            "phase": p,
            "allocated_peak_gb": gb(l.allocated),
            "reserved_peak_gb": gb(l.reserved),
            "system_peak_gb": gb(l.system),
        })).collect::<Vec<_>>(),
        "allocated_peak_gb": plan.estimate.levels_of(plan.estimate.binding).map(|l| gb(l.allocated)),
        "reserved_peak_gb": plan.estimate.levels_of(plan.estimate.binding).map(|l| gb(l.reserved)),
        "system_peak_gb": plan.estimate.levels_of(plan.estimate.binding).map(|l| gb(l.system)),
        "precision": plan.input.precision.key(),
        "attention": plan.input.attention.key(),
        "loss": plan.input.loss.key(),
        "objective": plan.input.objective,
        "fused_loss": plan.input.loss == crate::calc::setup::Loss::Fused,
        "lora_dropout": plan.input.lora_dropout,
        "nodes": plan.input.nodes,
        "sharding": plan.input.sharding.key(),
        "per_node": plan.input.nodes > 1,
        "notes": plan.notes,
        "solution": plan.solution.as_ref().map(|s| json!({
            "solve_for": s.solve_for,
            "fits": s.fits,
            "fits_total_gb": s.fits_total_centi_gb.map(gb),
            "within_budget": s.within_budget,
            "within_budget_total_gb": s.within_budget_total_centi_gb.map(gb),
            "budget_gb": gb(s.budget_centi_gb),
            "tight_line_gb": gb(s.threshold_centi_gb),
        })),
        "budget_gb": if pasted { gb(plan.budget.centi_gb) } else { Value::Null },
        "budget_basis": plan.budget.basis,
        "verdict_budget_gb": gb(plan.budget.centi_gb),
        "budget_explanation": plan.budget.explanation,
        "verdict": plan.judgement.verdict.key(),
        "margin_gb": plan.judgement.margin_centi_gb as f64 / 100.0,
        "terms": terms,
        "term_details": detail,
        "anchors": plan.anchors.iter().map(|a| json!({
            "anchor": a.anchor,
            "rule": a.rule,
            "figure_gb": a.figure_gb,
            "worksheet_gb": gb(a.worksheet_centi_gb),
            "setup": a.setup,
            "source": a.source,
        })).collect::<Vec<_>>(),
        "alternatives": plan.alternatives.iter().map(|a| json!({
            "change": a.change,
            "total_gb": gb(a.total_centi_gb),
            "verdict": a.verdict.key(),
        })).collect::<Vec<_>>(),
        "assumptions": plan.assumptions.iter().map(|a| a.full.as_str()).collect::<Vec<_>>(),
        "note": "planning math, not a guarantee",
    })
}
