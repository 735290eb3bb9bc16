//! "will it even load?": loading needs the weights, one shard in flight and
//! the CUDA context, whatever the batch or packing, so the question is
//! answered as soon as the model and method are known.

use crate::calc::units::show_centi;
use crate::dialogue::facts::Facts;
use crate::dialogue::plan_turn::build_plan;
use crate::extract::re;
use crate::extract::slots::{Found, Slot};
use crate::knowledge::Knowledge;
use regex::Regex;
use std::sync::LazyLock;

static LOAD_ASKED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:will|would|does|do|can|could|should)\s+(?:it|this|that|the\s+(?:model|checkpoint|weights))\s+(?:even\s+|at\s+least\s+|actually\s+)?load\b|\b(?:load|loading)\s+(?:ok|okay|fine|at\s+all)\s*\?",
    )
});

/// The load-time peak against the budget, when the words ask whether the
/// model loads and the model and method are known.
pub fn answer(words: &str, facts: &Facts, k: &Knowledge) -> Option<String> {
    if !LOAD_ASKED.is_match(words) {
        return None;
    }
    facts.model.as_ref()?;
    facts.method.as_ref()?;
    // Loading sizes nothing by the batch or packing: any value prices it.
    let mut filled = Vec::new();
    if facts.batch.is_none() {
        filled.push(Found {
            slot: Slot::Batch(1),
            words: "any batch".into(),
        });
    }
    if facts.pack.is_none() {
        filled.push(Found {
            slot: Slot::Pack(1024),
            words: "any packing".into(),
        });
    }
    let priced = crate::dialogue::whatif::hypothetical(facts, &filled);
    let (plan, _) = build_plan(&priced, k)?;
    let load = &plan.estimate.load;
    let budget = plan.budget.centi_gb;
    let verdict = if load.centi_gb <= budget {
        "it loads"
    } else {
        "it does not load"
    };
    let mut text = format!(
        "Loading {} {}: {}, against the {} GB budget, so **{verdict}**. The load does not depend on the batch or the packing.",
        plan.input.model.display,
        plan.input.method.label(),
        load.formula,
        show_centi(budget),
    );
    if !filled.is_empty() {
        text.push_str(" Whether the training step fits does, so that verdict waits for them.");
    }
    Some(text)
}
