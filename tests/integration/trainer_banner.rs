//! A trainer's start banner (Unsloth's sloth, the Trainer's "Running
//! training" block) is a reading beside the run: shown, never a setting;
//! where its batch disagrees with the run it asks, and a figure it printed,
//! said next, is that batch.

use crate::support::converse;

const UNSLOTH: &str = "==((====))==  Unsloth - 2x faster free finetuning | Num GPUs used = 1\n   \\\\   /|    Num examples = 6,261 | Num Epochs = 1 | Total steps = 196\nO^O/ \\_/ \\    Batch size per device = 16 | Gradient accumulation steps = 2\n\\        /    Data Parallel GPUs = 1 | Total batch size (16 x 2 x 1) = 32\n \"-____-\"     Trainable parameters = 66,060,288 of 4,073,997,824 (1.62% trained)\n==((====))==  Unsloth - 2x faster free finetuning | Num GPUs used = 1\n   \\\\   /|    Num examples = 6,261 | Num Epochs = 1 | Total steps = 224\nO^O/ \\_/ \\    Batch size per device = 14 | Gradient accumulation steps = 2";

const HF: &str = "***** Running training *****\n  Num examples = 52,002\n  Num Epochs = 3\n  Instantaneous batch size per device = 8\n  Total train batch size (w. parallel, distributed & accumulation) = 32\n  Gradient Accumulation steps = 4\n  Total optimization steps = 4,875\n  Number of trainable parameters = 20,971,520";

const RUN: &str = "LoRA on Qwen3 4B with Unsloth, bf16, bs 8, seq_len=2k";

#[test]
fn a_banner_that_disagrees_asks_and_changes_nothing() {
    for words in ["", "why does it say 16 and then 14??\n"] {
        let out = converse(&format!("{RUN}\n\n{words}{UNSLOTH}\n"));
        assert!(out.contains("batch size per device 16, then 14"), "{out}");
        assert!(
            out.contains("Your run says batch 8, the banner 14"),
            "{out}"
        );
        assert!(!out.contains("batch 8 →"), "{out}");
        assert!(!out.contains("I do not read the paste"), "{out}");
    }
    let out = converse(&format!("{RUN}\n\n{HF}\n"));
    assert!(out.contains("batch size per device 8"), "{out}");
    assert!(out.contains("That matches your run's batch 8"), "{out}");
}

#[test]
fn a_figure_the_banner_printed_said_next_is_that_batch() {
    let out = converse(&format!(
        "{RUN}\n\n{UNSLOTH}\n\noh wait, my script actually sets 16, I mixed it up. Unsloth dropped it to 14 by itself\n\nwhat if 14 like unsloth picked?\n\nok, do that\n"
    ));
    assert!(
        out.contains(
            "Noted: batch 8 → 16 (you said \"16, a batch your trainer's banner printed\")."
        ),
        "{out}"
    );
    assert!(out.contains("What if batch 16 → 14"), "{out}");
    assert!(out.contains("Changed: batch 16 → 14."), "{out}");
    // Without a banner a bare figure sets nothing.
    let out = converse(&format!("{RUN}\n\nmy script actually sets 16\n"));
    assert!(!out.contains("batch 8 → 16"), "{out}");
}
