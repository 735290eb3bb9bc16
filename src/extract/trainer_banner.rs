//! The banner a trainer prints as it starts: Unsloth's ASCII sloth
//! ("Batch size per device = 16 | Gradient accumulation steps = 2") and the
//! Hugging Face Trainer's "***** Running training *****" block
//! ("Instantaneous batch size per device = 8"). A reading of what the
//! trainer ran with, shown beside the run, never a setting.

use crate::extract::re;
use regex::Regex;
use std::sync::LazyLock;

/// What the banners in one paste say, each figure in the order printed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Banner {
    /// Per-device batch of each banner (Unsloth prints one per attempt).
    pub per_device_batch: Vec<u64>,
    pub grad_accum: Vec<u64>,
    pub total_steps: Vec<u64>,
    /// "Trainable parameters = 66,060,288 of 4,073,997,824".
    pub trainable: Option<(u64, u64)>,
}

static PER_DEVICE: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)(?:Instantaneous batch size per device|Batch size per device)\s*=\s*([\d,]+)")
});
static ACCUM: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)Gradient accumulation steps\s*=\s*([\d,]+)"));
static STEPS: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)(?:Total optimization steps|Total steps)\s*=\s*([\d,]+)"));
static TRAINABLE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)(?:Trainable parameters|Number of trainable parameters)\s*=\s*([\d,]+)(?:\s+of\s+([\d,]+))?",
    )
});

fn count(s: &str) -> Option<u64> {
    s.replace(',', "").parse().ok()
}

fn all(pattern: &Regex, text: &str) -> Vec<u64> {
    pattern
        .captures_iter(text)
        .filter_map(|c| count(&c[1]))
        .collect()
}

/// The banner figures in a paste; None when it has no per-device batch.
pub fn banner(text: &str) -> Option<Banner> {
    let per_device_batch = all(&PER_DEVICE, text);
    if per_device_batch.is_empty() {
        return None;
    }
    Some(Banner {
        per_device_batch,
        grad_accum: all(&ACCUM, text),
        total_steps: all(&STEPS, text),
        trainable: TRAINABLE.captures(text).and_then(|c| {
            let of = c.get(2).and_then(|m| count(m.as_str())).unwrap_or(0);
            Some((count(&c[1])?, of))
        }),
    })
}

/// A paste that is only banners (no step lines a training-log reader
/// would take): Unsloth's sloth or the Trainer's block.
pub fn looks_like_banner(text: &str) -> bool {
    PER_DEVICE.is_match(text)
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum BannerError {
    #[error("it has the banner's lines but no `batch size per device = N` figure")]
    NoBatch,
}

impl BannerError {
    pub fn hint(&self) -> &'static str {
        "Paste the whole banner the trainer printed at start, or tell me the per-device batch (\"batch 8\")."
    }
}

fn parse_banner(text: &str) -> Result<Banner, BannerError> {
    banner(text).ok_or(BannerError::NoBatch)
}

crate::extract::reading::paste_reader!(
    /// The registry's reader for a trainer's start banner.
    TrainerBannerPaste,
    "a trainer's start banner",
    looks_like_banner,
    parse_banner => crate::extract::reading::Reading::Banner
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsloths_two_banners_and_the_trainers_block() {
        let unsloth = "==((====))==  Unsloth - 2x faster free finetuning | Num GPUs used = 1\n   \\\\   /|    Num examples = 6,261 | Num Epochs = 1 | Total steps = 196\nO^O/ \\_/ \\    Batch size per device = 16 | Gradient accumulation steps = 2\n\\        /    Data Parallel GPUs = 1 | Total batch size (16 x 2 x 1) = 32\n \"-____-\"     Trainable parameters = 66,060,288 of 4,073,997,824 (1.62% trained)\n==((====))==  Unsloth - 2x faster free finetuning | Num GPUs used = 1\nO^O/ \\_/ \\    Batch size per device = 14 | Gradient accumulation steps = 2";
        let b = banner(unsloth).unwrap();
        assert_eq!(b.per_device_batch, vec![16, 14]);
        assert_eq!(b.grad_accum, vec![2, 2]);
        assert_eq!(b.total_steps, vec![196]);
        assert_eq!(b.trainable, Some((66_060_288, 4_073_997_824)));
        let hf = "***** Running training *****\n  Num examples = 52,002\n  Num Epochs = 3\n  Instantaneous batch size per device = 8\n  Total train batch size (w. parallel, distributed & accumulation) = 32\n  Gradient Accumulation steps = 4\n  Total optimization steps = 4,875\n  Number of trainable parameters = 20,971,520";
        let b = banner(hf).unwrap();
        assert_eq!(
            (b.per_device_batch, b.grad_accum, b.total_steps),
            (vec![8], vec![4], vec![4875])
        );
        assert!(banner("batch 8, lora").is_none());
    }
}
