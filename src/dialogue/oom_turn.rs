//! What headroom says on the OOM ladder: the step taken, its result, and
//! the next step (asked for approval first), with the estimator's figure
//! for every configuration change.

use crate::calc::objective::{Generator, Objective, ObjectiveSpec, Reference};
use crate::calc::setup::Method;
use crate::calc::units::{plain, show_centi};
use crate::dialogue::absorb::OomEvent;
use crate::dialogue::after_ladder::after_ladder;
use crate::dialogue::facts::{Facts, Known};
use crate::dialogue::ladder::FEWEST_GENERATIONS;
use crate::dialogue::ladder::{Awaiting, Ladder, RungStatus};
use crate::dialogue::plan_turn::{ask_for, build_plan, missing};
use crate::dialogue::session::{Session, when};
use crate::extract::oom::{Phase, Rung, StepResult};
use crate::knowledge::Knowledge;
use crate::reply::Block;
use std::fmt::Write;

fn total(facts: &Facts, k: &Knowledge) -> Option<(u64, u64, String)> {
    let (plan, _) = build_plan(facts, k)?;
    let nominal = if plan.budget.basis == crate::calc::budget::BudgetBasis::Nominal {
        " (a nominal idle-Spark budget: paste `free -g` for yours)"
    } else {
        ""
    };
    Some((
        plan.estimate.total_centi_gb,
        plan.budget.centi_gb,
        format!("{}{nominal}", plan.judgement.verdict.label()),
    ))
}

/// The facts after a rung's change, for the estimator's figure.
pub fn changed_facts(facts: &Facts, rung: Rung, at: jiff::Timestamp) -> Facts {
    let mut f = facts.clone();
    let words = format!("approved {}", rung.label());
    match rung {
        Rung::Packing => {
            if let Some(p) = &f.pack {
                f.pack = Some(Known {
                    value: p.value / 2,
                    words,
                    at,
                });
            }
        }
        Rung::Batch => {
            if let Some(b) = &f.batch {
                f.batch = Some(Known {
                    value: (b.value / 2).max(1),
                    words,
                    at,
                });
            }
        }
        Rung::Method => {
            f.method = Some(Known {
                value: Method::Lora,
                words: words.clone(),
                at,
            });
            f.dtype = Some(Known {
                value: crate::calc::setup::Dtype::Bf16,
                words,
                at,
            });
        }
        Rung::LoraReference => {
            f.method = Some(Known {
                value: Method::Lora,
                words,
                at,
            });
        }
        Rung::Generations | Rung::Completion | Rung::Colocate | Rung::Reference => {
            if let Some(o) = &f.objective
                && let Ok(built) = o.value.build()
            {
                let mut spec = o.value.clone();
                if let Some(edit) = ObjectiveEdit::of(rung, built) {
                    edit.apply(&mut spec);
                }
                f.objective = Some(Known {
                    value: spec,
                    words,
                    at,
                });
            }
        }
        Rung::Flush => {}
    }
    f
}

/// A preference or RL rung's change to the objective, worked out once for
/// both the plan after it and the words that show it: half the generations
/// (at least 2), half the completion, half the colocate fraction, the
/// reference precomputed.
enum ObjectiveEdit {
    Generations(u64, u64),
    Completion(u64, u64),
    Fraction(f64, f64),
    Precompute,
}

impl ObjectiveEdit {
    fn of(rung: Rung, built: Objective) -> Option<ObjectiveEdit> {
        Some(match (rung, built) {
            (Rung::Generations, Objective::Rl { generations, .. }) => {
                ObjectiveEdit::Generations(generations, (generations / 2).max(FEWEST_GENERATIONS))
            }
            (Rung::Completion, Objective::Rl { completion, .. }) => {
                ObjectiveEdit::Completion(completion, completion / 2)
            }
            (
                Rung::Colocate,
                Objective::Rl {
                    generator: Generator::Colocate { fraction, .. },
                    ..
                },
            ) => ObjectiveEdit::Fraction(fraction, halved_fraction(fraction)),
            (Rung::Reference, _) => ObjectiveEdit::Precompute,
            _ => return None,
        })
    }

    fn apply(&self, spec: &mut ObjectiveSpec) {
        match *self {
            ObjectiveEdit::Generations(_, to) => spec.generations = Some(to),
            ObjectiveEdit::Completion(_, to) => spec.completion = Some(to),
            ObjectiveEdit::Fraction(_, to) => spec.fraction = Some(to),
            ObjectiveEdit::Precompute => spec.reference = Some(Reference::Precomputed),
        }
    }

    /// Before → after, as the trainer spells the setting.
    fn describe(&self) -> String {
        match *self {
            ObjectiveEdit::Generations(from, to) => format!("num_generations {from} → {to}"),
            ObjectiveEdit::Completion(from, to) => format!("max_completion_length {from} → {to}"),
            ObjectiveEdit::Fraction(from, to) => format!(
                "vllm_gpu_memory_utilization {} → {}",
                plain(from),
                plain(to)
            ),
            ObjectiveEdit::Precompute => {
                "a reference model → precomputed reference log-probs".into()
            }
        }
    }
}

/// Half a vLLM fraction, to two decimals, rounded down.
fn halved_fraction(f: f64) -> f64 {
    (f * 50.0).floor() / 100.0
}

/// The objective's part a rung changes, before → after.
fn objective_change(facts: &Facts, rung: Rung) -> String {
    facts
        .objective
        .as_ref()
        .and_then(|o| o.value.build().ok())
        .and_then(|built| ObjectiveEdit::of(rung, built))
        .map(|edit| edit.describe())
        .unwrap_or_default()
}

fn figure(facts: &Facts, rung: Rung, k: &Knowledge) -> String {
    let (Some((now, budget, _)), Some((after, _, verdict))) = (
        total(facts, k),
        total(&changed_facts(facts, rung, jiff::Timestamp::UNIX_EPOCH), k),
    ) else {
        return String::new();
    };
    let change = match rung {
        Rung::Packing => facts
            .pack
            .as_ref()
            .map(|p| format!("packing {} → {}", p.value, p.value / 2))
            .unwrap_or_default(),
        Rung::Batch => facts
            .batch
            .as_ref()
            .map(|b| format!("batch {} → {}", b.value, (b.value / 2).max(1)))
            .unwrap_or_default(),
        Rung::Method => "QLoRA → bf16 LoRA".into(),
        Rung::LoraReference => "full → LoRA".into(),
        Rung::Generations | Rung::Completion | Rung::Colocate | Rung::Reference => {
            objective_change(facts, rung)
        }
        Rung::Flush => String::new(),
    };
    format!(
        " The estimator for {change}: {} GB (now {} GB) against the {} GB budget: {verdict}.",
        show_centi(after),
        show_centi(now),
        show_centi(budget)
    )
}

const DEQUANT: &str = "bitsandbytes dequantizes each 4-bit weight to bf16 for every forward and backward; those buffers are transient CUDA-side allocations that can OOM before an equivalent bf16 LoRA run does, so a QLoRA OOM is not proof the model does not fit.";

/// The question that proposes a rung; nothing it says is a command to run
/// until the owner approves.
pub fn proposal(rung: Rung, facts: &Facts, k: &Knowledge) -> String {
    match rung {
        Rung::Flush => "Step 1 of the OOM ladder: flush the page cache between runs. Page cache left by earlier runs' safetensors holds pool memory that CUDA allocations cannot take back fast enough on unified memory. It needs root and must never run mid-training. It changes system state, so it is your call: shall I give you the command? (yes/no)".into(),
        Rung::Packing => format!(
            "Step 2 of the OOM ladder: shorter packing first.{} It changes the job's configuration, so it is your call: go ahead? (yes/no)",
            figure(facts, rung, k)
        ),
        Rung::Batch => format!(
            "Step 2 of the OOM ladder, second half: a smaller batch.{} It changes the job's configuration: go ahead? (yes/no)",
            figure(facts, rung, k)
        ),
        Rung::Method => format!(
            "Step 3 of the OOM ladder: QLoRA → bf16 LoRA. {DEQUANT}{} It changes the job's method: go ahead? (yes/no)",
            figure(facts, rung, k)
        ),
        Rung::Generations => format!(
            "Next for this RL run: fewer generations per prompt. Each prompt's completions go through the policy's forward and backward together, so the step's activations, logits and rollout log-probs scale with them; fewer also makes the group's advantage estimate noisier.{} It changes the job's configuration (num_generations, which must still divide the generation batch), so it is your call: go ahead? (yes/no)",
            figure(facts, rung, k)
        ),
        Rung::Completion => format!(
            "Next for this RL run: shorter completions. Only completion tokens are scored, so the logits and rollout log-probs scale with max_completion_length; completions cut short lose their ends (and their reward).{} It changes the job's configuration: go ahead? (yes/no)",
            figure(facts, rung, k)
        ),
        Rung::Colocate => format!(
            "Next for this RL run: a lower colocate fraction. vLLM claims its whole vllm_gpu_memory_utilization share of the pool when it starts, weights and KV cache, so less of it leaves the policy step more; a smaller KV cache generates fewer sequences at once (slower rollouts).{} It changes the job's configuration: go ahead? (yes/no)",
            figure(facts, rung, k)
        ),
        Rung::Reference => format!(
            "Next for this preference run: precompute the reference log-probs (TRL `precompute_ref_log_probs=True`) so no frozen reference model is held during the steps; the loss is the same, computed from the cached values.{} It changes the job's configuration: go ahead? (yes/no)",
            figure(facts, rung, k)
        ),
        Rung::LoraReference => format!(
            "Next: train LoRA adapters instead of the full model; with PEFT the reference is the base with the adapter disabled, so the frozen copy, the gradients and the optimizer state of the full model all go.{} It changes the job's method: go ahead? (yes/no)",
            figure(facts, rung, k)
        ),
    }
}

/// What an approved flush comes before.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlushFor {
    /// A run that OOMed: restart it.
    Retry,
    /// An inference server that died for memory: relaunch it.
    Relaunch,
    /// A run that fits only once the page cache is returned: launch it.
    Launch,
}

/// What to do once the owner approved a rung; `flush_for` says what the
/// flush is before.
pub fn applied(
    rung: Rung,
    facts: &Facts,
    k: &Knowledge,
    flush_for: FlushFor,
) -> (String, Vec<String>) {
    let tell = match flush_for {
        FlushFor::Relaunch => {
            " Then relaunch the server and tell me whether it still dies (a `free -g` pasted before the relaunch shows what it will find)."
        }
        FlushFor::Launch => {
            " Then paste a fresh `free -g` before you launch: `free` should have grown by about the buff/cache it returned."
        }
        FlushFor::Retry => " Restart the run and tell me whether it still OOMs.",
    };
    match rung {
        Rung::Flush => {
            let c = k.command("drop-caches").command.clone();
            (
                format!(
                    "Approved. Run it yourself (headroom never runs commands), between runs and never while training, as root: `{c}` (for example `sudo sh -c '{c}'`).{tell}"
                ),
                vec![c],
            )
        }
        Rung::Packing | Rung::Batch => {
            let what = match rung {
                Rung::Packing => facts
                    .pack
                    .as_ref()
                    .map(|p| format!("Set the packing length (max_seq_length) to {}.", p.value)),
                _ => facts.batch.as_ref().map(|b| {
                    format!(
                        "Set the batch size (per_device_train_batch_size) to {}.",
                        b.value
                    )
                }),
            }
            .unwrap_or_default();
            (
                format!("Approved. {what} I now plan with it.{tell}"),
                Vec::new(),
            )
        }
        Rung::Method => (
            format!(
                "Approved. Load the model in bf16 without a 4-bit quantization config and keep the LoRA adapters; I now plan it as bf16 LoRA.{tell}"
            ),
            Vec::new(),
        ),
        Rung::LoraReference => (
            format!(
                "Approved. Give the trainer a LoRA config (peft_config) and no ref_model; I now plan it as LoRA with the base as its reference.{tell}"
            ),
            Vec::new(),
        ),
        Rung::Generations | Rung::Completion | Rung::Colocate | Rung::Reference => {
            let what = objective_setting(facts, rung);
            (
                format!("Approved. {what} I now plan with it.{tell}"),
                Vec::new(),
            )
        }
    }
}

/// The setting an approved objective rung leaves, as the trainer spells it.
fn objective_setting(facts: &Facts, rung: Rung) -> String {
    let Some(built) = facts.objective.as_ref().and_then(|o| o.value.build().ok()) else {
        return String::new();
    };
    match (rung, built) {
        (Rung::Generations, Objective::Rl { generations, .. }) => {
            format!("Set num_generations to {generations}.")
        }
        (Rung::Completion, Objective::Rl { completion, .. }) => {
            format!("Set max_completion_length to {completion}.")
        }
        (
            Rung::Colocate,
            Objective::Rl {
                generator: Generator::Colocate { fraction, .. },
                ..
            },
        ) => format!("Set vllm_gpu_memory_utilization to {}.", plain(fraction)),
        (Rung::Reference, _) => "Set precompute_ref_log_probs=True (TRL DPOConfig).".into(),
        _ => String::new(),
    }
}

fn status_text(s: &RungStatus) -> String {
    match s {
        RungStatus::Open => "not yet".into(),
        RungStatus::Proposed => "proposed, waiting for your yes or no".into(),
        RungStatus::Declined => "you declined it".into(),
        RungStatus::Applied => "approved, waiting for the result".into(),
        RungStatus::Result(StepResult::StillOom) => "done, still OOM".into(),
        RungStatus::Result(StepResult::Fixed) => "done, it fixed the OOM".into(),
        RungStatus::Skipped(why) => format!("skipped: {why}"),
        RungStatus::OwnerDid(words) => format!("you did it yourself (\"{words}\")"),
    }
}

/// The ladder in one line, for the greeting: where it stands and the step
/// in flight.
pub fn ladder_line(ladder: &Ladder) -> String {
    if ladder.resolved {
        return format!("resolved (OOM of {})", when(ladder.opened_at));
    }
    let steps: Vec<String> = ladder
        .own_rungs()
        .filter(|(_, s)| !matches!(s, RungStatus::Open))
        .map(|(rung, status)| format!("{}: {}", rung.label(), status_text(status)))
        .collect();
    format!(
        "OOM of {}{}; {}",
        when(ladder.opened_at),
        ladder
            .phase
            .map(|p| format!(" ({})", p.label()))
            .unwrap_or_default(),
        if steps.is_empty() {
            "no step tried yet".to_string()
        } else {
            steps.join("; ")
        }
    )
}

/// The ladder's state, one line per rung, for /status.
pub fn ladder_status(ladder: &Ladder) -> String {
    let mut md = format!(
        "OOM ladder for the OOM reported on {} ({}{}{}):\n\n",
        when(ladder.opened_at),
        ladder.phase.map_or("phase not known yet", Phase::label),
        ladder
            .at_step
            .map(|s| format!(", at step {s}"))
            .unwrap_or_default(),
        if ladder.resolved { ", resolved" } else { "" }
    );
    for (rung, status) in ladder.own_rungs() {
        let _ = writeln!(md, "- {}: {}", rung.label(), status_text(status));
    }
    md
}

/// What the ladder needs next, as a question or the options after it.
pub fn next_question(session: &Session, k: &Knowledge) -> String {
    let Some(ladder) = &session.ladder else {
        return String::new();
    };
    match &ladder.awaiting {
        Awaiting::Phase => {
            "Was it mid-load (while loading shards) or mid-step (during training steps)?".into()
        }
        Awaiting::Facts => format!(
            "To give figures for each step I need what the job was running. {}",
            job_settings_ask(session)
        ),
        Awaiting::DidFlush => {
            "Before going on: did you flush the page cache between runs (step 1)? (yes/no)".into()
        }
        // Step 1 is proposed before the run is known; the steps after it
        // need the settings, asked for once, beside it.
        Awaiting::Approval(Rung::Flush) if !job_settings_missing(session).is_empty() => format!(
            "{} For the steps after it I need what the job was running. {}",
            proposal(Rung::Flush, &session.facts, k),
            job_settings_ask(session)
        ),
        Awaiting::Approval(r) => proposal(*r, &session.facts, k),
        Awaiting::Result(_) => {
            "Tell me how it went: \"still OOMs\" (or paste the new error), or \"it works\".".into()
        }
        Awaiting::Exhausted => after_ladder(session, k),
        Awaiting::Nothing => String::new(),
    }
}

/// The run's settings the ladder's figures need (not `free` or the dtype).
fn job_settings_missing(session: &Session) -> Vec<crate::dialogue::facts::SlotName> {
    missing(&session.facts)
        .into_iter()
        .filter(|s| {
            !matches!(
                s,
                crate::dialogue::facts::SlotName::Free | crate::dialogue::facts::SlotName::Dtype
            )
        })
        .collect()
}

fn job_settings_ask(session: &Session) -> String {
    ask_for(&job_settings_missing(session), &session.facts)
}

/// Mid-load OOMs: why loading needs more than training's steady state.
pub fn load_note(session: &Session, k: &Knowledge) -> Option<String> {
    let ladder = session.ladder.as_ref()?;
    if ladder.phase != Some(Phase::MidLoad) {
        return None;
    }
    let plan = build_plan(&session.facts, k).map(|(plan, _)| plan);
    let figure = plan
        .as_ref()
        .map(|plan| {
            format!(
                " For this run the estimator puts the load-time peak at {}.",
                plan.estimate.load.formula
            )
        })
        .unwrap_or_default();
    // Weights that alone exceed the budget are no transient to flush away.
    if let Some(plan) = &plan
        && let Some(w) = plan.estimate.terms.iter().find(|t| t.key == "weights")
        && w.centi_gb >= plan.budget.centi_gb
    {
        return Some(format!(
            "This is not a transient: the weights alone are {} GB, more than the {} GB budget, so this model cannot load on one Spark at this precision, whatever the packing or batch, and a flush cannot make room for it.{figure}",
            crate::calc::units::show_centi(w.centi_gb),
            crate::calc::units::show_centi(plan.budget.centi_gb)
        ));
    }
    Some(format!(
        "A mid-load OOM is the load-time transient: loading safetensors mmaps each shard (page cache) and copies it into CUDA tensors, and on a Spark both count against the one pool at once, on top of the pages of shards already read.{figure}"
    ))
}

/// The plan's own figure for the run as it is, for context on the ladder.
fn plan_line(session: &Session, k: &Knowledge) -> Option<String> {
    plan_figure(
        session,
        k,
        "For context, the estimator's figure for this run as planned,",
    )
}

/// The run as planned once an approved step changed it.
pub fn changed_run_line(session: &Session, k: &Knowledge) -> Option<String> {
    plan_figure(session, k, "Now planned:")
}

fn plan_figure(session: &Session, k: &Knowledge, lead: &str) -> Option<String> {
    let (plan, _) = build_plan(&session.facts, k)?;
    let f = &session.facts;
    let assumed: Vec<&str> = [
        ("dtype", f.dtype.is_none()),
        ("batch", f.batch.is_none()),
        (
            "packing",
            missing(f).contains(&crate::dialogue::facts::SlotName::Pack),
        ),
    ]
    .into_iter()
    .filter_map(|(name, missing)| missing.then_some(name))
    .collect();
    let assumed = if assumed.is_empty() {
        String::new()
    } else {
        format!("; {} assumed until you tell me yours", assumed.join(", "))
    };
    Some(format!(
        "{lead} {}{assumed}: peak {} GB ({} binds) against the {} GB budget{}: {}.",
        crate::dialogue::whatif::summary(&plan).title,
        show_centi(plan.estimate.total_centi_gb),
        plan.estimate.binding.label(),
        show_centi(plan.budget.centi_gb),
        if plan.budget.basis == crate::calc::budget::BudgetBasis::Nominal {
            plan.budget.nominal_words()
        } else {
            String::new()
        },
        plan.judgement.verdict.label()
    ))
}

/// Does the run fit by the plan's own figures? Then an OOM points at the
/// pool (another process, page cache), not at the run.
fn plan_fits(session: &Session, k: &Knowledge) -> bool {
    build_plan(&session.facts, k)
        .is_some_and(|(p, _)| p.judgement.verdict == crate::calc::verdict::Verdict::Fits)
}

/// The pool suspicion: ask for the evidence before anything drastic.
fn pool_suspicion(k: &Knowledge) -> String {
    format!(
        "By the plan's own figures this run fits, so before anything drastic (a smaller model) suspect the pool: something else may hold memory, or page cache may not have been returned. Paste what `{}` and `{}` print on the Spark now.",
        k.command("free").command,
        k.command("procs").command
    )
}

/// The ladder's order for this run: the seed's three steps, with a
/// preference or RL run's own steps after step 1.
fn order_line(session: &Session) -> String {
    const SEED: &str = "(1) flush the page cache between runs, (2) shorter packing, then a smaller batch, (3) QLoRA → bf16 LoRA";
    let objective = session.facts.objective_or_sft();
    if objective == Objective::Sft {
        return SEED.into();
    }
    let rest: Vec<&str> = Rung::ALL
        .into_iter()
        .skip(1)
        .filter(|r| crate::dialogue::ladder::belongs(*r, objective))
        .map(Rung::short)
        .collect();
    format!(
        "(1) flush the page cache between runs, then for this {} run: {}",
        objective.label(),
        rest.join(", ")
    )
}

/// What the ladder says for this turn's event, then what it needs next.
pub fn oom_blocks(session: &Session, event: &OomEvent, k: &Knowledge) -> Vec<Block> {
    let Some(ladder) = &session.ladder else {
        return Vec::new();
    };
    let mut out = Vec::new();
    // Each text once: a step's result and the exhausted ladder may both
    // raise the pool suspicion.
    let mut push = |t: String| {
        if !t.is_empty() && !out.iter().any(|b| matches!(b, Block::Text(x) if *x == t)) {
            out.push(Block::Text(t))
        }
    };
    match event {
        OomEvent::Opened => {
            let mut md = format!("OOM noted: \"{}\"", ladder.evidence);
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
            md.push_str(&format!(
                ". I work the OOM ladder in order, never skipping ahead, and each step's result comes before the next: {}.",
                order_line(session)
            ));
            push(md);
            push(plan_line(session, k).unwrap_or_default());
            if let Some(figures) = &ladder.figures {
                let plan = build_plan(&session.facts, k).map(|(p, _)| p);
                push(crate::dialogue::oom_figures_note::figures_note(
                    figures,
                    plan.as_ref(),
                ));
            }
        }
        OomEvent::MoreEvidence => {
            if let Some(figures) = &ladder.figures {
                let plan = build_plan(&session.facts, k).map(|(p, _)| p);
                push(crate::dialogue::oom_figures_note::figures_note(
                    figures,
                    plan.as_ref(),
                ));
            }
            // More of the same OOM changes no step: the ladder in one line,
            // not reprinted.
            if !matches!(ladder.awaiting, Awaiting::Approval(_)) {
                push("This changes no step of the OOM ladder above.".into());
                return out;
            }
        }
        OomEvent::PhaseSet => push(format!(
            "Noted: {}.",
            ladder.phase.map_or("", |p| p.label())
        )),
        OomEvent::Result(rung, StepResult::StillOom) => {
            push(format!(
                "{}: done, the OOM persists.",
                crate::text::capitalised(rung.label())
            ));
            let mid_load = ladder.phase == Some(Phase::MidLoad);
            if mid_load && *rung == Rung::Flush {
                push("It dies while loading, and shorter packing or a smaller batch does not change what loading needs: the load-time peak is the weights plus the shard in flight, before any batch exists. Step 2 is still the next rung in order, but expect it to help only if the OOM moves past loading.".into());
            }
            if plan_fits(session, k) {
                push(pool_suspicion(k));
            }
        }
        OomEvent::Result(rung, StepResult::Fixed) => push(format!(
            "{}: done, and the OOM is gone. The ladder is closed; tell me if it comes back.",
            crate::text::capitalised(rung.label())
        )),
        OomEvent::Jumped(rungs) => push(format!(
            "Noted: you already did {}.",
            crate::text::join_and(
                &rungs
                    .iter()
                    .map(|r| r.label().to_string())
                    .collect::<Vec<_>>()
            )
        )),
        OomEvent::DidFlush(true) => {
            push("Noted: you flushed the page cache between runs (step 1).".into())
        }
        OomEvent::DidFlush(false) => {
            push("Noted: the page cache was not flushed, so step 1 comes first.".into())
        }
        OomEvent::FactsGiven | OomEvent::Asked => {}
    }
    if matches!(event, OomEvent::Opened | OomEvent::PhaseSet) {
        if let Some(note) = load_note(session, k) {
            push(note);
        }
        // A QLoRA OOM, at load or mid-step, is where an owner concludes
        // "the model does not fit": the dequantization buffers say why not.
        let qlora = session
            .facts
            .method
            .as_ref()
            .is_some_and(|m| m.value == Method::Qlora);
        if qlora && matches!(event, OomEvent::Opened) {
            push(DEQUANT.to_string());
        }
    }
    let next = next_question(session, k);
    let exhausted_but_fits = ladder.awaiting == Awaiting::Exhausted && plan_fits(session, k);
    if exhausted_but_fits {
        push(pool_suspicion(k));
    } else {
        push(next);
    }
    push(ladder_status(ladder).trim_end().to_string());
    out
}
