//! "Which one should I use?" while a what-if stands beside the run: the
//! two by memory alone, with their margins. The choice stays the owner's;
//! headroom does not judge quality and changes nothing.

use crate::calc::units::{show_centi, show_centi_delta};
use crate::dialogue::plan_turn::pooled_plan;
use crate::dialogue::session::Session;
use crate::dialogue::whatif::{hypothetical, run_title};
use crate::knowledge::Knowledge;
use regex::Regex;
use std::sync::LazyLock;

static WHICH: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(?i)\bwhich (?:one|of (?:the|them|these|those)(?: two)?|option|way|is better|would you (?:pick|choose|take|use|recommend))\b|\bwhat (?:would|do) you (?:recommend|suggest|pick|choose)\b",
    )
});

/// The comparison, or `None` when the words do not ask or nothing is open.
pub fn which_answer(words: &str, session: &Session, k: &Knowledge) -> Option<String> {
    if !WHICH.is_match(words) {
        return None;
    }
    let what_if = session.what_if.as_ref()?;
    let (run, _) = pooled_plan(session, &session.facts, k)?;
    let (alt, _) = pooled_plan(session, &hypothetical(&session.facts, &what_if.value), k)?;
    let line = |p: &crate::calc::plan::Plan| {
        format!(
            "{}: peak {} GB of the {} GB budget, margin {} GB ({})",
            run_title(p),
            show_centi(p.estimate.total_centi_gb),
            show_centi(p.budget.centi_gb),
            show_centi_delta(p.judgement.margin_centi_gb),
            p.judgement.verdict.label()
        )
    };
    let roomier = if run.judgement.margin_centi_gb >= alt.judgement.margin_centi_gb {
        "your run as it is"
    } else {
        "the what-if"
    };
    Some(format!(
        "By memory alone: your run, {}; the what-if, {}. The one with more room is {roomier}. Which trains the better model is not something I judge; the choice is yours (\"ok, do that\" takes the what-if, anything else keeps your run). Planning math, not a guarantee: watch the first steps of whichever you launch.",
        line(&run),
        line(&alt)
    ))
}
