//! The OOM ladder of a preference or RL run: its own steps after step 1,
//! each with the estimator's figure, each skipped with its reason where it
//! cannot help, and none of them on a supervised run's ladder.

use crate::support::converse;

const OOM: &str =
    "it died at step 12: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB";

#[test]
fn a_grpo_oom_walks_completions_then_the_colocate_fraction() {
    for run in [
        "GRPO on Qwen3 8B with LoRA, bf16, batch 8, 8 generations, completion 512, prompt 256, vllm colocate at 0.5",
        "lora qwen3 8b bf16, GRPOConfig(per_device_train_batch_size=8, num_generations=8, max_prompt_length=256, max_completion_length=512, use_vllm=True, vllm_mode=\"colocate\", vllm_gpu_memory_utilization=0.5)",
    ] {
        let out = converse(&format!(
            "{run}\n\n{OOM}\n\nyes\n\nstill OOM\n\nyes\n\nstill OOM\n"
        ));
        assert!(
            out.contains("then for this GRPO (8 generations) run: fewer generations, shorter completions, a lower colocate fraction"),
            "{out}"
        );
        // In TRL the batch counts completions: fewer per prompt regroups
        // them and the step is unchanged, so it is skipped, with why.
        assert!(
            out.contains("RL step: fewer generations per prompt: skipped: per_device_train_batch_size counts completions"),
            "{out}"
        );
        assert!(
            out.contains("The estimator for max_completion_length 512 → 256:"),
            "{out}"
        );
        assert!(out.contains("Set max_completion_length to 256."), "{out}");
        assert!(
            out.contains("The estimator for vllm_gpu_memory_utilization 0.5 → 0.25:"),
            "{out}"
        );
        // Packing is no knob of an RL run: the completion step is.
        assert!(!out.contains("shorter packing"), "{out}");
    }
}

#[test]
fn a_full_dpo_oom_offers_precomputed_reference_log_probs_before_packing() {
    let out = converse(&format!(
        "full DPO of Qwen2.5 7B, bf16, batch 4, max_length 2048, reference model\n\n{OOM}\n\nyes\n\nstill OOM\n\nyes\n"
    ));
    let precompute = out
        .find("precompute the reference log-probs")
        .expect("proposed");
    assert!(
        out[precompute..].contains("The estimator for a reference model → precomputed reference log-probs: 176.95 GB (now 192.95 GB)"),
        "{out}"
    );
    assert!(
        out.contains("Set precompute_ref_log_probs=True (TRL DPOConfig)."),
        "{out}"
    );
    assert!(
        out.contains("Changed: objective DPO → DPO, reference precomputed."),
        "{out}"
    );
    assert!(
        out.find("Step 2 of the OOM ladder")
            .is_none_or(|p| p > precompute),
        "{out}"
    );
}

#[test]
fn a_lora_dpo_skips_the_reference_steps_with_the_reason() {
    let out = converse(&format!(
        "DPO with LoRA on llama 3.1 8b, bf16, batch 4, packing 2048\n\n{OOM}\n\nyes\n\nstill OOM\n"
    ));
    assert!(
        out.contains("precomputed reference log-probs: skipped: with LoRA the reference is the base with the adapter off"),
        "{out}"
    );
    assert!(
        out.contains("Step 2 of the OOM ladder: shorter packing first."),
        "{out}"
    );
}

#[test]
fn a_supervised_ladder_shows_none_of_the_objective_steps() {
    let out = converse(&format!(
        "lora llama 3.1 8b bf16 batch 4 packing 4096\n\n{OOM}\n\nyes\n\nstill OOM\n"
    ));
    assert!(
        out.contains("(1) flush the page cache between runs, (2) shorter packing, then a smaller batch, (3) QLoRA → bf16 LoRA."),
        "{out}"
    );
    for rl in ["RL step", "reference log-probs", "full → LoRA"] {
        assert!(!out.contains(rl), "{rl}: {out}");
    }
}

#[test]
fn a_generation_step_the_owner_already_took_is_never_proposed() {
    let out = converse(&format!(
        "GRPO on Qwen3 8B with LoRA, bf16, batch 8, 8 generations, completion 512, prompt 256, vllm colocate at 0.5\n\n{OOM}. I already flushed the caches and cut max_completion_length to 256\n"
    ));
    assert!(
        out.contains("RL step: shorter completions: you did it yourself"),
        "{out}"
    );
    assert!(
        !out.contains("Next for this RL run: shorter completions."),
        "{out}"
    );
}

#[test]
fn a_pasted_grpo_config_sets_the_objective_and_words_under_it_are_read() {
    let out = converse(
        "training_args = GRPOConfig(\n    per_device_train_batch_size=8,\n    num_generations=8,\n    max_prompt_length=256,\n    max_completion_length=512,\n    use_vllm=True,\n    vllm_mode=\"colocate\",\n    vllm_gpu_memory_utilization=0.4,\n    bf16=True,\n)\nmodel is Qwen3 8B with lora\n",
    );
    assert!(
        out.contains("objective GRPO, 8 generations, prompt 256, completion 512, vLLM colocate, vLLM fraction 0.4"),
        "{out}"
    );
    assert!(out.contains("model Qwen3 8B, method LoRA"), "{out}");
    assert!(
        out.contains("colocated vLLM (weights and KV cache)"),
        "{out}"
    );
    let reply = &out[out.find("Noted").unwrap()..];
    assert!(!reply.contains("- the model:"), "{reply}");
}

#[test]
fn the_longest_chosen_and_rejected_rows_price_the_pairs() {
    for words in [
        "full DPO of qwen3 0.6b, bf16, batch 8, max_length 1024, chosen up to 700 tokens, rejected up to 600",
        "full dpo qwen3 0.6b bf16 bs 8 seq 1024; pairs up to 700 tokens",
    ] {
        let out = converse(&format!("{words}\n\nfull plan\n"));
        assert!(
            out.contains("batch 8 × 2 sequences (chosen and rejected, one concatenated forward) × longest row 700 (every row padded to it, under the pack 1024 cap)"),
            "{words}: {out}"
        );
    }
    // Longer than the cap: the cap is what is padded to.
    let out = converse(
        "full DPO of qwen3 0.6b, bf16, batch 8, max_length 1024, chosen up to 3000 tokens\n\nfull plan\n",
    );
    assert!(
        out.contains(
            "batch 8 × 2 sequences (chosen and rejected, one concatenated forward) × pack 1024"
        ),
        "{out}"
    );
}

/// "would 16 gens be worse for memory?" shows both peaks, and when they are
/// the same it says why (set 14, 12 T2: equal figures with no reason).
#[test]
fn a_generations_what_if_with_the_same_peak_says_why() {
    for (run, ask) in [
        (
            "GRPO on qwen2.5 7b with lora, 8 generations, vllm colocate at 0.3, completions up to 1024, prompts about 512, batch 2",
            "would 16 gens be worse for memory?",
        ),
        (
            "grpo, qwen3 8b lora, batch 4, prompts around 256 tokens, completion length of 512",
            "what if 4 generations",
        ),
    ] {
        let out = crate::support::converse(&format!("{run}\n\n{ask}\n"));
        let reply = crate::support::from_last(&out, "What if");
        assert!(reply.contains("The same peak:"), "{ask}: {reply}");
        assert!(
            reply.contains("counts completions, not prompts"),
            "{ask}: {reply}"
        );
    }
    // A what-if that moves the peak says nothing of the kind.
    let out = crate::support::converse(
        "grpo, qwen3 8b lora, batch 4, prompts around 256 tokens, completion length of 512\n\nwhat if completions of 2048\n",
    );
    let reply = crate::support::from_last(&out, "What if");
    assert!(!reply.contains("The same peak"), "{reply}");
}
