//! The headroom-plan workflow: what is still missing, the question that asks
//! for it, and the plan once everything is known.

use crate::calc::defaults::{Choices, complete};
use crate::calc::model_spec::{from_catalog, from_config, from_params};
use crate::calc::plan::{Plan, make_plan};
use crate::calc::setup::ModelSpec;
use crate::calc::solve::{SolveFor, solve};
use crate::dialogue::facts::{Facts, Known, ModelChoice, SlotName, show_model};
use crate::dialogue::session::{PlanRecord, Session, age, hours_between, when};
use crate::knowledge::Knowledge;
use crate::reply::{Block, InputLine, PlanDetail, PlanView, Reply, ReplyKind};
use jiff::Timestamp;
use std::fmt::Write;

/// The inputs a plan cannot be made without, in the seed's order. `free`
/// is not among them: without it the plan uses an idle Spark's nominal
/// budget and says so.
/// Has the owner begun describing a run? A framework named beside a log,
/// or a `free` paste alone, is not a run to ask the rest of.
pub fn plan_begun(facts: &Facts) -> bool {
    facts.model.is_some()
        || facts.method.is_some()
        || facts.dtype.is_some()
        || facts.batch.is_some()
        || facts.pack.is_some()
        || facts.objective.is_some()
}

pub fn missing(facts: &Facts) -> Vec<SlotName> {
    let mut out = Vec::new();
    if facts.model.is_none() {
        out.push(SlotName::Model);
    }
    if facts.method.is_none() {
        out.push(SlotName::Method);
    }
    // The dtype is not asked: bf16 is what the stacks load in on a Spark,
    // and the plan states it under "Assumed" where one word changes it
    // (asking for it while what-ifs and server answers already priced
    // bf16 was the inconsistency set 14 found, six turns of it).
    if facts.batch.is_none() {
        out.push(SlotName::Batch);
    }
    // An RL run's sequence is its prompt and completion: given both, the
    // packing is theirs.
    let rl_lengths = facts
        .objective
        .as_ref()
        .is_some_and(|o| o.value.prompt.is_some() && o.value.completion.is_some());
    if facts.pack.is_none() && !rl_lengths {
        out.push(SlotName::Pack);
    }
    out
}

fn ask_line(slot: SlotName) -> &'static str {
    crate::dialogue::slot_table::def(slot).ask
}

/// One message asking for everything still missing (and `free -g`, which
/// makes the verdict yours rather than an idle Spark's, unless it was
/// given: nothing already answered is asked again).
pub fn ask_for(missing: &[SlotName], facts: &Facts) -> String {
    let mut md = String::from("To plan this run I still need:\n\n");
    for slot in missing {
        let _ = writeln!(md, "- {}", ask_line(*slot));
    }
    if facts.free.is_none() {
        let _ = writeln!(
            md,
            "- and, to confirm the verdict, {}",
            ask_line(SlotName::Free)
        );
    }
    md.push_str("\nSay them in any order, in one message or several.");
    md
}

fn origin<T>(known: &Known<T>) -> String {
    format!("you said \"{}\" on {}", known.words, when(known.at))
}

pub fn model_spec(choice: &ModelChoice, k: &Knowledge) -> Option<ModelSpec> {
    match choice {
        ModelChoice::Catalog(name) => k.model(name).map(from_catalog),
        ModelChoice::Params(p) => Some(from_params(*p, k)),
        ModelChoice::Config { arch, label } => Some(from_config(arch.clone(), label)),
    }
}

fn input_lines(facts: &Facts, spec: &ModelSpec) -> Vec<InputLine> {
    let mut lines = Vec::new();
    if let Some(m) = &facts.model {
        lines.push(InputLine {
            name: "model",
            value: format!(
                "{} ({} params)",
                show_model(&m.value),
                crate::calc::units::grouped(spec.params)
            ),
            origin: origin(m),
        });
    }
    let mut push = |name, value: Option<String>, o: Option<String>| {
        if let (Some(value), Some(origin)) = (value, o) {
            lines.push(InputLine {
                name,
                value,
                origin,
            });
        }
    };
    push(
        "method",
        facts.method.as_ref().map(|m| m.value.label().to_string()),
        facts.method.as_ref().map(origin),
    );
    push(
        "dtype",
        facts.dtype.as_ref().map(|d| d.value.key().to_string()),
        facts.dtype.as_ref().map(origin),
    );
    push(
        "batch",
        facts.batch.as_ref().map(|b| b.value.to_string()),
        facts.batch.as_ref().map(origin),
    );
    push(
        "packing length",
        facts.pack.as_ref().map(|p| p.value.to_string()),
        facts.pack.as_ref().map(origin),
    );
    push(
        "optimizer",
        facts.optimizer.as_ref().map(|o| o.value.key().to_string()),
        facts.optimizer.as_ref().map(origin),
    );
    push(
        "gradient checkpointing",
        facts
            .checkpointing
            .as_ref()
            .map(|c| if c.value { "on" } else { "off" }.to_string()),
        facts.checkpointing.as_ref().map(origin),
    );
    push(
        "LoRA rank",
        facts.rank.as_ref().map(|r| r.value.to_string()),
        facts.rank.as_ref().map(origin),
    );
    push(
        "LoRA targets",
        facts.targets.as_ref().map(|t| t.value.label()),
        facts.targets.as_ref().map(origin),
    );
    push(
        "LoRA dropout",
        facts
            .dropout
            .as_ref()
            .map(|d| if d.value { "above 0" } else { "0" }.to_string()),
        facts.dropout.as_ref().map(origin),
    );
    push(
        "precision",
        facts
            .precision
            .as_ref()
            .map(|p| p.value.label().to_string()),
        facts.precision.as_ref().map(origin),
    );
    push(
        "attention",
        facts.attention.as_ref().map(|a| a.value.key().to_string()),
        facts.attention.as_ref().map(origin),
    );
    push(
        "loss",
        facts.loss.as_ref().map(|l| l.value.key().to_string()),
        facts.loss.as_ref().map(origin),
    );
    push(
        "objective",
        facts.objective.as_ref().map(|o| o.value.show()),
        facts.objective.as_ref().map(origin),
    );
    push(
        "Sparks",
        facts.nodes.as_ref().map(|n| n.value.to_string()),
        facts.nodes.as_ref().map(origin),
    );
    push(
        "trainer stack",
        facts.framework.as_ref().map(|f| f.value.clone()),
        facts.framework.as_ref().map(origin),
    );
    push(
        "sharding",
        facts.sharding.as_ref().map(|s| s.value.key().to_string()),
        facts.sharding.as_ref().map(origin),
    );
    push(
        "free output",
        facts.free.as_ref().map(|f| {
            format!(
                "`{}` with available {}",
                f.value.reading.unit.flag(),
                f.value.reading.available_text
            )
        }),
        facts
            .free
            .as_ref()
            .map(|f| format!("pasted on {}", when(f.at))),
    );
    lines
}

/// Is the saved `free` output older than the freshness rule allows?
pub fn stale_free(facts: &Facts, now: Timestamp, k: &Knowledge) -> Option<String> {
    let f = facts.free.as_ref()?;
    let limit = k.spark("fresh free output within");
    // A reading dated after now (a wrong clock, an edited record) is never
    // fresh.
    if f.at > now {
        return Some(format!(
            "Your `free -g` is dated {}, after now: I cannot tell how old it is, so paste a fresh `free -g` before launch.",
            when(f.at)
        ));
    }
    (hours_between(f.at, now) > limit.value).then(|| {
        format!(
            "Your `free -g` is from {} ({}). Memory use changes as servers and jobs start and stop, so paste a fresh `free -g` before launch (freshness rule: {} h, {}).",
            when(f.at),
            age(f.at, now),
            limit.value,
            limit.cite
        )
    })
}

/// The plan from the answers as they are now.
pub fn build_plan(facts: &Facts, k: &Knowledge) -> Option<(Plan, Vec<InputLine>)> {
    let model = model_spec(&facts.model.as_ref()?.value, k)?;
    let method = facts.method.as_ref()?.value;
    let choices = Choices {
        dtype: facts.dtype.as_ref().map(|d| d.value),
        optimizer: facts.optimizer.as_ref().map(|o| o.value),
        batch: facts.batch.as_ref().map(|b| b.value),
        pack: facts.pack.as_ref().map(|p| p.value),
        grad_checkpointing: facts.checkpointing.as_ref().map(|c| c.value),
        lora_rank: facts.rank.as_ref().map(|r| r.value),
        lora_targets: facts.targets.as_ref().map(|t| t.value.clone()),
        lora_dropout: facts.dropout.as_ref().map(|d| d.value),
        precision: facts.precision.as_ref().map(|p| p.value),
        attention: facts.attention.as_ref().map(|a| a.value),
        loss: facts.loss.as_ref().map(|l| l.value),
        nodes: facts.nodes.as_ref().map(|n| n.value),
        sharding: facts.sharding.as_ref().map(|s| s.value),
        eval_batch: facts.eval_batch.as_ref().map(|e| e.value),
        resumes: facts.resume.as_ref().map(|r| r.value),
        loader: facts.loader.as_ref().map(|l| l.value),
        prequantized: facts.prequantized.as_ref().map(|p| p.value),
        packed: facts.packed.as_ref().map(|p| p.value),
        preset: facts
            .framework
            .as_ref()
            .map(|f| crate::calc::runtime::preset(&f.value, k).clone()),
        objective: facts.objective.as_ref().and_then(|o| o.value.build().ok()),
    };
    let lines = input_lines(facts, &model);
    let (input, assumptions) = complete(model, method, &choices);
    let free = facts.free.as_ref().map(|f| &f.value.reading);
    let mut plan = make_plan(input, free, assumptions, k);
    let arch = &plan.input.model.arch;
    if arch.experts > 0 {
        plan.notes.push(format!(
            "{} is a mixture of experts: all {} experts of each layer stay resident in memory though each token runs through {}, so the weights and everything sized by them are planned on all {} parameters, not the active ones.",
            plan.input.model.display,
            arch.experts,
            arch.experts_per_token,
            crate::calc::units::grouped(plan.input.model.params)
        ));
    }
    if facts.offload.as_ref().is_some_and(|o| o.value) {
        plan.notes.push(
            "You offload to CPU memory: on a Spark that is the same pool, so offloading adds no capacity; the plan counts every offloaded byte against the same budget."
                .into(),
        );
    }
    Some((plan, lines))
}

/// The plan judged against the pool as the session knows it: without a
/// `free` paste, the servers pasted beside the run (Ollama's models, vLLM's
/// fraction) hold their share of the idle budget, in every verdict.
pub fn in_pool(plan: Plan, held: &[(String, u64)], k: &Knowledge) -> Plan {
    if held.is_empty() {
        return plan;
    }
    let budget = plan.budget.clone().less_held(held.to_vec());
    crate::calc::plan::judged_against(plan, budget, k)
}

/// `build_plan`, judged in the session's pool.
pub fn pooled_plan(
    session: &Session,
    facts: &Facts,
    k: &Knowledge,
) -> Option<(Plan, Vec<InputLine>)> {
    let (plan, lines) = build_plan(facts, k)?;
    let held = crate::dialogue::pool_turn::held_beside(session, k);
    let mut plan = in_pool(plan, &held, k);
    // Beyond packing and batch, what would fit (on an empty pool; beside
    // servers, stopping one is the pool answer's).
    if plan.judgement.verdict == crate::calc::verdict::Verdict::DoesNotFit
        && plan.budget.beside.is_empty()
    {
        plan.instead = crate::dialogue::after_ladder::fitting_changes(facts, k);
    }
    Some((plan, lines))
}

pub fn plan_reply(
    session: &mut Session,
    now: Timestamp,
    solve_for: Option<SolveFor>,
    detail: PlanDetail,
    k: &Knowledge,
) -> Option<Reply> {
    let (mut plan, lines) = pooled_plan(session, &session.facts, k)?;
    let mut oom_note = None;
    let mut detail = detail;
    if let Some(what) = solve_for {
        // "largest batch that fits at packing 1024?": solved with the
        // what-if the same turn put beside the run.
        let asked_beside = session
            .what_if
            .as_ref()
            .filter(|w| w.at == now)
            .and_then(|w| {
                build_plan(
                    &crate::dialogue::whatif::hypothetical(&session.facts, &w.value),
                    k,
                )
            })
            .map(|(p, _)| p.input);
        let solution = solve(
            asked_beside.as_ref().unwrap_or(&plan.input),
            what,
            &plan.budget,
            k,
        );
        // A run that died for memory at its own value: the estimator's
        // longer or larger value is no guide, the OOM is the evidence.
        let oom_open = session
            .ladder
            .as_ref()
            .is_some_and(|l| l.active() && !l.resolved);
        if oom_open
            && solution
                .fits
                .or(solution.within_budget)
                .is_some_and(|v| v >= solution.current)
        {
            let noun = match what {
                SolveFor::Pack => "packing",
                SolveFor::Batch => "batch",
            };
            oom_note = Some(format!(
                "Your run died for memory at {noun} {cur}, though I put it at {} GB of the {} GB budget, so the longest {noun} the estimate allows is no guide here: the OOM says {cur} did not fit as the box was then. A value to try is below {cur}, and the ladder decides which (step 1 first, then shorter packing, then a smaller batch).",
                crate::calc::units::show_centi(plan.estimate.total_centi_gb),
                crate::calc::units::show_centi(plan.budget.centi_gb),
                cur = solution.current,
            ));
        }
        // The value found is on the table like a what-if: "ok use that"
        // plans with it.
        // Only a tight value within the budget: that one, said tight.
        if oom_note.is_none()
            && let Some(v) = solution
                .fits
                .or(solution.within_budget)
                .filter(|v| *v != solution.current)
        {
            let (slot, words) = match what {
                SolveFor::Pack => (
                    crate::extract::slots::Slot::Pack(v),
                    format!("the longest packing that fits, {v}"),
                ),
                SolveFor::Batch => (
                    crate::extract::slots::Slot::Batch(v),
                    format!("the largest batch that fits, {v}"),
                ),
            };
            let mut value = session.what_if.take().map(|w| w.value).unwrap_or_default();
            value.retain(|f| {
                !matches!(
                    (&f.slot, what),
                    (crate::extract::slots::Slot::Pack(_), SolveFor::Pack)
                        | (crate::extract::slots::Slot::Batch(_), SolveFor::Batch)
                )
            });
            value.push(crate::extract::slots::Found {
                slot,
                words: words.clone(),
            });
            session.what_if = Some(Known {
                value,
                words,
                at: now,
            });
        }
        if oom_note.is_none() {
            plan.solution = Some(solution);
            // The plan itself was the last reply, unchanged: answer the
            // question, and name the verdict in one line.
            let shown = session.last_plan.as_ref().is_some_and(|last| {
                last.title == crate::dialogue::whatif::run_title(&plan)
                    && last.total_centi_gb == plan.estimate.total_centi_gb
                    && last.budget_centi_gb == plan.budget.centi_gb
            });
            if shown && asked_beside.is_none() && detail == PlanDetail::Brief {
                detail = PlanDetail::Solution;
            }
        }
    }
    let mut blocks: Vec<Block> = oom_note.into_iter().map(Block::Text).collect();
    if let Some(stale) = stale_free(&session.facts, now, k) {
        blocks.push(Block::Text(stale));
    }
    let nominal = plan.budget.basis == crate::calc::budget::BudgetBasis::Nominal;
    let verdict = plan.judgement.verdict;
    let (total, budget) = (plan.estimate.total_centi_gb, plan.budget.centi_gb);
    let title = crate::dialogue::whatif::run_title(&plan);
    blocks.push(Block::Plan(Box::new(PlanView {
        plan,
        inputs: lines,
        detail,
    })));
    // The one-screen answer says it is provisional in its verdict line.
    if nominal && detail == PlanDetail::Full {
        blocks.push(Block::Text(format!(
            "This verdict is provisional: it assumes an idle Spark. Run `{}` on the Spark and paste all three lines it prints to confirm it with your own memory.",
            k.command("free").command
        )));
    }
    session.last_plan = Some(PlanRecord {
        at: now,
        title,
        verdict,
        total_centi_gb: total,
        budget_centi_gb: budget,
    });
    Some(Reply {
        verdict: Some(verdict),
        ..Reply::of(ReplyKind::Plan, blocks)
    })
}
