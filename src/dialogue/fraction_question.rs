//! "colocate 0.3 is how many GB exactly?": a vLLM memory fraction asked in
//! gigabytes is worked out against what CUDA reports on a GB10, the base
//! vLLM applies it to, with both units shown.

use crate::calc::units::{plain, show_centi};
use crate::calc::vllm_share::share;
use crate::knowledge::Knowledge;
use regex::Regex;
use std::sync::LazyLock;

/// A fraction between 0 and 1 ("0.3", ".45", "1.0") as a word of its own.
static FRACTION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:^|[\s=:(])(0?\.\d{1,3}|1\.0)(?:$|[\s,?!)]|\.\s|\.$)").unwrap()
});

/// Asking for the figure in a memory unit.
static IN_GB: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:how (?:many|much)(?: \w+)?|in|into|as|what(?:'s| is)(?: that)?(?: in)?)\s+(?:gb|gib|gigabytes?)\b|\b(?:gb|gib)\s+(?:is|does|would) (?:that|it)\b|\bhow (?:many|much) (?:gb|gib|gigabytes|memory)\b|\bis how (?:many|much)\b").unwrap()
});

/// The answer, when `text` asks what a fraction is in GB.
pub fn answer(text: &str, k: &Knowledge) -> Option<String> {
    if !IN_GB.is_match(text) {
        return None;
    }
    let caps = FRACTION.captures(text)?;
    let fraction: f64 = caps[1].parse().ok()?;
    if !(fraction > 0.0 && fraction <= 1.0) {
        return None;
    }
    let s = share(fraction, None, k);
    let gib = fraction * s.cuda_gib;
    Some(format!(
        "{} of the pool is {} × {} GiB (what CUDA reports on a GB10, the base vLLM's `gpu_memory_utilization` applies to; knowledge/spark.md row 3) = {:.2} GiB = {} GB (1 GiB = 1.073741824 GB, rounded up as a need). vLLM claims all of it at start (weights, activations, then KV cache in what is left), whether or not it serves anything.",
        plain(fraction),
        plain(fraction),
        plain(s.cuda_gib),
        gib,
        show_centi(s.claim_centi_gb),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fraction_asked_in_gb_is_worked_out() {
        let k = Knowledge::embedded();
        for q in [
            "colocate 0.3 is how many GB exactly?",
            "how many GB is gpu_memory_utilization 0.3",
            "vllm at 0.3, what is that in GiB?",
            "0.3 how much memory is that",
        ] {
            let a = answer(q, k).unwrap_or_else(|| panic!("{q}"));
            // 0.3 × 121.69 GiB = 36.507 GiB = 39.199 GB, rounded up.
            assert!(a.contains("0.3 × 121.69 GiB"), "{q}: {a}");
            assert!(a.contains("= 36.51 GiB = 39.20 GB"), "{q}: {a}");
        }
        for q in [
            "batch 2 is how many GB",
            "restart vllm at 0.3",
            "how many GB does Llama 3.1 8B take",
        ] {
            assert_eq!(answer(q, k), None, "{q}");
        }
    }
}
