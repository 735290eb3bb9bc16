//! A yes that restates the ladder step it answers ("yes lets try bf16
//! lora", "yes, completions 512", "ok do the shorter packing"): the owner
//! approves the step in its own words, and a setting they repeat is the
//! step's change, not a new answer that leaves the step waiting.

use crate::dialogue::facts::Facts;
use crate::dialogue::oom_turn::changed_facts;
use crate::extract::approval::{FILLER, YES};
use crate::extract::oom::Rung;
use crate::knowledge::Knowledge;
use jiff::Timestamp;

/// Words that may name any step, or join the words that name it.
const JOINERS: &[&str] = &[
    "to",
    "a",
    "an",
    "and",
    "on",
    "switch",
    "switching",
    "use",
    "using",
    "going",
    "i",
    "ill",
    "i'll",
    "will",
    "we",
    "that",
    "this",
    "thing",
    "one",
    "then",
    "ok",
    "okay",
    "yes",
    "yeah",
    "yep",
    "sure",
    "again",
    "instead",
    "next",
    "step",
    "rung",
    "go",
    "down",
    "drop",
    "dropping",
    "cut",
    "cutting",
    "halve",
    "halving",
    "half",
    "lower",
    "lowering",
    "reduce",
    "reducing",
];

/// The words a step is named by, beyond its label.
fn step_words(rung: Rung) -> &'static [&'static str] {
    match rung {
        Rung::Flush => &["flush", "drop", "caches", "cache", "page", "pagecache"],
        Rung::Generations => &["fewer", "generations", "generation", "num_generations"],
        Rung::Completion => &[
            "shorter",
            "completions",
            "completion",
            "max_completion_length",
            "length",
        ],
        Rung::Colocate => &[
            "lower",
            "colocate",
            "fraction",
            "vllm",
            "vllm_gpu_memory_utilization",
            "utilization",
        ],
        Rung::Reference => &["precomputed", "precompute", "reference", "ref", "log-probs"],
        Rung::Packing => &[
            "shorter",
            "packing",
            "pack",
            "seq",
            "sequence",
            "sequences",
            "length",
            "max_seq_length",
            "cutoff_len",
            "context",
            "ctx",
        ],
        Rung::Batch => &["smaller", "batch", "bs", "per_device_train_batch_size"],
        Rung::LoraReference => &["lora", "reference", "full", "adapter"],
        Rung::Method => &["bf16", "lora", "16-bit", "16bit", "plain", "qlora", "from"],
    }
}

fn words(t: &str) -> Vec<String> {
    t.split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | '\'')))
        .map(|w| w.trim_matches(['.', '\'']))
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// Does this short turn say yes to `rung` and nothing else? It opens with
/// a yes, holds no question, hedge or negation, every setting it names is
/// the step's own change, and every other word names the step or is filler.
pub fn restates_step(text: &str, rung: Rung, facts: &Facts, k: &Knowledge, at: Timestamp) -> bool {
    let t = text.trim();
    if t.contains('\n') || t.contains('?') || t.chars().count() > 80 {
        return false;
    }
    let lower = t.to_ascii_lowercase();
    if crate::extract::approval::hedges(&lower) {
        return false;
    }
    let all = words(&lower);
    if !all.first().is_some_and(|w| YES.contains(&w.as_str())) {
        return false;
    }
    if all.iter().any(|w| {
        matches!(
            w.as_str(),
            "no" | "not" | "don't" | "dont" | "but" | "except" | "nah" | "never"
        )
    }) {
        return false;
    }
    // Every setting said must already hold once the step is applied.
    let mut changed = changed_facts(facts, rung, at);
    let found = crate::extract::slots::extract(t, k);
    if found.iter().any(|f| changed.absorb(f, at).is_some()) {
        return false;
    }
    let said: Vec<String> = found
        .iter()
        .flat_map(|f| words(&f.words.to_ascii_lowercase()))
        .collect();
    let label = words(&rung.label().to_ascii_lowercase());
    all.iter().all(|w| {
        let w = w.as_str();
        YES.contains(&w)
            || FILLER.contains(&w)
            || JOINERS.contains(&w)
            || step_words(rung).contains(&w)
            || label.iter().any(|l| l == w)
            || said.iter().any(|s| s == w)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at() -> Timestamp {
        "2026-11-25T09:00:00Z".parse().unwrap()
    }

    fn qlora_run() -> Facts {
        let k = Knowledge::embedded();
        let mut f = Facts::default();
        for found in
            crate::extract::slots::extract("qwen2.5 32b qlora bf16 batch 4 max_seq_length 4096", k)
        {
            f.absorb(&found, at());
        }
        f
    }

    #[test]
    fn a_yes_in_the_steps_own_words_approves_it() {
        let k = Knowledge::embedded();
        let f = qlora_run();
        for (text, rung) in [
            ("yes lets try bf16 lora", Rung::Method),
            ("ok, switch to bf16 LoRA", Rung::Method),
            ("yes, packing 2048", Rung::Packing),
            ("yep do the shorter packing", Rung::Packing),
            ("sure, batch 2", Rung::Batch),
            ("yes halve the batch", Rung::Batch),
            ("yes flush", Rung::Flush),
        ] {
            assert!(restates_step(text, rung, &f, k, at()), "{text}");
        }
    }

    #[test]
    fn another_value_a_question_or_a_no_is_not_that_yes() {
        let k = Knowledge::embedded();
        let f = qlora_run();
        for (text, rung) in [
            ("yes, packing 1024", Rung::Packing),
            ("yes but batch 1", Rung::Batch),
            ("yes, bf16 lora?", Rung::Method),
            ("ok but not the batch", Rung::Batch),
            ("yes, and my vllm server is up too", Rung::Packing),
            ("lets try bf16 lora", Rung::Method),
            ("yes, packing 2048", Rung::Batch),
        ] {
            assert!(!restates_step(text, rung, &f, k, at()), "{text}");
        }
    }
}
