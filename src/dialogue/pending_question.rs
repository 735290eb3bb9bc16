//! A question while a ladder step waits for its yes ("why not change the
//! batch? is already 1"): answered from the run and the ladder's order, and
//! the step still waits. Nothing is done.

use crate::dialogue::ladder::Action;
use crate::dialogue::session::Session;
use crate::extract::oom::Rung;
use crate::extract::re;
use crate::knowledge::Knowledge;
use regex::Regex;
use std::sync::LazyLock;

static BATCH: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)\b(?:batch(?:[\s_-]?size)?|bs|bsz|micro[\s_-]?batch)\b"));
static PACK: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:packing|pack|seq(?:uence)?s?(?:[\s_-]?len(?:gth)?)?|context|ctx|cutoff\w*|max_seq_length)\b",
    )
});

/// The answer and the step still waiting, or nothing when the question is
/// not about the ladder's steps.
pub fn answer(words: &str, session: &Session, k: &Knowledge) -> Option<String> {
    let Some(Action::Rung(waiting)) = &session.pending else {
        return None;
    };
    if !crate::extract::intent::asks(words) {
        return None;
    }
    let batch = session.facts.batch.as_ref().map(|b| b.value);
    let text = if BATCH.is_match(words) && batch == Some(1) {
        let packing = if *waiting == Rung::Packing {
            "shorter packing, the step waiting now, is the one that can lower this run's peak"
        } else {
            "the ladder skips that step when it gets there"
        };
        format!("Your batch is already 1, so there is no smaller batch to try: {packing}.")
    } else if BATCH.is_match(words) || PACK.is_match(words) {
        crate::dialogue::order_question::order_answer(session, k)
    } else {
        return None;
    };
    let label = Action::Rung(*waiting).label();
    Some(format!("{text} Still waiting: {label}. Go ahead? (yes/no)"))
}
