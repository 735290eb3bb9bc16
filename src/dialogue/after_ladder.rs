//! After all three rungs: the same model with one change the ladder does not
//! make, a smaller model of the same family whose plan fits, or two Sparks
//! (DDP or FSDP, never tensor parallel), each with its figure.

use crate::calc::units::show_centi;
use crate::dialogue::facts::{Facts, Known, ModelChoice};
use crate::dialogue::plan_turn::build_plan;
use crate::dialogue::session::Session;
use crate::knowledge::Knowledge;
use std::fmt::Write;

fn family_of(facts: &Facts, k: &Knowledge) -> Option<(String, u64)> {
    match &facts.model.as_ref()?.value {
        ModelChoice::Catalog(name) => {
            let m = k.model(name)?;
            Some((m.family.clone(), m.arch.total_params()))
        }
        _ => None,
    }
}

/// The same run with one more change, planned: "batch 1: 80.11 GB (fits)".
fn one_change(facts: &Facts, k: &Knowledge) -> Vec<String> {
    changes(facts)
        .into_iter()
        .filter_map(|(label, f)| {
            let (plan, _) = build_plan(&f, k)?;
            Some(format!(
                "- the same run with {label}: {} GB ({});",
                show_centi(plan.estimate.total_centi_gb),
                plan.judgement.verdict.label()
            ))
        })
        .collect()
}

/// The changes that fit, with their peaks, for a plan that does not: one
/// more change first, then the largest smaller model of the family.
pub fn fitting_changes(facts: &Facts, k: &Knowledge) -> Vec<(String, u64)> {
    let fits = |f: &Facts| {
        build_plan(f, k)
            .filter(|(p, _)| p.judgement.verdict == crate::calc::verdict::Verdict::Fits)
            .map(|(p, _)| p.estimate.total_centi_gb)
    };
    let mut out: Vec<(String, u64)> = changes(facts)
        .into_iter()
        .filter_map(|(label, f)| fits(&f).map(|c| (label, c)))
        .collect();
    if let Some((name, centi)) = smaller_model(facts, k) {
        out.push((name, centi));
    }
    out
}

/// The largest model of the run's family, smaller than it, whose plan fits.
fn smaller_model(facts: &Facts, k: &Knowledge) -> Option<(String, u64)> {
    let (family, params) = family_of(facts, k)?;
    let mut best: Option<(String, u64)> = None;
    for m in k
        .models
        .iter()
        .filter(|m| m.family == family && m.arch.total_params() < params)
    {
        let mut f = facts.clone();
        if let Some(model) = &mut f.model {
            model.value = ModelChoice::Catalog(m.name.clone());
        }
        if let Some((plan, _)) = build_plan(&f, k)
            && plan.judgement.verdict == crate::calc::verdict::Verdict::Fits
            && best.as_ref().is_none_or(|(n, _)| {
                k.model(n)
                    .is_some_and(|b| b.arch.total_params() < m.arch.total_params())
            })
        {
            best = Some((m.name.clone(), plan.estimate.total_centi_gb));
        }
    }
    best
}

/// Each one-slot change the ladder does not make, as the facts it gives.
fn changes(facts: &Facts) -> Vec<(String, Facts)> {
    use crate::calc::setup::{Method, Optimizer};
    use crate::extract::slots::{Found, Slot};
    // Each option is a what-if of one slot, applied the way a typed one is.
    let option = |label: &str, slot: Slot, words: &str| {
        let found = Found {
            slot,
            words: words.to_string(),
        };
        (
            label.to_string(),
            crate::dialogue::whatif::hypothetical(facts, &[found]),
        )
    };
    let mut options: Vec<(String, Facts)> = Vec::new();
    if facts.batch.as_ref().is_some_and(|b| b.value > 1) {
        options.push(option("batch 1", Slot::Batch(1), "batch 1"));
    }
    let method = facts.method.as_ref().map(|m| m.value);
    let optimizer = facts.optimizer.as_ref().map(|o| o.value);
    if method == Some(Method::Full)
        && !matches!(
            optimizer,
            Some(Optimizer::AdamW8bit | Optimizer::PagedAdamW8bit | Optimizer::Adafactor)
        )
    {
        options.push(option(
            "an 8-bit optimizer (adamw_8bit)",
            Slot::Optimizer(Optimizer::AdamW8bit),
            "adamw_8bit",
        ));
    }
    // A 16-bit base that does not fit: its 4-bit form is the next change.
    if matches!(method, Some(Method::Lora | Method::Full)) {
        options.push(option(
            "QLoRA (a 4-bit base)",
            Slot::Method(Method::Qlora),
            "QLoRA",
        ));
    }
    if method == Some(Method::Full) {
        options.push(option(
            "LoRA instead of a full fine-tune",
            Slot::Method(Method::Lora),
            "LoRA",
        ));
    }
    if facts.checkpointing.as_ref().is_some_and(|c| !c.value) {
        options.push(option(
            "gradient checkpointing on",
            Slot::GradCheckpointing(true),
            "gradient checkpointing on",
        ));
    }
    options
}

/// After all three rungs: one more change, a smaller model, or two Sparks.
pub fn after_ladder(session: &Session, k: &Knowledge) -> String {
    let facts = &session.facts;
    // Every step skipped (weights over the budget): none was tried.
    let none_applies = session.ladder.as_ref().is_some_and(|l| {
        l.own_rungs()
            .all(|(_, s)| matches!(s, crate::dialogue::ladder::RungStatus::Skipped(_)))
    });
    let lead = if none_applies {
        "No step of the ladder can help this run. What can, each planned on its own"
    } else {
        "The ladder is done and the OOM persists. What is left, each planned on its own"
    };
    let mut md = format!("{lead} (say \"what if …\" to see one beside your run):\n\n");
    for line in alternatives(facts, k) {
        let _ = writeln!(md, "{line}");
    }
    md
}

/// What else could run, each planned on its own: one more change, the
/// largest smaller model of the family that fits, or two Sparks.
pub fn alternatives(facts: &Facts, k: &Knowledge) -> Vec<String> {
    let mut md = String::new();
    for line in one_change(facts, k) {
        let _ = writeln!(md, "{line}");
    }
    match (family_of(facts, k), smaller_model(facts, k)) {
        (Some((family, _)), Some((name, centi))) => {
            let _ = writeln!(
                md,
                "- a smaller model: {name} is the largest {family} model in the catalog whose plan fits ({} GB with your settings);",
                show_centi(centi)
            );
        }
        (Some((family, _)), None) => {
            let _ = writeln!(
                md,
                "- a smaller model: no smaller {family} model in the catalog fits with your settings;"
            );
        }
        (None, _) => md.push_str("- a smaller model (name it, and I will plan it);\n"),
    }
    let mut two = facts.clone();
    let at = jiff::Timestamp::UNIX_EPOCH;
    two.nodes = Some(Known {
        value: 2,
        words: "two Sparks".into(),
        at,
    });
    two.sharding = Some(Known {
        value: crate::calc::setup::Sharding::Fsdp,
        words: "fsdp".into(),
        at,
    });
    let fsdp = build_plan(&two, k).map(|(p, _)| p.estimate.total_centi_gb);
    two.sharding = Some(Known {
        value: crate::calc::setup::Sharding::Ddp,
        words: "ddp".into(),
        at,
    });
    let ddp = build_plan(&two, k).map(|(p, _)| p.estimate.total_centi_gb);
    if let (Some(f), Some(d)) = (fsdp, ddp) {
        let _ = writeln!(
            md,
            "- two Sparks: with FSDP each Spark needs {} GB, with DDP {} GB each. DDP or FSDP only, never tensor parallel.",
            show_centi(f),
            show_centi(d)
        );
    }
    md.lines().map(str::to_string).collect()
}
