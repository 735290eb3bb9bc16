//! A yes in the step's own words ("yes lets try bf16 lora", "yes,
//! completions 512") approves the step waiting for it: the step is applied
//! once and nothing is left waiting.

use crate::support::converse;

const QLORA_AT_STEP_3: &str = "qwen2.5 32b qlora, bf16, batch 4, max_seq_length 4096\n\nOOM at step 212\n\nyes\n\nstill dies\n\nyes\n\nstill OOM\n\nyes\n\nstill oom\n";

#[test]
fn a_yes_naming_the_method_step_approves_it() {
    for yes in [
        "yes lets try bf16 lora",
        "ok, switch to bf16 LoRA",
        "yep, plain bf16 lora then",
    ] {
        let out = converse(&format!("{QLORA_AT_STEP_3}\n{yes}\n"));
        let last = &out[out.rfind("Step 3 of the OOM ladder").expect(&out)..];
        assert!(last.contains("Approved."), "{yes}: {last}");
        assert!(
            !last.contains("Still waiting for your yes or no"),
            "{yes}: {last}"
        );
    }
}

#[test]
fn a_yes_with_the_proposed_value_approves_the_step() {
    for (yes, proposed) in [
        ("yes, packing 2048", "Set the packing length"),
        ("sure, max_seq_length 2048 then", "Set the packing length"),
        ("yep do the shorter packing", "Set the packing length"),
    ] {
        let out = converse(&format!(
            "qwen2.5 32b qlora, bf16, batch 4, max_seq_length 4096\n\nOOM at step 212\n\nyes\n\nstill dies\n\n{yes}\n"
        ));
        let last = &out[out.rfind("Step 2 of the OOM ladder").expect(&out)..];
        assert!(last.contains(proposed), "{yes}: {last}");
        assert!(
            !last.contains("Still waiting for your yes or no"),
            "{yes}: {last}"
        );
    }
    let grpo = "grpo on qwen2.5 7b, lora, bf16, batch 8, 8 generations, max_prompt_length 512, max_completion_length 1024\n\nOOM at step 31\n\nyes\n\nsame oom at step 31\n\nyes, completions 512\n";
    let out = converse(grpo);
    assert!(!out.contains("Still waiting for your yes or no"), "{out}");
    assert!(
        out.contains("completion 1024 →") || out.contains("1024 → 512"),
        "{out}"
    );
}

#[test]
fn a_yes_with_another_value_is_not_the_steps_yes() {
    // The owner's own value is a setting; the step still waits for its yes.
    let out = converse(
        "qwen2.5 32b qlora, bf16, batch 4, max_seq_length 4096\n\nOOM at step 212\n\nyes\n\nstill dies\n\nyes, but packing 1024\n",
    );
    assert!(
        !out.contains("Set the packing length (max_seq_length) to 2048"),
        "{out}"
    );
}
