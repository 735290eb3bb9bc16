//! "Why is your number not 40 GB? They say 70B QLoRA is about 40 GB": a
//! figure someone else gives, set beside the plan's own peak, with the
//! seed's anchor for this size and method when there is one. Nothing in
//! the run changes.

use crate::calc::units::show_centi;
use crate::dialogue::facts::Facts;
use crate::dialogue::plan_turn::{build_plan, in_pool};
use crate::extract::re;
use crate::knowledge::Knowledge;
use regex::Regex;
use std::sync::LazyLock;

/// A figure in GB that the words set against the plan's: "why not 40 GB",
/// "how come it's not 40 GB", "they say … about 40 GB", "people report 40 GB".
static OTHER_FIGURE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:why|how\s+come)\b[^.?!]*?\b(?:not|only|so\s+(?:much|high|big)|more\s+than|higher\s+than)\b[^.?!]*?(\d+(?:\.\d+)?)\s*(?:gb|gib|g)\b|\b(?:they|people|others|forums?|reddit|nvidia|someone|docs?|blogs?|article|everyone)\b[^.?!]*?\b(?:say|says|said|report\w*|claim\w*|got|get|see|saw|measur\w*|quote\w*)\b[^.?!]*?(\d+(?:\.\d+)?)\s*(?:gb|gib|g)\b",
    )
});

/// The plan's peak beside the figure the owner read elsewhere.
pub fn answer(words: &str, facts: &Facts, held: &[(String, u64)], k: &Knowledge) -> Option<String> {
    let c = OTHER_FIGURE.captures(words)?;
    let said = c.get(1).or(c.get(2))?.as_str();
    let (plan, _) = build_plan(facts, k)?;
    let plan = in_pool(plan, held, k);
    let i = &plan.input;
    let mut text = format!(
        "My {} GB is the whole peak of your run as planned: {} {}, batch {}, pack {}, with the weights, the adapters or states, the activations, the logits, the allocator's reserve and the CUDA context together. A figure like {said} GB quoted for the model size alone usually counts less of that, or a smaller set-up.",
        show_centi(plan.estimate.total_centi_gb),
        i.model.display,
        i.method.label(),
        i.batch,
        i.pack,
    );
    // The seed's anchor for this size and method, as the plan chose it.
    let params = i.model.params as f64;
    if let Some(a) = plan.anchors.iter().find(|a| {
        a.method.eq_ignore_ascii_case(i.method.key())
            && a.params > 0
            && (0.75..=1.34).contains(&(params / a.params as f64))
    }) {
        text.push_str(&format!(
            " Seed anchor \"{}\": the weights alone are {} GB here, and its own set-up priced by this worksheet is {} GB, yours {} GB.",
            a.rule,
            show_centi(a.weights_centi_gb),
            show_centi(a.worksheet_centi_gb),
            show_centi(plan.estimate.total_centi_gb)
        ));
    }
    text.push_str(" \"full plan\" lists every term.");
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_set_against_the_plan() {
        for t in [
            "Why your number is not 40 GB? In the NVIDIA forum they say 70B QLoRA is about 40 GB.",
            "how come it's not 40gb like everyone says",
            "people on reddit report 40 GB for this",
        ] {
            assert!(OTHER_FIGURE.is_match(t), "{t}");
        }
        for t in [
            "it has 40 GB free",
            "batch 4, 40 GB budget?",
            "why did it OOM at step 40",
        ] {
            assert!(!OTHER_FIGURE.is_match(t), "{t}");
        }
    }
}
