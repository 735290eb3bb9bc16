//! The OOM ladder's state and its transitions, all pure, so replaying the
//! owner's turns at start rebuilds exactly where the ladder stood.
//!
//! Order is the seed's: (1) flush the page cache between runs, (2) shorter
//! packing, then a smaller batch, (3) QLoRA → bf16 LoRA; a preference or
//! RL run's own steps come after step 1. Each result is observed before
//! the next rung is proposed, and each rung is proposed only after the
//! owner approves it. A rung of another kind of run (fewer generations for
//! SFT) is never proposed, shown or skipped: it stays open and out of view.

use crate::calc::objective::{Generator, Objective, Reference};
use crate::calc::setup::Method;
use crate::extract::oom::{OomReport, Phase, Rung, RungFamily, StepResult};
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
    /// The run's objective when the ladder last advanced: which rungs are
    /// this run's.
    pub objective: Objective,
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
            objective: Objective::Sft,
        }
    }

    /// The rungs of this run, in order.
    pub fn own_rungs(&self) -> impl Iterator<Item = (&Rung, &RungStatus)> {
        let objective = self.objective;
        self.rungs
            .iter()
            .filter(move |(r, s)| belongs(**r, objective) || !matches!(s, RungStatus::Open))
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
    /// Stop a server no listing gave a pid for, by the name the owner
    /// gave: a container, or the Ollama service.
    StopService(Service),
}

/// A server stopped by name, not by pid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Service {
    /// Ollama's systemd service (its loaded models go with it).
    Ollama,
    /// A container, by the name the owner gave.
    Container(String),
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
            // Names from the owner's paste are code: data to quote, never
            // words the phrasing model reads as prose.
            Action::Unload(models) => format!(
                "unload {} from Ollama (the server keeps running)",
                models
                    .iter()
                    .map(|m| format!("`{}`", m.replace('`', "'")))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Action::Refraction(f, _) => format!(
                "restart vLLM with `--gpu-memory-utilization {}`",
                crate::calc::units::plain(*f)
            ),
            Action::StopService(Service::Ollama) => {
                "stop the Ollama service (its loaded models go with it)".to_string()
            }
            Action::StopService(Service::Container(name)) => {
                format!("stop the container `{}`", name.replace('`', "'"))
            }
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
    pub objective: Objective,
    /// The policy's weights, hundredths of a GB: a colocated vLLM loads
    /// them inside its fraction.
    pub weights_centi: Option<u64>,
    /// What CUDA reports on a Spark, GiB: the base of vLLM's fraction.
    pub cuda_gib: f64,
    /// The estimator's peak now and after each rung's change (by its place
    /// in `Rung::ALL`), hundredths of a GB: a change that does not lower
    /// the peak is not proposed.
    pub now_centi: Option<u64>,
    pub after_centi: [Option<u64>; Rung::ALL.len()],
    /// The moment those peaks are of: the OOM's phase, or the binding one.
    pub moment: &'static str,
    /// The weights and the budget, hundredths of a GB, when the weights
    /// alone do not fit: no flush, packing or batch makes room for them.
    pub weights_over: Option<(u64, u64)>,
}

/// GB a colocated vLLM claims per unit of `vllm_gpu_memory_utilization`
/// (121.69 GiB CUDA reports on a Spark), hundredths.
pub fn colocate_centi(fraction: f64, cuda_gib: f64) -> u64 {
    (fraction * cuda_gib * crate::calc::units::GIB / 1e7).floor() as u64
}

/// Does the rung belong to this kind of run at all?
pub fn belongs(rung: Rung, objective: Objective) -> bool {
    match (rung.family(), objective) {
        // An RL run's sequences are its prompt and completion: the
        // completion step is its packing.
        (RungFamily::Any, Objective::Rl { .. }) => rung != Rung::Packing,
        (RungFamily::Any, _) => true,
        (RungFamily::Rl, Objective::Rl { .. }) => true,
        (RungFamily::Preference, Objective::Preference { .. }) => true,
        (RungFamily::Reference, Objective::Preference { .. } | Objective::Rl { .. }) => true,
        _ => false,
    }
}

/// The fewest completions per prompt GRPO's group advantage works with.
pub const FEWEST_GENERATIONS: u64 = 2;
/// The shortest completion the ladder proposes.
pub const SHORTEST_COMPLETION: u64 = 64;

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
    ladder.objective = run.objective;
    for rung in Rung::ALL {
        if ladder.status(rung).settled() || !belongs(rung, run.objective) {
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

/// Why a rung of this run cannot help it: its own reason first (batch
/// already 1), then a change that does not lower the estimator's peak.
fn not_applicable(rung: Rung, run: RunShape) -> Option<String> {
    own_reason(rung, run).or_else(|| no_lower(rung, run))
}

fn no_lower(rung: Rung, run: RunShape) -> Option<String> {
    let place = Rung::ALL.iter().position(|r| *r == rung).unwrap_or(0);
    if let (Some(now), Some(after)) = (run.now_centi, run.after_centi[place])
        // Step 3 is the seed's: a QLoRA OOM is the transient dequantization
        // buffers, which bf16 LoRA does not have, though its plan is larger.
        && !matches!(rung, Rung::Flush | Rung::Method)
        && after >= now
    {
        return Some(match rung {
            Rung::Generations => format!(
                "per_device_train_batch_size counts completions (TRL GRPOConfig), so fewer per prompt regroups the same {} completions: the step stays at {} GB",
                run.batch.unwrap_or(0),
                crate::calc::units::show_centi(now)
            ),
            _ => format!(
                "the estimator puts the {} at {} GB with it, not below the {} GB it is now",
                run.moment,
                crate::calc::units::show_centi(after),
                crate::calc::units::show_centi(now)
            ),
        });
    }
    None
}

fn own_reason(rung: Rung, run: RunShape) -> Option<String> {
    let full = run.method == Some(Method::Full);
    if let Some((weights, budget)) = run.weights_over
        && matches!(rung, Rung::Flush | Rung::Packing | Rung::Batch)
    {
        return Some(format!(
            "the weights alone are {} GB, over the {} GB budget, and {} cannot make room for them",
            crate::calc::units::show_centi(weights),
            crate::calc::units::show_centi(budget),
            match rung {
                Rung::Flush => "a flush (it returns page cache)",
                Rung::Packing => "a shorter packing",
                _ => "a smaller batch",
            }
        ));
    }
    match (rung, run.objective) {
        (Rung::Generations, Objective::Rl { generations, .. })
            if generations <= FEWEST_GENERATIONS =>
        {
            return Some(format!(
                "num_generations is already {generations}; the group advantage needs at least {FEWEST_GENERATIONS}"
            ));
        }
        (Rung::Completion, Objective::Rl { completion, .. })
            if completion / 2 < SHORTEST_COMPLETION =>
        {
            return Some(format!(
                "completions are already {completion} tokens; halving them would go under {SHORTEST_COMPLETION}"
            ));
        }
        (Rung::Colocate, Objective::Rl { generator, .. }) => {
            return match generator {
                Generator::Colocate { fraction, shared } => {
                    let half = colocate_centi(fraction / 2.0, run.cuda_gib);
                    // Below 0.01 the fraction is no setting vLLM takes.
                    if fraction / 2.0 < 0.01 {
                        return Some(format!(
                            "the fraction is already {}; half of it is under 0.01",
                            crate::calc::units::plain(fraction)
                        ));
                    }
                    match run.weights_centi {
                        Some(w) if !shared && half <= w => Some(format!(
                            "half the fraction ({}) would give vLLM {} GB, not more than the {} GB of weights it loads",
                            crate::calc::units::plain(fraction / 2.0),
                            crate::calc::units::show_centi(half),
                            crate::calc::units::show_centi(w)
                        )),
                        _ => None,
                    }
                }
                Generator::Server => Some(
                    "vLLM runs as its own server: on one Spark its memory is the pool's second tenant, not this run's fraction".into(),
                ),
                Generator::Policy => Some("the policy generates its own completions: no vLLM share".into()),
            };
        }
        (Rung::Reference, Objective::Preference { reference, .. }) => {
            return match reference {
                Reference::Model if full => None,
                Reference::Model => Some(
                    "with LoRA the reference is the base with the adapter off: no copy to drop"
                        .into(),
                ),
                Reference::Precomputed => {
                    Some("the reference log-probs are already precomputed".into())
                }
                Reference::None => Some("the run holds no reference model".into()),
            };
        }
        (Rung::LoraReference, objective) => {
            return match objective.reference() {
                Reference::Model if full => None,
                Reference::Model => {
                    Some("an adapter run already uses the base as its reference".into())
                }
                _ => Some("the run holds no reference model".into()),
            };
        }
        _ => {}
    }
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
            objective: Objective::Sft,
            weights_centi: None,
            cuda_gib: 121.69,
            now_centi: None,
            after_centi: [None; Rung::ALL.len()],
            moment: "run",
            weights_over: None,
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
    fn weights_over_the_budget_skip_every_step_that_cannot_make_room() {
        let mut l = ladder();
        let run = RunShape {
            method: Some(Method::Lora),
            weights_over: Some((14111, 11948)),
            ..shape()
        };
        assert_eq!(advance(&mut l, run), None);
        for rung in [Rung::Flush, Rung::Packing, Rung::Batch] {
            assert!(
                matches!(l.status(rung), RungStatus::Skipped(why) if why.contains("141.11 GB, over the 119.48 GB budget")),
                "{rung:?}: {:?}",
                l.status(rung)
            );
        }
        assert_eq!(l.awaiting, Awaiting::Exhausted);
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

    #[test]
    fn a_change_that_does_not_lower_the_peak_is_skipped_with_the_figures() {
        let mut l = ladder();
        l.set(Rung::Flush, RungStatus::Result(StepResult::StillOom));
        let mut after = [None; Rung::ALL.len()];
        after[5] = Some(9_013); // packing: no lower
        after[6] = Some(5_580); // batch: lower
        let run = RunShape {
            method: Some(Method::Lora),
            now_centi: Some(9_013),
            after_centi: after,
            ..shape()
        };
        assert_eq!(advance(&mut l, run), Some(Rung::Batch));
        assert_eq!(
            *l.status(Rung::Packing),
            RungStatus::Skipped(
                "the estimator puts the run at 90.13 GB with it, not below the 90.13 GB it is now"
                    .into()
            )
        );
        // A supervised run never sees the objective rungs, not even skipped.
        assert_eq!(*l.status(Rung::Generations), RungStatus::Open);
        assert_eq!(l.own_rungs().count(), 4);
    }
}
