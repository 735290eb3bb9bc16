//! "what does the chunked loss buy me?", "is checkpointing saving me much?":
//! a question about a setting the run already has, answered with the same
//! run without it, term by term. Nothing changes and nothing is offered.

use crate::calc::plan::Plan;
use crate::calc::setup::{Attention, Loss, Method, Optimizer};
use crate::calc::units::show_centi;
use crate::dialogue::facts::Facts;
use crate::dialogue::plan_turn::{build_plan, in_pool};
use crate::extract::re;
use crate::extract::slots::{Found, Slot};
use crate::knowledge::Knowledge;
use regex::Regex;
use std::sync::LazyLock;

/// Words that ask what a setting is worth, not to change it.
static WORTH: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:buy(?:s|ing)?|bought|sav(?:e|es|ing)|help(?:s|ing)?|worth|gain(?:s|ing)?|cost(?:s|ing)?|matter(?:s)?|(?:do|does|doing)\s+for\s+(?:me|us)|get(?:s|ting)?\s+(?:me|us)|giv(?:e|es|ing)\s+(?:me|us)|what\s+difference|how\s+much\s+difference)\b",
    )
});

/// A what-if or a change in other words: "what if …", "instead", "switch".
static CHANGE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:what\s+if|instead|switch(?:ed|ing)?\s+to|use\s+|turn(?:ed)?\s+(?:on|off)|without)\b",
    )
});

/// The setting named, in words, and the same run without it.
fn without(slot: &Slot, plan: &Plan) -> Option<(String, Slot, &'static str)> {
    let i = &plan.input;
    Some(match slot {
        Slot::Loss(l) if *l == i.loss && *l != Loss::Upcast => (
            format!("the {} loss", l.key()),
            Slot::Loss(Loss::Upcast),
            "a plain loss on fp32-upcast logits (transformers' ForCausalLMLoss)",
        ),
        Slot::GradCheckpointing(true) if i.grad_checkpointing => (
            "gradient checkpointing".into(),
            Slot::GradCheckpointing(false),
            "checkpointing off",
        ),
        Slot::Packed(true) if i.runtime.packed => (
            "packing".into(),
            Slot::Packed(false),
            "batches padded to their longest sample",
        ),
        Slot::Method(Method::Qlora) if i.method == Method::Qlora => (
            "QLoRA's 4-bit base".into(),
            Slot::Method(Method::Lora),
            "bf16 LoRA",
        ),
        Slot::Optimizer(o) if *o == i.optimizer && *o != Optimizer::AdamW => (
            format!("the {} optimizer", o.key()),
            Slot::Optimizer(Optimizer::AdamW),
            "plain AdamW",
        ),
        Slot::Attention(Attention::Sdpa) if i.attention == Attention::Sdpa => (
            "SDPA/flash attention".into(),
            Slot::Attention(Attention::Eager),
            "eager attention",
        ),
        _ => return None,
    })
}

/// A setting the run lacks, named, and the same run with it.
fn with(slot: &Slot, plan: &Plan) -> Option<(String, Slot)> {
    let i = &plan.input;
    Some(match slot {
        Slot::GradCheckpointing(true) if !i.grad_checkpointing => {
            ("gradient checkpointing".into(), slot.clone())
        }
        Slot::Loss(l) if *l != i.loss => (format!("the {} loss", l.key()), slot.clone()),
        Slot::Packed(true) if !i.runtime.packed => ("packing".into(), slot.clone()),
        Slot::Optimizer(o) if *o != i.optimizer => {
            (format!("the {} optimizer", o.key()), slot.clone())
        }
        _ => return None,
    })
}

/// "what does --gradient_checkpointing buy me here?" about a setting the
/// run does not have, when no what-if was made of it: the run beside itself
/// with it. Nothing changes.
pub fn answer_lacking(
    words: &str,
    facts: &Facts,
    held: &[(String, u64)],
    k: &Knowledge,
) -> Option<String> {
    if !WORTH.is_match(words) || CHANGE.is_match(words) {
        return None;
    }
    let (now, _) = build_plan(facts, k)?;
    let (name, slot) = crate::extract::slots::extract(words, k)
        .iter()
        .find_map(|f| with(&f.slot, &now))?;
    let words_of = name.clone();
    let after = crate::dialogue::whatif::hypothetical(
        facts,
        &[Found {
            slot,
            words: words_of,
        }],
    );
    let (then, _) = build_plan(&after, k)?;
    let (now, then) = (in_pool(now, held, k), in_pool(then, held, k));
    let (peak_now, peak_with) = (now.estimate.total_centi_gb, then.estimate.total_centi_gb);
    let verdict = |p: &Plan| p.judgement.verdict.label();
    let gain = if peak_with < peak_now {
        format!("{} GB off the peak", show_centi(peak_now - peak_with))
    } else {
        "nothing at the peak".to_string()
    };
    Some(format!(
        "What {name} would buy this run (it does not use it now): {gain}. Now the peak is {} GB, **{}**; with {name} it would be {} GB, **{}**, against the same {} GB budget. Your run is unchanged: say \"what if\" with it to keep it beside the run, or name it to change the run.",
        show_centi(peak_now),
        verdict(&now),
        show_centi(peak_with),
        verdict(&then),
        show_centi(now.budget.centi_gb)
    ))
}

/// The answer, when the words ask what a setting of the run is worth.
pub fn answer(words: &str, facts: &Facts, held: &[(String, u64)], k: &Knowledge) -> Option<String> {
    if !WORTH.is_match(words) || CHANGE.is_match(words) {
        return None;
    }
    let (now, _) = build_plan(facts, k)?;
    let (name, slot, alternative) = crate::extract::slots::extract(words, k)
        .iter()
        .find_map(|f| without(&f.slot, &now))?;
    let after = crate::dialogue::whatif::hypothetical(
        facts,
        &[Found {
            slot,
            words: alternative.to_string(),
        }],
    );
    let (then, _) = build_plan(&after, k)?;
    let (now, then) = (in_pool(now, held, k), in_pool(then, held, k));
    let (with_peak, without_peak) = (now.estimate.total_centi_gb, then.estimate.total_centi_gb);
    // The terms that move most, largest change first.
    let mut pairs: Vec<(&str, u64, u64)> = now
        .estimate
        .terms
        .iter()
        .filter_map(|t| {
            let other = then.estimate.terms.iter().find(|o| o.key == t.key)?;
            (other.centi_gb != t.centi_gb).then_some((t.label, t.centi_gb, other.centi_gb))
        })
        .collect();
    pairs.sort_by_key(|(_, a, b)| std::cmp::Reverse(a.abs_diff(*b)));
    let moved: Vec<String> = pairs
        .iter()
        .take(3)
        .map(|(label, with, without)| {
            format!(
                "{label} {} GB with it, {} GB without",
                show_centi(*with),
                show_centi(*without)
            )
        })
        .collect();
    let verdict = |p: &Plan| p.judgement.verdict.label();
    let mut text = if without_peak > with_peak {
        format!(
            "What {name} buys this run: {} GB at the peak. With it (your run) the peak is {} GB, **{}**; with {alternative} instead it would be {} GB, **{}**, against the same {} GB budget.",
            show_centi(without_peak - with_peak),
            show_centi(with_peak),
            verdict(&now),
            show_centi(without_peak),
            verdict(&then),
            show_centi(now.budget.centi_gb)
        )
    } else {
        format!(
            "{} buys this run nothing at the peak: with it {} GB, with {alternative} {} GB, against the {} GB budget; it sizes nothing in the phase that binds.",
            crate::text::capitalised(&name),
            show_centi(with_peak),
            show_centi(without_peak),
            show_centi(now.budget.centi_gb)
        )
    };
    if !moved.is_empty() {
        text.push_str(&format!(" What moves: {}.", moved.join("; ")));
    }
    text.push_str(" Your run is unchanged.");
    Some(text)
}
