//! After all three rungs: a smaller model of the same family whose plan
//! fits, or two Sparks (DDP or FSDP, never tensor parallel), with figures.

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

/// After all three rungs: a smaller model of the same family, or two Sparks.
pub fn after_ladder(session: &Session, k: &Knowledge) -> String {
    let facts = &session.facts;
    let mut md = String::from("The ladder is done and the OOM persists. What is left:\n\n");
    match family_of(facts, k) {
        Some((family, params)) => {
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
            match best {
                Some((name, centi)) => {
                    let _ = writeln!(
                        md,
                        "- a smaller model: {name} is the largest {family} model in the catalog whose plan fits ({} GB with your settings);",
                        show_centi(centi)
                    );
                }
                None => {
                    let _ = writeln!(
                        md,
                        "- a smaller model: no smaller {family} model in the catalog fits with your settings;"
                    );
                }
            }
        }
        None => md.push_str("- a smaller model (name it, and I will plan it);\n"),
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
    md
}
