//! "Batch or seq first?": which of the two to cut first, answered by the
//! ladder's order with each one's figure for this run. Nothing changes.

use crate::calc::solve::{SolveFor, solve};
use crate::calc::units::show_centi;
use crate::dialogue::plan_turn::pooled_plan;
use crate::dialogue::session::Session;
use crate::knowledge::Knowledge;
use regex::Regex;
use std::sync::LazyLock;

static BATCH: LazyLock<Regex> =
    LazyLock::new(|| crate::extract::re(r"(?i)\b(?:batch|batc|bs|micro[\s_-]?batch)\b"));
static PACK: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(?i)\b(?:seq\w*|pack\w*|context|ctx|max_seq_length|sequence_len|max_length|length)\b",
    )
});
static WHICH: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(r"(?i)\b(?:first|which|before|or|priorit\w*|prefer\w*|better to)\b")
});

/// Is this a question about which of batch and packing to cut first? One
/// sentence must ask it: "batch 4, 2k ctx. before I launch, what's eating
/// my memory?" names both in a statement and asks something else.
pub fn asks_order(text: &str) -> bool {
    crate::extract::intent::sentences(text)
        .iter()
        .any(|s| asks_order_in(&s.text))
}

fn asks_order_in(sentence: &str) -> bool {
    let t = sentence.trim();
    (t.ends_with('?') || t.to_ascii_lowercase().starts_with("which"))
        && BATCH.is_match(t)
        && PACK.is_match(t)
        && WHICH.is_match(t)
        && !t.to_ascii_lowercase().starts_with("what if")
}

/// Packing first, then batch (the ladder's step 2), each with what it
/// would take for this run to fit.
pub fn order_answer(session: &Session, k: &Knowledge) -> String {
    let head = "Shorter packing first, then a smaller batch: that is the OOM ladder's order (step 2, from the seed). Both cut the activations and the loss's logits, which grow with batch × packing.";
    // Judged in the pool the verdict uses: a server's claim is not the run's.
    let Some((plan, _)) = pooled_plan(session, &session.facts, k) else {
        return format!("{head} Tell me the run (model, method, batch, packing) for the figures.");
    };
    let i = &plan.input;
    let now = plan.estimate.total_centi_gb;
    let pack = solve(i, SolveFor::Pack, &plan.budget, k);
    let batch = solve(i, SolveFor::Batch, &plan.budget, k);
    let pack_line = match (pack.fits, pack.fits_total_centi_gb) {
        // The run's own peak, then how far the packing could go.
        (Some(v), Some(t)) if v >= i.pack => format!(
            "packing {} already fits at batch {} ({} GB; up to packing {v} fits, {} GB)",
            i.pack,
            i.batch,
            show_centi(now),
            show_centi(t)
        ),
        (Some(v), Some(t)) => format!(
            "at batch {} the longest packing that fits is {v} ({} GB)",
            i.batch,
            show_centi(t)
        ),
        _ => format!("at batch {} no packing fits", i.batch),
    };
    let batch_line = match (batch.fits, batch.fits_total_centi_gb) {
        (Some(v), Some(t)) if v >= i.batch => format!(
            "batch {} already fits at packing {} ({} GB; up to batch {v} fits, {} GB)",
            i.batch,
            i.pack,
            show_centi(now),
            show_centi(t)
        ),
        (Some(v), Some(t)) => format!(
            "at packing {} the largest batch that fits is {v} ({} GB)",
            i.pack,
            show_centi(t)
        ),
        _ => format!("at packing {} no batch fits, not even 1", i.pack),
    };
    format!(
        "{head} For this run, against the {} GB budget: {pack_line}; {batch_line}. Nothing changed: say \"what if packing N\" to see one beside the run.",
        show_centi(plan.budget.centi_gb),
    )
}
