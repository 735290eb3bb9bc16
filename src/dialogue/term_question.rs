//! "why is the loss logits part so big?": a question that names one of the
//! plan's terms gets that term's line of the worksheet (its figure, its
//! formula with this run's values, its source) and what lowers it.

use crate::calc::estimate::Term;
use crate::calc::plan::Plan;
use crate::calc::units::show_centi;

/// Words too common to pick a term by, and the words for a method or a
/// server ("why does the seed say 27B LoRA fits at 1024?" asks no term).
const COMMON: &[&str] = &[
    "model",
    "memory",
    "states",
    "batches",
    "variable-length",
    "lora",
    "qlora",
    "vllm",
    "cuda",
    "trainer",
    "process",
];

/// Words that ask about a part's size or meaning.
const SIZE_CUES: &[&str] = &[
    "big", "bigger", "large", "larger", "huge", "much", "high", "heavy", "gb", "take", "takes",
    "taking", "cost", "costs", "come", "mean", "means", "explain", "what", "what's", "whats",
];

/// The words a term is asked about by: its key and the longer words of its
/// label ("loss logits" → loss, logits).
fn names(term: &Term) -> Vec<String> {
    let main = term.label.split('(').next().unwrap_or(term.label);
    std::iter::once(term.key.to_string())
        .chain(
            main.split(|c: char| !c.is_ascii_alphanumeric() && c != '-')
                .filter(|w| w.len() >= 4 && !COMMON.contains(&w.to_ascii_lowercase().as_str()))
                .map(str::to_ascii_lowercase),
        )
        .collect()
}

/// What lowers a term, for the terms an owner can change.
fn lever(key: &str) -> Option<&'static str> {
    Some(match key {
        "logits" => {
            "It grows with batch × packing × vocabulary: shorter packing or a smaller batch lowers it, and a chunked or fused loss (Liger, Unsloth) never holds the full logits (say \"chunked loss\" or \"fused loss\" to plan with one)."
        }
        "activations" => {
            "It grows with batch × packing × layers: shorter packing or a smaller batch lowers it; gradient checkpointing keeps only each layer's input."
        }
        "reserve" => {
            "It follows the loss path: anything that shrinks the logits shrinks it, and packed batches of one fixed length need less of it."
        }
        "weights" => {
            "It is the model at its stored dtype: only a smaller model or QLoRA's 4-bit base lowers it."
        }
        "optimizer" => {
            "It scales with the trainable parameters: LoRA trains a small share of them; an 8-bit optimizer halves it."
        }
        "gradients" => {
            "It scales with the trainable parameters: LoRA trains a small share of them."
        }
        "generator" => {
            "It is the colocated vLLM's fraction: a lower `vllm_gpu_memory_utilization` lowers it."
        }
        "reference" => {
            "A LoRA run uses its base as the reference; precomputed reference log-probs drop it."
        }
        _ => return None,
    })
}

/// The answer, when the question names exactly one of the plan's terms.
pub fn term_answer(words: &str, plan: &Plan) -> Option<String> {
    let lower = words.to_ascii_lowercase();
    let said: Vec<&str> = lower
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '-' && c != '\'')
        .filter(|w| !w.is_empty())
        .collect();
    if !said.iter().any(|w| SIZE_CUES.contains(w)) {
        return None;
    }
    let mut hits: Vec<(usize, &Term)> = plan
        .estimate
        .terms
        .iter()
        .map(|t| {
            (
                names(t)
                    .iter()
                    .filter(|n| said.contains(&n.as_str()))
                    .count(),
                t,
            )
        })
        .filter(|(n, _)| *n > 0)
        .collect();
    hits.sort_by_key(|h| std::cmp::Reverse(h.0));
    let (best, term) = *hits.first()?;
    if hits.get(1).is_some_and(|(n, _)| *n == best) {
        return None;
    }
    let share = term.centi_gb as f64 * 100.0 / plan.estimate.step_centi_gb.max(1) as f64;
    let mut text = format!(
        "{} = {} [{}]: {share:.1} % of the step's {} GB.",
        term.label,
        term.formula,
        term.source,
        show_centi(plan.estimate.step_centi_gb)
    );
    if let Some(l) = lever(term.key) {
        text.push(' ');
        text.push_str(l);
    }
    Some(text)
}
