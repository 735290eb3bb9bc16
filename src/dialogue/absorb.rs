//! Folding one owner turn into the session: answers, pastes, approvals and
//! the OOM ladder's moves. Pure and shared with the replay at start, so the
//! state after a restart is exactly the state before it.

use crate::calc::solve::SolveFor;
use crate::dialogue::facts::{FreePaste, Known, Update};
use crate::dialogue::ladder::{
    Action, Awaiting, Decision, Ladder, RunShape, RungStatus, advance, record_result,
};
use crate::dialogue::oom_turn::changed_facts;
use crate::dialogue::pool_turn::{pool_report, stop_action};
use crate::dialogue::session::Session;
use crate::extract::approval::{Answer, answer};
use crate::extract::config_json::parse_config;
use crate::extract::free::{looks_like_free, parse_free};
use crate::extract::oom::{Rung, StepResult, already_did, oom_report, phase_answer, step_result};
use crate::extract::ps::{looks_like_ps, parse_ps};
use crate::extract::slots::{Slot, extract};
use crate::knowledge::Knowledge;
use jiff::Timestamp;

/// What happened on the OOM ladder this turn.
#[derive(Debug, Clone, PartialEq)]
pub enum OomEvent {
    Opened,
    PhaseSet,
    Result(Rung, StepResult),
    Jumped(Rung),
    /// The owner answered whether they flushed before jumping ahead.
    DidFlush(bool),
    /// The owner gave facts the ladder was waiting for.
    FactsGiven,
}

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
    /// The owner answered a pending action.
    pub approval: Option<(Action, Answer)>,
    pub oom: Option<OomEvent>,
    /// A process listing was pasted.
    pub procs: bool,
    /// A "yes"/"no" arrived with nothing waiting for one.
    pub stray_answer: bool,
    /// The turn was about the thermal workflow (data, start time, a question).
    pub thermal: bool,
}

fn looks_like_config(text: &str) -> bool {
    let t = text.trim_start();
    t.starts_with('{') && (t.contains("\"hidden_size\"") || t.contains("\"num_hidden_layers\""))
}

pub fn run_shape(session: &Session, k: &Knowledge) -> RunShape {
    let f = &session.facts;
    let bf16_lora = if f
        .method
        .as_ref()
        .is_some_and(|m| m.value == crate::calc::setup::Method::Qlora)
    {
        crate::dialogue::plan_turn::build_plan(
            &changed_facts(f, Rung::Method, Timestamp::UNIX_EPOCH),
            k,
        )
        .map(|(p, _)| (p.estimate.total_centi_gb, p.budget.centi_gb))
    } else {
        None
    };
    RunShape {
        bf16_lora,
        method: f.method.as_ref().map(|m| m.value),
        batch: f.batch.as_ref().map(|b| b.value),
        pack: f.pack.as_ref().map(|p| p.value),
        complete: f.model.is_some() && f.method.is_some() && f.batch.is_some() && f.pack.is_some(),
    }
}

/// Let the ladder decide what it waits for next; a newly proposed rung
/// becomes the pending action.
fn step_ladder(session: &mut Session, k: &Knowledge) {
    let shape = run_shape(session, k);
    let Some(ladder) = session.ladder.as_mut() else {
        return;
    };
    if let Some(rung) = advance(ladder, shape) {
        session.pending = Some(Action::Rung(rung));
    }
}

fn apply_approval(session: &mut Session, action: &Action, yes: bool, at: Timestamp) {
    session.decisions.push(Decision {
        action: action.clone(),
        approved: yes,
        at,
    });
    let Action::Rung(rung) = action else {
        return;
    };
    if yes && *rung != Rung::Flush {
        // The owner agreed to change the job; plan with the change from now on.
        session.facts = changed_facts(&session.facts, *rung, at);
    }
    if let Some(ladder) = session.ladder.as_mut() {
        if yes {
            ladder.set(*rung, RungStatus::Applied);
            ladder.awaiting = Awaiting::Result(*rung);
        } else {
            ladder.set(*rung, RungStatus::Declined);
            ladder.awaiting = Awaiting::Nothing;
        }
    }
}

/// Fold one owner turn into the session.
pub fn absorb(session: &mut Session, text: &str, at: Timestamp, k: &Knowledge) -> Absorbed {
    let mut out = Absorbed::default();

    // A short typed yes/no answers what is pending; pasted text never does.
    if let Some(ans) = answer(text) {
        if let Some(action) = session.pending.take() {
            apply_approval(session, &action, ans == Answer::Yes, at);
            step_ladder(session, k);
            out.approval = Some((action, ans));
            return out;
        }
        if let Some(ladder) = session.ladder.as_mut()
            && ladder.awaiting == Awaiting::DidFlush
        {
            if ans == Answer::Yes {
                ladder.set(
                    Rung::Flush,
                    RungStatus::OwnerDid("yes, flushed between runs".into()),
                );
            }
            ladder.awaiting = Awaiting::Nothing;
            step_ladder(session, k);
            out.oom = Some(OomEvent::DidFlush(ans == Answer::Yes));
            return out;
        }
        out.stray_answer = true;
        return out;
    }

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
    if looks_like_ps(text) && oom_report(text).is_none() {
        match parse_ps(text) {
            Ok(_) => {
                session.procs = Some(Known {
                    value: text.to_string(),
                    words: "your pasted process listing".into(),
                    at,
                });
                out.procs = true;
                if let Some(action) = pool_report(session, k).and_then(|r| stop_action(&r))
                    && session.declined(&action).is_none()
                {
                    session.pending = Some(action);
                }
            }
            Err(e) => {
                out.problem = Some(format!(
                    "I could not read that as a process listing: {e}. {}",
                    e.hint()
                ))
            }
        }
        return out;
    }
    let oom_in_text = oom_report(text).is_some();
    if !oom_in_text && crate::dialogue::thermal_turn::absorb_thermal(session, text, at) {
        out.thermal = true;
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

    // The OOM ladder: a report, a phase, a result, or a jump ahead.
    let waiting_result = session
        .ladder
        .as_ref()
        .is_some_and(|l| l.active() && matches!(l.awaiting, Awaiting::Result(_)));
    if let Some(report) = oom_report(text) {
        if waiting_result {
            let ladder = session.ladder.as_mut().expect("checked above");
            if let Some(rung) = record_result(ladder, StepResult::StillOom) {
                out.oom = Some(OomEvent::Result(rung, StepResult::StillOom));
            }
        } else if !session.ladder.as_ref().is_some_and(Ladder::active) {
            session.ladder = Some(Ladder::open(&report, at));
            session.pending = None;
            out.oom = Some(OomEvent::Opened);
        }
    } else if let Some(ladder) = session.ladder.as_mut().filter(|l| l.active()) {
        if ladder.awaiting == Awaiting::Phase
            && let Some(phase) = phase_answer(text)
        {
            ladder.phase = Some(phase);
            out.oom = Some(OomEvent::PhaseSet);
        } else if let Some(rung) = already_did(text) {
            ladder.set(rung, RungStatus::OwnerDid(text.trim().to_string()));
            // "Halved" with no number: the change is known, so plan with it.
            let halved = text.to_ascii_lowercase().contains("halv");
            if halved && matches!(rung, Rung::Batch | Rung::Packing) {
                session.facts = changed_facts(&session.facts, rung, at);
            }
            let ladder = session.ladder.as_mut().expect("active ladder");
            if let Some(Action::Rung(p)) = &session.pending
                && *p == rung
            {
                session.pending = None;
                ladder.awaiting = Awaiting::Nothing;
            }
            out.oom = Some(OomEvent::Jumped(rung));
        } else if let Some(result) = step_result(text)
            && let Some(rung) = record_result(ladder, result)
        {
            out.oom = Some(OomEvent::Result(rung, result));
        }
    }

    for found in extract(text, k) {
        match found.slot {
            Slot::Solve(what) => out.solve = Some(what),
            Slot::TensorParallel => out.tensor_parallel = true,
            _ => out.updates.extend(session.facts.absorb(&found, at)),
        }
    }
    if session
        .ladder
        .as_ref()
        .is_some_and(|l| l.awaiting == Awaiting::Facts)
        && !out.updates.is_empty()
    {
        out.oom.get_or_insert(OomEvent::FactsGiven);
    }
    if out.oom.is_some() {
        step_ladder(session, k);
    }
    out
}
