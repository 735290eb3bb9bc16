//! Hypothetical runs: the plan as it is beside the plan with the owner's
//! "what if" applied, and the short "old → new" after a correction. Nothing
//! here changes the session's facts.

use crate::calc::budget::BudgetBasis;
use crate::calc::plan::Plan;
use crate::dialogue::facts::Facts;
use crate::dialogue::plan_turn::{build_plan, in_pool};
use crate::extract::slots::Found;
use crate::knowledge::Knowledge;
use crate::reply::{Block, PlanChange, PlanSummary, WhatIf};

/// Settings a one-line title leaves out unless two plans differ in them:
/// without them "before" and "after" would read the same but for the peak.
type Setting = fn(&crate::calc::setup::PlanInput) -> String;
const EXTRA_SETTINGS: &[Setting] = &[
    |i| {
        format!(
            "checkpointing {}",
            if i.grad_checkpointing { "on" } else { "off" }
        )
    },
    |i| format!("weights {}", i.weight_format.key()),
    // A full fine-tune has no adapter: its rank, targets and dropout are
    // blank, not "rank 0".
    |i| adapter(i, format!("rank {}", i.lora_rank)),
    |i| adapter(i, format!("targets {}", i.lora_targets.label())),
    |i| {
        adapter(
            i,
            format!("LoRA dropout {}", if i.lora_dropout { "on" } else { "off" }),
        )
    },
    |i| format!("precision {}", i.precision.key()),
    |i| format!("attention {}", i.attention.key()),
    |i| format!("loss {}", i.loss.key()),
    |i| format!("{} node(s) {}", i.nodes, i.sharding.key()),
    |i| format!("packed {}", if i.runtime.packed { "yes" } else { "no" }),
    |i| format!("eval batch {}", i.runtime.eval_batch),
    |i| format!("resuming {}", if i.runtime.resumes { "yes" } else { "no" }),
    |i| format!("loader {}", i.runtime.loader.label()),
];

fn adapter(i: &crate::calc::setup::PlanInput, setting: String) -> String {
    if i.method == crate::calc::setup::Method::Full {
        String::new()
    } else {
        setting
    }
}

/// The figures a short reply shows for one plan.
pub fn summary(plan: &Plan) -> PlanSummary {
    titled(plan, &[])
}

/// Two plans' summaries, each title naming every setting they differ in.
fn pair(a: &Plan, b: &Plan) -> (PlanSummary, PlanSummary) {
    let differing: Vec<Setting> = EXTRA_SETTINGS
        .iter()
        .copied()
        .filter(|f| f(&a.input) != f(&b.input))
        .collect();
    (titled(a, &differing), titled(b, &differing))
}

/// "Qwen2.5 7B LoRA (bf16, adamw, batch 2, pack 1536)": a plan named with
/// the settings its verdict rests on, for records read back later.
pub fn run_title(plan: &Plan) -> String {
    titled(plan, &[]).title
}

fn titled(plan: &Plan, extras: &[Setting]) -> PlanSummary {
    let i = &plan.input;
    let mut settings = vec![
        i.dtype.key().to_string(),
        i.optimizer.key().to_string(),
        format!("batch {}", i.batch),
        format!("pack {}", i.pack),
    ];
    settings.extend(extras.iter().map(|f| f(i)).filter(|s| !s.is_empty()));
    PlanSummary {
        title: format!(
            "{} {} ({})",
            i.model.display,
            i.method.label(),
            settings.join(", ")
        ),
        peak_centi_gb: plan.estimate.total_centi_gb,
        binding: plan.estimate.binding.label(),
        budget_centi_gb: plan.budget.centi_gb,
        nominal_words: (plan.budget.basis == BudgetBasis::Nominal)
            .then(|| plan.budget.nominal_words()),
        verdict: plan.judgement.verdict,
        now: crate::calc::budget::now(plan.estimate.total_centi_gb, &plan.budget)
            .map(|n| n.label()),
    }
}

/// The facts with the hypothetical slots applied.
pub fn hypothetical(facts: &Facts, what_if: &[Found]) -> Facts {
    let mut f = facts.clone();
    for found in what_if {
        let _ = f.absorb(found, jiff::Timestamp::UNIX_EPOCH);
    }
    f
}

/// "optimizer adamw → adamw_8bit" for each answer that differs.
pub fn changes(before: &Facts, after: &Facts) -> Vec<String> {
    let old = before.answered();
    after
        .answered()
        .into_iter()
        .filter_map(|(slot, value, ..)| {
            let prev = old
                .iter()
                .find(|(s, ..)| *s == slot)
                .map(|(_, v, ..)| v.clone());
            match prev {
                Some(p) if p == value => None,
                _ if slot == crate::dialogue::facts::SlotName::Free => Some(format!(
                    "budget from your memory paste ({value}) instead of {}",
                    prev.map_or("an idle Spark's nominal figure".into(), |p| format!(
                        "the earlier one ({p})"
                    ))
                )),
                Some(p) => Some(format!("{} {p} → {value}", slot.key())),
                None => Some(format!("{} {value}", slot.key())),
            }
        })
        .collect()
}

/// The run beside the what-if, when both can be planned.
pub fn what_if_block(
    facts: &Facts,
    what_if: &[Found],
    held: &[(String, u64)],
    k: &Knowledge,
) -> Option<Block> {
    let after = hypothetical(facts, what_if);
    let (now, _) = build_plan(facts, k)?;
    let (then, _) = build_plan(&after, k)?;
    let (now, then) = (in_pool(now, held, k), in_pool(then, held, k));
    // A what-if that changes nothing is the run itself: one line, not two
    // identical rows.
    if now.input == then.input {
        return Some(Block::Summary(Box::new(summary(&now))));
    }
    let (current, hypothetical) = pair(&now, &then);
    let same_peak = (current.peak_centi_gb == hypothetical.peak_centi_gb)
        .then(|| same_peak_reason(facts, &after))
        .flatten();
    Some(Block::WhatIf(Box::new(WhatIf {
        changes: changes(facts, &after),
        current,
        hypothetical,
        same_peak,
    })))
}

/// Why a what-if leaves the peak where it was. Only the generations have
/// a reason of their own (TRL counts completions in the batch); any other
/// change sizes nothing in the binding phase.
fn same_peak_reason(before: &Facts, after: &Facts) -> Option<String> {
    let gens = |f: &Facts| f.objective.as_ref().and_then(|o| o.value.generations);
    if gens(before) != gens(after) {
        let batch = after.batch.as_ref().map_or(1, |b| b.value);
        return Some(format!(
            "the step holds the same {batch} completion(s) either way: per_device_train_batch_size counts completions, not prompts (TRL GRPOConfig), so more generations per prompt take more steps (or more accumulation) per prompt, not more memory per step; colocated vLLM's KV cache stays inside its fraction"
        ));
    }
    let reference = |f: &Facts| f.objective.as_ref().and_then(|o| o.value.reference);
    let adapter = after
        .method
        .as_ref()
        .is_some_and(|m| m.value != crate::calc::setup::Method::Full);
    if reference(before) != reference(after) && adapter {
        return Some(
            "an adapter run's reference is its own base with the adapter switched off, so there is no second copy to drop, and the reference's forward pass keeps nothing for the backward; precomputing its log-probs saves that forward's time, not memory at the peak".into(),
        );
    }
    Some("nothing this change sizes is in the phase that binds".into())
}

/// "Changed: pack 2048 → 8192" with both plans' peaks and verdicts.
pub fn change_block(
    before: &Facts,
    after: &Facts,
    held: &[(String, u64)],
    k: &Knowledge,
) -> Option<Block> {
    let (old, _) = build_plan(before, k)?;
    let (new, _) = build_plan(after, k)?;
    let (old, new) = (in_pool(old, held, k), in_pool(new, held, k));
    let (before_summary, after_summary) = pair(&old, &new);
    // A new memory paste moves the budget, never the peak: nothing to explain.
    let budget_only = {
        let mut b = before.clone();
        b.free = after.free.clone();
        b == *after
    };
    let same_peak = (before_summary.peak_centi_gb == after_summary.peak_centi_gb && !budget_only)
        .then(|| same_peak_reason(before, after))
        .flatten();
    Some(Block::PlanChange(Box::new(PlanChange {
        changes: changes(before, after),
        before: before_summary,
        after: after_summary,
        same_peak,
        already_noted: false,
    })))
}
