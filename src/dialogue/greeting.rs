//! The first thing headroom says: a fresh start asks for the inputs; a
//! return says what it remembers, what is done and what is not.

use crate::dialogue::facts::SlotName;
use crate::dialogue::plan_turn::{ask_for, missing, stale_free};
use crate::dialogue::session::{Session, age, done_line};
use crate::knowledge::Knowledge;
use jiff::Timestamp;
use std::fmt::Write;

pub fn greeting(session: &Session, now: Timestamp, k: &Knowledge) -> String {
    let answered = session.facts.answered();
    let still = missing(&session.facts);
    let remembered_data = !session.data_sources.is_empty() || session.run_start.is_some();
    if answered.is_empty()
        && session.last_plan.is_none()
        && session.ladder.is_none()
        && !remembered_data
    {
        return format!(
            "headroom plans memory for a training run on this DGX Spark, works an OOM in the right order, tells whether a slowdown is thermal throttling, and checks who shares the memory pool. It never runs a command; it tells you what to run and reads what you paste.\n\n{}",
            ask_for(&still)
        );
    }
    let mut md = String::from("Welcome back. From earlier sessions I remember:\n\n");
    status_lines(&mut md, session, now);
    for d in &session.data_sources {
        let what = match &d.value {
            crate::dialogue::thermal_turn::Source::File(p) => {
                format!("`{p}` (reopened whenever I use it)")
            }
            crate::dialogue::thermal_turn::Source::Paste(_) => {
                "a pasted log or thermal sample".to_string()
            }
        };
        let _ = writeln!(md, "- thermal-check data: {what}, {}", age(d.at, now));
    }
    if let Some(s) = &session.run_start {
        let _ = writeln!(
            md,
            "- run start: {} (\"{}\"), {}",
            jiff::Timestamp::from_second(s.value as i64)
                .map(|t| t.strftime("%Y-%m-%d %H:%M:%S").to_string())
                .unwrap_or_default(),
            s.words,
            age(s.at, now)
        );
    }
    md.push('\n');
    let _ = writeln!(md, "{}", done_line(session.last_plan.as_ref()));
    if still.is_empty() {
        md.push_str("Not done: nothing is missing for the plan; ask for it again any time (\"plan\"), or change an answer.\n");
    } else {
        let names: Vec<&str> = still.iter().map(|s| s.key()).collect();
        let _ = writeln!(md, "Not done: the plan still needs {}.", names.join(", "));
        let _ = write!(md, "\n{}\n", ask_for(&still));
    }
    if let Some(ladder) = &session.ladder {
        let _ = write!(md, "\n{}", crate::dialogue::oom_turn::ladder_status(ladder));
        let next = crate::dialogue::oom_turn::next_question(session, k);
        if !next.is_empty() {
            let _ = write!(md, "\nNext: {next}\n");
        }
    } else if let Some(action) = &session.pending {
        let _ = write!(
            md,
            "\nStill waiting for your yes or no on: {}.\n",
            action.label()
        );
    }
    if let Some(stale) = stale_free(&session.facts, now, k) {
        let _ = write!(md, "\n{stale}\n");
    }
    md.trim_end().to_string()
}

/// One line per remembered answer, with the owner's words and their age.
pub fn status_lines(md: &mut String, session: &Session, now: Timestamp) {
    for (slot, value, words, at) in session.facts.answered() {
        let quoted = if slot == SlotName::Free {
            String::new()
        } else {
            format!(" (\"{words}\")")
        };
        let _ = writeln!(md, "- {}: {value}{quoted}, {}", slot.key(), age(at, now));
    }
}
