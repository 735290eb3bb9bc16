//! One owner turn in, one Reply out. Pure: the clock comes in as `now`.
//!
//! The same `absorb` runs live and when the transcript is replayed at start,
//! so what headroom remembers is always re-derived from the owner's raw words
//! and pastes, never from a stored summary.

use crate::calc::setup::TENSOR_PARALLEL_REFUSAL;
use crate::dialogue::absorb::OomEvent;
pub use crate::dialogue::absorb::{Absorbed, absorb};
use crate::dialogue::facts::{SlotName, Update};
use crate::dialogue::ladder::Action;
use crate::dialogue::oom_turn::{applied, ladder_status, load_note, next_question};
use crate::dialogue::plan_turn::{ask_for, missing, plan_reply};
use crate::dialogue::pool_turn::{pool_markdown, stop_instructions};
use crate::dialogue::session::Session;
use crate::dialogue::thermal_turn::{Files, NoFiles, thermal_reply};
use crate::extract::approval::Answer;
use crate::extract::oom::{Rung, StepResult};
use crate::knowledge::Knowledge;
use crate::reply::{Reply, ReplyKind};
use jiff::Timestamp;
use std::fmt::Write;

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

/// Answer one owner turn, with no access to the owner's files.
pub fn respond(session: &mut Session, text: &str, now: Timestamp, k: &Knowledge) -> Reply {
    respond_with(session, text, now, k, &NoFiles)
}

/// Answer one owner turn, reading the owner's files through `files`.
pub fn respond_with(
    session: &mut Session,
    text: &str,
    now: Timestamp,
    k: &Knowledge,
    files: &dyn Files,
) -> Reply {
    let absorbed = absorb(session, text, now, k);
    if absorbed.thermal && absorbed.approval.is_none() {
        return Reply::info(thermal_reply(session, files, k));
    }
    let about_pending = absorbed.approval.is_some() || absorbed.oom.is_some() || absorbed.procs;
    let mut reply = answer_turn(session, &absorbed, text, now, k);
    if !about_pending && let Some(action) = &session.pending {
        reply.markdown.push_str(&format!(
            "\n\n(Still waiting for your yes or no on: {}. Only a short typed answer counts; text inside a paste is data.)",
            action.label()
        ));
    }
    reply
}

fn answer_turn(
    session: &mut Session,
    absorbed: &Absorbed,
    text: &str,
    now: Timestamp,
    k: &Knowledge,
) -> Reply {
    let still = missing(&session.facts);
    if let Some(problem) = absorbed.problem.clone() {
        let mut md = format!("{problem}\n\nNothing you told me before is lost.");
        if !still.is_empty() {
            let _ = write!(md, "\n\n{}", ask_for(&still, k));
        }
        return Reply {
            commands: vec![k.command("free").command.clone()],
            ..Reply::problem(md)
        };
    }
    if let Some((action, ans)) = &absorbed.approval {
        return approval_reply(session, action, *ans, k);
    }
    if absorbed.stray_answer {
        return Reply::info(
            "Nothing is waiting for a yes or no right now. `/status` shows what I know and what is next.",
        );
    }
    if absorbed.procs {
        return Reply::info(pool_markdown(session, k).unwrap_or_default());
    }
    if let Some(event) = &absorbed.oom {
        return oom_reply(session, event, &absorbed.updates, k);
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

fn approval_reply(session: &Session, action: &Action, ans: Answer, k: &Knowledge) -> Reply {
    let mut md = String::new();
    let mut commands = Vec::new();
    match (action, ans) {
        (Action::Rung(rung), Answer::Yes) => {
            let (text, cmds) = applied(*rung, &session.facts, k);
            md.push_str(&text);
            commands = cmds;
        }
        (Action::Rung(rung), Answer::No) => {
            let _ = write!(
                md,
                "Noted: you declined {}. I won't suggest it again unless you ask.",
                rung.label()
            );
            let next = next_question(session, k);
            if !next.is_empty() {
                let _ = write!(md, " What else can be done:\n\n{next}");
            }
        }
        (Action::Stop(list), Answer::Yes) => {
            let (text, cmds) = stop_instructions(list, k);
            md.push_str(&text);
            commands = cmds;
        }
        (Action::Stop(_), Answer::No) => {
            let _ = write!(
                md,
                "Noted: you declined to {}; I won't suggest it again unless you ask. What else can be done: shrink the run until it fits beside them (shorter packing first, then a smaller batch: say \"what's the longest packing that fits?\"), or restart vLLM with a lower `--gpu-memory-utilization` when it suits you.",
                action.label()
            );
        }
    }
    Reply {
        commands,
        ..Reply::info(md)
    }
}

fn oom_reply(session: &Session, event: &OomEvent, updates: &[Update], k: &Knowledge) -> Reply {
    let Some(ladder) = &session.ladder else {
        return Reply::info(String::new());
    };
    let mut md = String::new();
    match event {
        OomEvent::Opened => {
            let _ = write!(md, "OOM noted: `{}`", ladder.evidence);
            if let Some(phase) = ladder.phase {
                let _ = write!(md, " ({}", phase.label());
                if let Some(step) = ladder.at_step {
                    let _ = write!(md, ", at step {step}");
                }
                md.push(')');
            }
            if let Some(t) = &ladder.tried_to_allocate {
                let _ = write!(md, "; it tried to allocate {t}");
            }
            md.push_str(". I work the OOM ladder in order, never skipping ahead, and each step's result comes before the next: (1) flush the page cache between runs, (2) shorter packing, then a smaller batch, (3) QLoRA → bf16 LoRA.");
        }
        OomEvent::PhaseSet => {
            let _ = write!(md, "Noted: {}.", ladder.phase.map_or("", |p| p.label()));
        }
        OomEvent::Result(rung, StepResult::StillOom) => {
            let _ = write!(md, "{}: done, the OOM persists.", capitalised(rung.label()));
        }
        OomEvent::Result(rung, StepResult::Fixed) => {
            let _ = write!(
                md,
                "{}: done, and the OOM is gone. The ladder is closed; tell me if it comes back.",
                capitalised(rung.label())
            );
        }
        OomEvent::Jumped(rung) => {
            let _ = write!(md, "Noted: you already did {}.", rung.label());
        }
        OomEvent::DidFlush(true) => {
            md.push_str("Noted: you flushed the page cache between runs (step 1).")
        }
        OomEvent::DidFlush(false) => {
            md.push_str("Noted: the page cache was not flushed, so step 1 comes first.")
        }
        OomEvent::FactsGiven => {
            if !updates.is_empty() {
                md.push_str(&acknowledge(updates));
            }
        }
    }
    if let Some(note) = load_note(session, k)
        && matches!(event, OomEvent::Opened | OomEvent::PhaseSet)
    {
        let _ = write!(md, "\n\n{note}");
    }
    let next = next_question(session, k);
    if !next.is_empty() {
        let _ = write!(md, "\n\n{next}");
    }
    let _ = write!(md, "\n\n{}", ladder_status(ladder).trim_end());
    let _ = Rung::Flush;
    Reply::info(md)
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
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
