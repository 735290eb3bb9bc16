//! A whole headroom plan: the estimate, the budget, the verdict, the anchors
//! and, when it is close, what shorter packing or a smaller batch would need.

use crate::calc::anchors::{AnchorComparison, closest};
use crate::calc::budget::{Budget, from_free, nominal};
use crate::calc::estimate::{Estimate, estimate};
use crate::calc::setup::{Optimizer, PlanInput, Sharding};
use crate::calc::solve::Solution;
use crate::calc::verdict::{Judgement, Verdict, judge};
use crate::knowledge::Knowledge;
use crate::readings::memory::FreeReading;
use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Alternative {
    pub change: String,
    pub total_centi_gb: u64,
    pub verdict: Verdict,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Plan {
    pub input: PlanInput,
    pub estimate: Estimate,
    pub budget: Budget,
    pub judgement: Judgement,
    pub anchors: Vec<AnchorComparison>,
    pub alternatives: Vec<Alternative>,
    /// Inputs that took a default rather than the owner's answer.
    pub assumptions: Vec<crate::calc::defaults::Assumption>,
    /// Facts about this set-up the owner should know (paging, multi-Spark).
    pub notes: Vec<String>,
    /// The longest packing or largest batch that fits, when asked.
    pub solution: Option<Solution>,
    /// Changes beyond packing and batch that fit, with their peaks in
    /// hundredths of a GB ("QLoRA (a 4-bit base)", a smaller model): the
    /// dialogue fills them for a plan it shows that does not fit.
    pub instead: Vec<(String, u64)>,
}

/// The plan judged again against another budget (the nominal one less
/// what the servers beside it hold).
pub fn judged_against(mut plan: Plan, budget: Budget, k: &Knowledge) -> Plan {
    plan.judgement = judge(plan.estimate.total_centi_gb, budget.centi_gb, k);
    plan.alternatives = if plan.judgement.verdict == Verdict::Fits {
        Vec::new()
    } else {
        alternatives(&plan.input, &budget, k)
    };
    plan.budget = budget;
    plan
}

pub fn make_plan(
    input: PlanInput,
    free: Option<&FreeReading>,
    assumptions: Vec<crate::calc::defaults::Assumption>,
    k: &Knowledge,
) -> Plan {
    let est = estimate(&input, k);
    let budget = free.map_or_else(|| nominal(k), |r| from_free(r, k));
    let judgement = judge(est.total_centi_gb, budget.centi_gb, k);
    let alternatives = if judgement.verdict == Verdict::Fits {
        Vec::new()
    } else {
        alternatives(&input, &budget, k)
    };
    let mut notes = notes(&input, &est);
    notes.extend(generator_note(&input, &est, budget.centi_gb, k));
    Plan {
        anchors: closest(&input, 2, k),
        notes,
        solution: None,
        instead: Vec::new(),
        input,
        estimate: est,
        budget,
        judgement,
        alternatives,
        assumptions,
    }
}

fn notes(input: &PlanInput, est: &Estimate) -> Vec<String> {
    let mut out = Vec::new();
    if input.optimizer.is_paged() {
        out.push(format!(
            "{} pages optimizer state between GPU and CPU memory; on a Spark both are the one pool, so paging adds no capacity and the plan counts every byte against the budget.",
            input.optimizer.key()
        ));
    }
    if input.optimizer == Optimizer::Adafactor && input.method.uses_adapter() {
        out.push(
            "Adafactor on LoRA adapters saves little: the adapters are small next to the weights."
                .into(),
        );
    }
    if input.nodes > 1 {
        out.push(match input.sharding {
            Sharding::Ddp => format!(
                "Per Spark, with DDP across {} Sparks: each holds the whole model, its gradients and optimizer states, and its own micro-batch.",
                input.nodes
            ),
            Sharding::Fsdp => format!(
                "Per Spark, with FSDP across {} Sparks: weights, adapter, gradients and optimizer states are split {} ways; activations and logits stay per micro-batch.",
                input.nodes, input.nodes
            ),
        });
    }
    let _ = est;
    out
}

/// The seed's order: halve the packing length until the run fits (not
/// below 256 tokens), then halve the batch at that packing length.
fn alternatives(input: &PlanInput, budget: &Budget, k: &Knowledge) -> Vec<Alternative> {
    const SHORTEST_PACK: u64 = 256;
    let mut out: Vec<Alternative> = Vec::new();
    let mut current = input.clone();
    let fits = |out: &Vec<Alternative>| out.last().is_some_and(|a| a.verdict == Verdict::Fits);
    let step = |changed: &PlanInput, out: &mut Vec<Alternative>| {
        let total = estimate(changed, k).total_centi_gb;
        let change = if changed.batch == input.batch {
            format!("packing {} → {}", input.pack, changed.pack)
        } else {
            format!(
                "packing {} → {} and batch {} → {}",
                input.pack, changed.pack, input.batch, changed.batch
            )
        };
        out.push(Alternative {
            change,
            total_centi_gb: total,
            verdict: judge(total, budget.centi_gb, k).verdict,
        });
    };
    while current.pack / 2 >= SHORTEST_PACK && !fits(&out) {
        current.pack /= 2;
        step(&current, &mut out);
    }
    while current.batch > 1 && !fits(&out) {
        current.batch /= 2;
        step(&current, &mut out);
    }
    out
}

/// For an RL run: the largest vLLM fraction that leaves the policy step its
/// peak, colocated (inside this process) or as a server beside it.
/// The RL generator's note for a built plan: what it holds and the largest
/// fraction that leaves the policy step its peak.
pub fn generator_solve(plan: &Plan, k: &Knowledge) -> Option<String> {
    generator_note(&plan.input, &plan.estimate, plan.budget.centi_gb, k)
}

fn generator_note(input: &PlanInput, est: &Estimate, budget: u64, k: &Knowledge) -> Option<String> {
    use crate::calc::objective::{Generator, Objective, largest_fraction};
    use crate::calc::units::show_centi;
    let Objective::Rl { generator, .. } = input.objective else {
        return None;
    };
    let cuda = k.spark("memory CUDA reports");
    let cuda_centi = (cuda.value * crate::calc::units::GIB / 1e7).round() as u64;
    // A colocated generator starts after the policy is loaded, so only
    // the step carries it; a server (trl vllm-serve) is up before the
    // trainer starts, so it sits beside every moment, loading included.
    let without = match generator {
        Generator::Server => est.total_centi_gb,
        _ => est.step_centi_gb - est.centi("generator"),
    };
    let without_what = match generator {
        Generator::Server => format!("run peak ({} binds)", est.binding.label()),
        _ => "step without vLLM".to_string(),
    };
    let shared = match generator {
        Generator::Colocate { shared: true, .. } => est.centi("weights"),
        _ => 0,
    };
    let largest = largest_fraction(budget, without, shared, cuda_centi);
    let arithmetic = format!(
        "({} GB budget − {} GB {without_what}{}) ÷ {} GB CUDA reports",
        show_centi(budget),
        show_centi(without),
        if shared > 0 {
            format!(" + {} GB of weights it shares", show_centi(shared))
        } else {
            String::new()
        },
        show_centi(cuda_centi)
    );
    let f = largest.map_or("none: the step alone fills the budget".to_string(), |f| {
        format!("{f:.2}")
    });
    Some(match generator {
        Generator::Colocate { fraction, .. } => format!(
            "The generation binds with the policy step: colocated vLLM holds its {fraction} share ({}) through every step. The largest vllm_gpu_memory_utilization that leaves the step its peak: {arithmetic} = {f}. On a Spark the fraction is of the whole pool CUDA reports, so 0.3 is {} GB, not 30 % of a discrete card.",
            cuda.cite,
            show_centi(crate::calc::units::centi_gb_up(0.3 * cuda.value * crate::calc::units::GIB))
        ),
        Generator::Server => format!(
            "vLLM runs as its own process (trl vllm-serve): the pool's second tenant, not part of this step, and up before the trainer starts. The largest --gpu-memory-utilization for it beside the run: {arithmetic} = {f}."
        ),
        Generator::Policy => "Completions come from the policy's own generate(): no second copy of the weights and no KV-cache share, at the cost of much slower generation.".to_string(),
    })
}

/// For a tight or over-budget plan, the cheapest changes that fit; when
/// none does, the best of them, so the owner sees why.
pub fn to_fit(plan: &Plan) -> Option<String> {
    if plan.judgement.verdict == Verdict::Fits || plan.alternatives.is_empty() {
        return None;
    }
    let show = |a: &crate::calc::plan::Alternative| {
        format!(
            "{}: {} GB ({})",
            a.change,
            crate::calc::units::show_centi(a.total_centi_gb),
            a.verdict.label()
        )
    };
    let fitting: Vec<String> = plan
        .alternatives
        .iter()
        .filter(|a| a.verdict != Verdict::DoesNotFit)
        .take(2)
        .map(show)
        .collect();
    if !fitting.is_empty() {
        return Some(format!("To fit: {}.", fitting.join("; ")));
    }
    let best = plan.alternatives.iter().min_by_key(|a| a.total_centi_gb)?;
    let instead: Vec<String> = plan
        .instead
        .iter()
        .take(2)
        .map(|(what, centi)| format!("{what} {} GB", crate::calc::units::show_centi(*centi)))
        .collect();
    let what_would = if instead.is_empty() {
        String::new()
    } else {
        format!("; what would: {}", instead.join(", or "))
    };
    Some(format!(
        "Shorter packing or a smaller batch does not fit either ({}: {} GB){what_would}.",
        best.change,
        crate::calc::units::show_centi(best.total_centi_gb)
    ))
}
