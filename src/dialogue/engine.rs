//! One owner turn in, one Reply out. Pure: the clock comes in as `now`.
//!
//! The same `absorb` runs live and when the transcript is replayed at start,
//! so what headroom remembers is always re-derived from the owner's raw words
//! and pastes, never from a stored summary.

use crate::calc::setup::TENSOR_PARALLEL_REFUSAL;
use crate::calc::solve::SolveFor;
use crate::dialogue::facts::{FreePaste, SlotName, Update};
use crate::dialogue::plan_turn::{ask_for, missing, plan_reply};
use crate::dialogue::session::Session;
use crate::extract::config_json::parse_config;
use crate::extract::free::{looks_like_free, parse_free};
use crate::extract::slots::{Slot, extract};
use crate::knowledge::Knowledge;
use crate::reply::{Reply, ReplyKind};
use jiff::Timestamp;
use std::fmt::Write;

/// What a turn changed, or why it could not be read.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Absorbed {
    pub updates: Vec<Update>,
    /// A paste that could not be read: what was wrong and what to paste.
    pub problem: Option<String>,
    /// The owner asked for the longest packing or largest batch.
    pub solve: Option<SolveFor>,
    /// The owner asked for tensor parallelism, which is refused.
    pub tensor_parallel: bool,
}

fn looks_like_config(text: &str) -> bool {
    let t = text.trim_start();
    t.starts_with('{') && (t.contains("\"hidden_size\"") || t.contains("\"num_hidden_layers\""))
}

/// Fold one owner turn into the session's answers.
pub fn absorb(session: &mut Session, text: &str, at: Timestamp, k: &Knowledge) -> Absorbed {
    let mut out = Absorbed::default();
    if looks_like_free(text) {
        match parse_free(text) {
            Ok(reading) => out.updates.push(session.facts.absorb_free(
                FreePaste {
                    raw: text.to_string(),
                    reading,
                },
                at,
            )),
            Err(e) => {
                out.problem = Some(format!(
                    "I could not read that as `free` output: {e}. {}",
                    e.hint()
                ))
            }
        }
        return out;
    }
    if looks_like_config(text) {
        match parse_config(text) {
            Ok(arch) => out.updates.extend(session.facts.absorb_config(
                arch,
                "your pasted config.json".into(),
                at,
            )),
            Err(e) => {
                out.problem = Some(format!(
                    "I could not read that as a config.json: {e}. {}",
                    e.hint()
                ))
            }
        }
        return out;
    }
    for found in extract(text, k) {
        match found.slot {
            Slot::Solve(what) => out.solve = Some(what),
            Slot::TensorParallel => out.tensor_parallel = true,
            _ => out.updates.extend(session.facts.absorb(&found, at)),
        }
    }
    out
}

fn acknowledge(updates: &[Update]) -> String {
    let parts: Vec<String> = updates
        .iter()
        .map(|u| match (&u.previous, u.slot) {
            (_, SlotName::Free) => format!("your `free` output ({})", u.value),
            (Some(prev), _) => format!("{} {} → {} (\"{}\")", u.slot.key(), prev, u.value, u.words),
            (None, _) => format!("{} {} (\"{}\")", u.slot.key(), u.value, u.words),
        })
        .collect();
    format!("Noted: {}.", parts.join(", "))
}

/// Answer one owner turn.
pub fn respond(session: &mut Session, text: &str, now: Timestamp, k: &Knowledge) -> Reply {
    let absorbed = absorb(session, text, now, k);
    let still = missing(&session.facts);
    if let Some(problem) = absorbed.problem {
        let mut md = format!("{problem}\n\nNothing you told me before is lost.");
        if !still.is_empty() {
            let _ = write!(md, "\n\n{}", ask_for(&still, k));
        }
        return Reply {
            commands: vec![k.command("free").command.clone()],
            ..Reply::problem(md)
        };
    }
    if absorbed.tensor_parallel {
        let mut md = String::new();
        if !absorbed.updates.is_empty() {
            let _ = write!(md, "{}\n\n", acknowledge(&absorbed.updates));
        }
        md.push_str(TENSOR_PARALLEL_REFUSAL);
        return Reply::info(md);
    }
    if let Some(what) = absorbed.solve {
        let mut md = String::new();
        if !absorbed.updates.is_empty() {
            let _ = write!(md, "{}\n\n", acknowledge(&absorbed.updates));
        }
        if !still.is_empty() {
            let _ = write!(
                md,
                "To find the {} that fits I first need the rest of the plan.\n\n{}",
                what.noun(),
                ask_for(&still, k)
            );
            return Reply {
                kind: ReplyKind::Ask,
                ..Reply::info(md)
            };
        }
        if let Some(mut reply) = plan_reply(session, now, Some(what), k) {
            reply.markdown = format!("{md}{}", reply.markdown);
            return reply;
        }
    }
    if absorbed.updates.is_empty() {
        let asks_for_plan = matches!(
            text.trim()
                .trim_end_matches(['?', '.', '!'])
                .to_ascii_lowercase()
                .as_str(),
            "plan" | "the plan" | "show the plan" | "plan again" | "will it fit" | "does it fit"
        );
        if asks_for_plan
            && still.is_empty()
            && let Some(reply) = plan_reply(session, now, None, k)
        {
            return reply;
        }
        return nothing_understood(session, &still, k);
    }
    let ack = acknowledge(&absorbed.updates);
    if still.is_empty() {
        let mut reply = plan_reply(session, now, None, k)
            .unwrap_or_else(|| Reply::problem("That model is not in the catalog any more; name it again or give its parameter count."));
        reply.markdown = format!("{ack}\n\n{}", reply.markdown);
        return reply;
    }
    Reply {
        kind: ReplyKind::Ask,
        markdown: format!("{ack}\n\n{}", ask_for(&still, k)),
        commands: if still.contains(&SlotName::Free) {
            vec![k.command("free").command.clone()]
        } else {
            Vec::new()
        },
        verdict: None,
        facts: serde_json::Value::Null,
    }
}

fn nothing_understood(session: &Session, still: &[SlotName], k: &Knowledge) -> Reply {
    let mut md = String::from(
        "I did not find anything about the run in that. I plan memory for a training run on this Spark from the model, method, dtype, batch size, packing length and your `free -g` output.",
    );
    if still.is_empty() {
        md.push_str(
            " I already have all of them: change any (\"batch 2\", \"packing 1024\") or paste a fresh `free -g` and I will redo the plan. `/status` shows what I know.",
        );
    } else {
        let _ = write!(md, "\n\n{}", ask_for(still, k));
    }
    let _ = session;
    Reply {
        commands: if still.contains(&SlotName::Free) {
            vec![k.command("free").command.clone()]
        } else {
            Vec::new()
        },
        ..Reply::info(md)
    }
}
