//! The first thing headroom says: a fresh start asks for the inputs; a
//! return sums up in a few lines what it remembers and what is waiting.

use crate::dialogue::plan_turn::{ask_for, missing, stale_free};
use crate::dialogue::session::{Session, age};
use crate::knowledge::Knowledge;
use jiff::Timestamp;

const INTRO: &str = "headroom plans memory for a training run on this DGX Spark, works an OOM in the right order, tells whether a slowdown is thermal throttling, and checks who shares the memory pool. It never runs a command; it tells you what to run and reads what you paste.";

/// A fresh start: one line on how to begin, not the whole questionnaire.
const START: &str = "Tell me the run (\"QLoRA on Llama 3.1 70B, batch 1, packing 2048\"), or paste what the box printed: `free -g`, `ps aux`, an OOM traceback, a training log or the thermal sampler's log.";

/// `absolute` turns a remembered data path into the absolute path of a
/// regular file, or `None` for one that is gone (never listed).
pub fn greeting(
    session: &Session,
    now: Timestamp,
    k: &Knowledge,
    absolute: &dyn Fn(&str) -> Option<String>,
) -> String {
    let still = missing(&session.facts);
    let mut lines: Vec<String> = Vec::new();
    if let Some(p) = &session.last_plan {
        lines.push(format!(
            "- your run: {}, last verdict **{}** ({} GB of {} GB, {})",
            p.title,
            p.verdict.label(),
            crate::calc::units::show_centi(p.total_centi_gb),
            crate::calc::units::show_centi(p.budget_centi_gb),
            age(p.at, now)
        ));
    } else if !session.facts.answered().is_empty() {
        let names: Vec<String> = session
            .facts
            .answered()
            .iter()
            .map(|(slot, value, ..)| format!("{} {value}", slot.key()))
            .collect();
        lines.push(format!("- your answers so far: {}", names.join(", ")));
    }
    if let Some(ladder) = &session.ladder {
        lines.push(format!(
            "- OOM ladder: {}",
            crate::dialogue::oom_turn::ladder_line(ladder)
        ));
    }
    let files = data_files(session, absolute);
    if let Some((at, verdict)) = session.last_thermal {
        lines.push(format!(
            "- last thermal check: **{}** ({}){}",
            verdict.label(),
            age(at, now),
            if files.is_empty() {
                String::new()
            } else {
                format!(", from {}", files.join(", "))
            }
        ));
    } else if !files.is_empty() {
        lines.push(format!("- thermal-check data: {}", files.join(", ")));
    }
    // A proposed ladder step is already on the ladder's line.
    if let Some(action) = &session.pending
        && !matches!(action, crate::dialogue::ladder::Action::Rung(_))
    {
        // A stop from another session or an old listing is not answered
        // any more: say what it needs instead of inviting a yes.
        lines.push(match crate::dialogue::words::stale(session, now) {
            Some(_) => format!(
                "- proposed earlier, now out of date: {} (paste a fresh `ps aux` and I will check again)",
                action.label()
            ),
            None => format!("- waiting for your yes or no: {}", action.label()),
        });
    }
    if lines.is_empty() {
        if crate::dialogue::plan_turn::plan_begun(&session.facts) {
            return format!("{INTRO}\n\n{}", ask_for(&still, &session.facts));
        }
        return format!("{INTRO}\n\n{START}");
    }
    let mut md = format!("Welcome back.\n\n{}", lines.join("\n"));
    if let Some(stale) = stale_free(&session.facts, now, k) {
        md.push_str(&format!("\n\n{stale}"));
    }
    if !still.is_empty() && session.facts.model.is_some() {
        let names: Vec<&str> = still.iter().map(|s| s.key()).collect();
        md.push_str(&format!("\n\nThe plan still needs {}.", names.join(", ")));
    }
    md.push_str("\n\n`/status` lists every answer; `/forget all` starts over.");
    md
}

/// Each remembered file once, by absolute path, in the order first given.
fn data_files(session: &Session, absolute: &dyn Fn(&str) -> Option<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut pastes = false;
    for d in &session.data_sources {
        match &d.value {
            crate::dialogue::thermal_turn::Source::File(p) => {
                if let Some(abs) = absolute(p)
                    && !out.contains(&format!("`{abs}`"))
                {
                    out.push(format!("`{abs}`"));
                }
            }
            crate::dialogue::thermal_turn::Source::Paste(_) => pastes = true,
        }
    }
    if pastes {
        out.push("your pasted data".into());
    }
    out
}
