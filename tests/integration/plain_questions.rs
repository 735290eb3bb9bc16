//! Plain questions in the middle of a run's conversation (set 14's class
//! "plain questions unrecognised") get a sourced answer and change nothing:
//! what an optimizer saves, whether a LoRA rank is better, what power is
//! normal, what a vLLM fraction is in GB.

use crate::support::converse;

#[test]
fn plain_questions_after_a_run_are_answered_and_change_nothing() {
    let run = "lora llama 3.1 8b bf16 batch 2 packing 2048";
    for (question, answer) in [
        (
            "what means paged_adamw? it is using less memory?",
            "2 bytes per parameter",
        ),
        (
            "does adamw 8bit save a lot here?",
            "saves 6 bytes for every trainable parameter",
        ),
        (
            "thank you. and lora_r 16 is more better?",
            "does not judge which LoRA rank trains better",
        ),
        ("would a bigger rank be better?", "41,943,040 parameters"),
        (
            "what power is normal for this box when training?",
            "platform power ceiling",
        ),
        ("how many watts is normal under load", "around 100 W"),
        (
            "vllm at 0.3 is how many GB exactly?",
            "= 36.51 GiB = 39.20 GB",
        ),
        (
            "how many gb would gpu_memory_utilization 0.5 be",
            "0.5 × 121.69 GiB",
        ),
    ] {
        let out = converse(&format!("{run}\n\n{question}\n"));
        assert!(out.contains(answer), "{question}: {out}");
        assert!(!out.contains("found no run setting"), "{question}: {out}");
        assert!(!out.contains("Changed:"), "{question}: {out}");
        assert_eq!(out.matches("Noted:").count(), 1, "{question}: {out}");
    }
}
