//! The OOM ladder's state and its transitions, all pure, so replaying the
//! owner's turns at start rebuilds exactly where the ladder stood.
//!
//! Order is the seed's: (1) flush the page cache between runs, (2) shorter
//! packing, then a smaller batch, (3) QLoRA → bf16 LoRA; each result is
//! observed before the next rung is proposed, and each rung is proposed only
//! after the owner approves it.

use crate::calc::setup::Method;
use crate::extract::oom::{OomReport, Phase, Rung, StepResult};
use crate::extract::ps::ProcessKind;
use jiff::Timestamp;
use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq)]
pub enum RungStatus {
    Open,
    /// Described and waiting for the owner's yes or no.
    Proposed,
    Declined,
    /// Approved; waiting for the owner to say how it went.
    Applied,
    Result(StepResult),
    /// Not applicable to this run, and why.
    Skipped(String),
    /// The owner says they already did it, in these words.
    OwnerDid(String),
}

impl RungStatus {
    /// A rung that needs nothing more before the next one.
    pub fn settled(&self) -> bool {
        !matches!(
            self,
            RungStatus::Open | RungStatus::Proposed | RungStatus::Applied
        )
    }
}

/// What the ladder is waiting for from the owner.
#[derive(Debug, Clone, PartialEq)]
pub enum Awaiting {
    Phase,
    /// The run's model, method, batch or packing.
    Facts,
    /// The owner jumped ahead; did they do step 1?
    DidFlush,
    Approval(Rung),
    Result(Rung),
    /// Every rung settled and the OOM persists.
    Exhausted,
    Nothing,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Ladder {
    pub opened_at: Timestamp,
    pub evidence: String,
    pub phase: Option<Phase>,
    pub at_step: Option<u64>,
    pub tried_to_allocate: Option<String>,
    pub figures: Option<crate::extract::oom_figures::OomFigures>,
    pub rungs: BTreeMap<Rung, RungStatus>,
    pub resolved: bool,
    pub awaiting: Awaiting,
}

impl Ladder {
    pub fn open(report: &OomReport, at: Timestamp) -> Ladder {
        Ladder {
            opened_at: at,
            evidence: report.evidence.clone(),
            phase: report.phase,
            at_step: report.at_step,
            tried_to_allocate: report.tried_to_allocate.clone(),
            figures: report.figures.clone(),
            rungs: Rung::ALL.iter().map(|r| (*r, RungStatus::Open)).collect(),
            resolved: false,
            awaiting: Awaiting::Nothing,
        }
    }

    pub fn status(&self, rung: Rung) -> &RungStatus {
        self.rungs.get(&rung).unwrap_or(&RungStatus::Open)
    }

    pub fn set(&mut self, rung: Rung, status: RungStatus) {
        self.rungs.insert(rung, status);
    }

    pub fn active(&self) -> bool {
        !self.resolved
    }
}

/// Something the owner must say yes to before headroom recommends it.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    Rung(Rung),
    /// Stop these processes (pid, kind) before the run.
    Stop(Vec<(u64, ProcessKind)>),
    /// Unload Ollama models (`ollama stop MODEL`), keeping the server.
    Unload(Vec<String>),
    /// Restart the vLLM server with this `--gpu-memory-utilization` (and
    /// the model it serves, when its log names it).
    Refraction(f64, Option<String>),
}

impl Action {
    pub fn label(&self) -> String {
        match self {
            Action::Rung(r) => r.label().to_string(),
            Action::Stop(list) => format!(
                "stop {}",
                list.iter()
                    .map(|(pid, kind)| format!("{} (pid {pid})", kind.label()))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Action::Unload(models) => format!(
                "unload {} from Ollama (the server keeps running)",
                models.join(", ")
            ),
            Action::Refraction(f, _) => format!(
                "restart vLLM with `--gpu-memory-utilization {}`",
                crate::calc::units::plain(*f)
            ),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    pub action: Action,
    pub approved: bool,
    pub at: Timestamp,
}

/// What the run looks like, for deciding whether a rung applies.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RunShape {
    pub method: Option<Method>,
    pub batch: Option<u64>,
    pub pack: Option<u64>,
    pub complete: bool,
    /// The estimator's bf16 LoRA total and the budget, hundredths of a GB,
    /// when the run is QLoRA (step 3 cannot help if it does not fit).
    pub bf16_lora: Option<(u64, u64)>,
}

/// The shortest packing the ladder proposes; below this the run is not a
/// long-context job and shorter packing stops helping.
pub const SHORTEST_PACK: u64 = 256;

/// Record a result the owner reported for the rung in flight.
pub fn record_result(ladder: &mut Ladder, result: StepResult) -> Option<Rung> {
    let Awaiting::Result(rung) = ladder.awaiting.clone() else {
        return None;
    };
    ladder.set(rung, RungStatus::Result(result));
    ladder.awaiting = Awaiting::Nothing;
    if result == StepResult::Fixed {
        ladder.resolved = true;
    }
    Some(rung)
}

/// Decide what the ladder waits for next, proposing the next rung when it
/// is time. Returns the rung newly proposed, if any.
pub fn advance(ladder: &mut Ladder, run: RunShape) -> Option<Rung> {
    if ladder.resolved {
        ladder.awaiting = Awaiting::Nothing;
        return None;
    }
    if matches!(ladder.awaiting, Awaiting::Result(_) | Awaiting::Approval(_)) {
        return None;
    }
    if ladder.phase.is_none() {
        ladder.awaiting = Awaiting::Phase;
        return None;
    }
    let jumped = ladder
        .rungs
        .iter()
        .any(|(r, s)| *r != Rung::Flush && matches!(s, RungStatus::OwnerDid(_)));
    if !run.complete {
        // Step 1 needs no figures: it is proposed while the run is still
        // being described; the steps after it wait for the settings.
        if !jumped && *ladder.status(Rung::Flush) == RungStatus::Open {
            ladder.set(Rung::Flush, RungStatus::Proposed);
            ladder.awaiting = Awaiting::Approval(Rung::Flush);
            return Some(Rung::Flush);
        }
        ladder.awaiting = Awaiting::Facts;
        return None;
    }
    if jumped && *ladder.status(Rung::Flush) == RungStatus::Open {
        ladder.awaiting = Awaiting::DidFlush;
        return None;
    }
    for rung in Rung::ALL {
        if ladder.status(rung).settled() {
            continue;
        }
        if let Some(why) = not_applicable(rung, run) {
            ladder.set(rung, RungStatus::Skipped(why));
            continue;
        }
        ladder.set(rung, RungStatus::Proposed);
        ladder.awaiting = Awaiting::Approval(rung);
        return Some(rung);
    }
    ladder.awaiting = Awaiting::Exhausted;
    None
}

fn not_applicable(rung: Rung, run: RunShape) -> Option<String> {
    match rung {
        Rung::Packing if run.pack.is_some_and(|p| p / 2 < SHORTEST_PACK) => Some(format!(
            "packing is already {}; halving it would go under {SHORTEST_PACK} tokens",
            run.pack.unwrap_or(0)
        )),
        Rung::Batch if run.batch == Some(1) => Some("batch is already 1".into()),
        Rung::Method if run.method != Some(Method::Qlora) => Some(format!(
            "the run is {}, not QLoRA",
            run.method.map_or("not QLoRA", |m| m.label())
        )),
        Rung::Method => match run.bf16_lora {
            Some((total, budget)) if total > budget => Some(format!(
                "bf16 LoRA of this model needs {} GB, over the {} GB budget, so it cannot help this run",
                crate::calc::units::show_centi(total),
                crate::calc::units::show_centi(budget)
            )),
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape() -> RunShape {
        RunShape {
            method: Some(Method::Qlora),
            batch: Some(2),
            pack: Some(2048),
            complete: true,
            bf16_lora: None,
        }
    }

    fn ladder() -> Ladder {
        let report = crate::extract::oom::oom_report("OOM at step 340").unwrap();
        Ladder::open(&report, Timestamp::UNIX_EPOCH)
    }

    #[test]
    fn rungs_come_in_order_each_after_its_result() {
        let mut l = ladder();
        assert_eq!(advance(&mut l, shape()), Some(Rung::Flush));
        // Waiting for approval: nothing new is proposed.
        assert_eq!(advance(&mut l, shape()), None);
        l.set(Rung::Flush, RungStatus::Applied);
        l.awaiting = Awaiting::Result(Rung::Flush);
        assert_eq!(advance(&mut l, shape()), None);
        assert_eq!(
            record_result(&mut l, StepResult::StillOom),
            Some(Rung::Flush)
        );
        assert_eq!(advance(&mut l, shape()), Some(Rung::Packing));
    }

    #[test]
    fn a_jump_ahead_still_asks_about_step_one() {
        let mut l = ladder();
        l.set(
            Rung::Batch,
            RungStatus::OwnerDid("I already halved the batch".into()),
        );
        assert_eq!(advance(&mut l, shape()), None);
        assert_eq!(l.awaiting, Awaiting::DidFlush);
    }

    #[test]
    fn rungs_that_do_not_apply_are_skipped_with_the_reason() {
        let mut l = ladder();
        for r in [Rung::Flush, Rung::Packing] {
            l.set(r, RungStatus::Result(StepResult::StillOom));
        }
        let run = RunShape {
            method: Some(Method::Lora),
            batch: Some(1),
            ..shape()
        };
        assert_eq!(advance(&mut l, run), None);
        assert_eq!(l.awaiting, Awaiting::Exhausted);
        assert_eq!(
            *l.status(Rung::Batch),
            RungStatus::Skipped("batch is already 1".into())
        );
    }
}
