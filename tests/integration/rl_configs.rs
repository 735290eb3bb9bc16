//! RL and preference runs described by a launch script or in words: the
//! trainer's own defaults read from the script, the run's own generator
//! answered as part of the run, and a change that leaves the peak where it
//! was says why.

use crate::support::converse;

/// An open-instruct launch block: shell variables, `uv run`, flags.
fn open_instruct(extra_flag: &str) -> String {
    format!(
        "GRPO on the spark, my launch block:\nMODEL=\"Qwen/Qwen2.5-0.5B\"\nBATCH_SIZE=4\nNUM_SAMPLES=4\nuv run --active python open_instruct/grpo_fast.py \\\n    --model_name_or_path \"$MODEL\" \\\n    --max_prompt_token_length 256 \\\n    --response_length 512 \\\n    --per_device_train_batch_size $BATCH_SIZE \\\n    --num_samples_per_prompt_rollout $NUM_SAMPLES \\\n    --beta 0.0 \\\n{extra_flag}    --vllm_gpu_memory_utilization 0.5 \\\n    --gradient_checkpointing \\\n    --output_dir out\n"
    )
}

#[test]
fn an_open_instruct_script_without_an_adapter_flag_is_a_full_fine_tune() {
    let out = converse(&open_instruct(""));
    assert!(
        out.contains("method full fine-tune (you said \"full method (open-instruct trains every weight without --use_lora)\")"),
        "{out}"
    );
    assert!(
        !out.contains("the method: full fine-tune, LoRA or QLoRA"),
        "{out}"
    );
    assert!(out.contains("Verdict:"), "{out}");
}

#[test]
fn an_open_instruct_adapter_flag_sets_lora_or_qlora() {
    for (flag, method) in [
        ("    --use_lora \\\n", "method LoRA"),
        ("    --use_qlora \\\n", "method QLoRA"),
        ("    --use_lora true \\\n", "method LoRA"),
    ] {
        let out = converse(&open_instruct(flag));
        assert!(out.contains(method), "{flag}: {out}");
        assert!(
            !out.contains("open-instruct trains every weight"),
            "{flag}: {out}"
        );
    }
}

#[test]
fn the_largest_fraction_of_the_runs_own_generator_is_the_plans_solve() {
    for ask in [
        "what's the largest vllm_gpu_memory_utilization that still leaves the learner its peak?",
        "how high can I set the vllm fraction?",
        "what's the max gpu memory utilization for vllm then",
    ] {
        let out = converse(&format!(
            "GRPO on Qwen3 8B with LoRA, bf16, batch 8, 8 generations, completion 512, prompt 256, vllm colocate at 0.5\n\n{ask}\n"
        ));
        let answer = out
            .rsplit("\n\n\n")
            .find(|s| !s.trim().is_empty())
            .unwrap_or(&out);
        // Colocated, the generator is inside the run's peak: the fraction
        // is solved with its share taken out, never set beside the peak.
        assert!(
            answer.contains("The largest vllm_gpu_memory_utilization that leaves the step its peak: (119.48 GB budget − "),
            "{ask}: {answer}"
        );
        assert!(
            !answer.contains("For vLLM beside your run"),
            "{ask}: {answer}"
        );
    }
}

#[test]
fn a_change_already_noted_is_not_restated_and_an_equal_peak_says_why() {
    let out = converse(
        "QLoRA on llama 3.1 8b, batch 4, pack 2048\n\nmake it batch 2\n\nGRPO with 4 generations, completions 512, prompts 256\n\nmake it 8 generations\n",
    );
    assert!(
        out.contains("Noted: batch 4 → 2 (you said \"batch 2\")."),
        "{out}"
    );
    assert!(!out.contains("Changed: batch 4 → 2."), "{out}");
    assert!(
        out.contains("- before: Llama 3.1 8B QLoRA (bf16, adamw, batch 4, pack 2048)"),
        "{out}"
    );
    assert!(
        out.contains("The same peak: the step holds the same 2 completion(s) either way"),
        "{out}"
    );
}

/// A TRL script: its config call, then the trainer built from it.
fn trl_script(trainer: &str, extra: &str) -> String {
    format!(
        "smoke test on the spark, the script:\nfrom trl import {trainer}Config, {trainer}Trainer\ntraining_args = {trainer}Config(\n    output_dir=\"out\",\n    per_device_train_batch_size=4,\n    max_length=1024,\n    bf16=True,\n)\ntrainer = {trainer}Trainer(\n    model=\"Qwen/Qwen2.5-7B-Instruct\",\n    args=training_args,\n    train_dataset=dataset,{extra}\n)\ntrainer.train()\n"
    )
}

#[test]
fn a_trl_trainer_without_peft_config_trains_every_weight() {
    for trainer in ["SFT", "DPO", "GRPO"] {
        let out = converse(&trl_script(trainer, ""));
        assert!(
            out.contains("method full fine-tune (you said \"full method (a TRL trainer built without peft_config trains every weight)\")"),
            "{trainer}: {out}"
        );
        let out = converse(&trl_script(
            trainer,
            "\n    peft_config=LoraConfig(r=16, lora_alpha=32),",
        ));
        assert!(out.contains("method LoRA"), "{trainer}: {out}");
        assert!(!out.contains("trains every weight"), "{trainer}: {out}");
    }
}

#[test]
fn what_beta_does_to_memory_is_answered_and_a_beta_setting_is_not_a_question() {
    let run = "lora dpo on qwen3 8b, batch 1, cutoff 2048, beta 0.1";
    for ask in [
        "What means pref_beta? It change the memory?",
        "does beta matter for memory?",
        "what is the beta doing",
    ] {
        let out = converse(&format!("{run}\n\n{ask}\n"));
        assert!(
            out.contains("sizes no tensor, so every β above 0 costs the same memory"),
            "{ask}: {out}"
        );
    }
    let out = converse(&format!("{run}\n"));
    assert!(!out.contains("sizes no tensor"), "{out}");
}

#[test]
fn precomputing_an_adapter_runs_reference_says_why_the_peak_stays() {
    for ask in [
        "Is precompute the reference logprobs helping me here?",
        "what if I precompute the ref log-probs?",
    ] {
        let out = converse(&format!(
            "lora dpo on qwen3 8b, batch 1, cutoff 2048\n\n{ask}\n"
        ));
        assert!(out.contains("reference precomputed"), "{ask}: {out}");
        assert!(
            out.contains("The same peak: an adapter run's reference is its own base"),
            "{ask}: {out}"
        );
    }
}

#[test]
fn a_server_generators_largest_fraction_leaves_the_whole_run_its_peak() {
    // trl vllm-serve is up before the trainer starts: the fraction must
    // leave room for the run's binding peak, loading included, not only
    // for its step.
    for run in [
        "grpo with lora on llama 3.1 8b, r16, vllm server mode, 8 generations, prompts 512, completions up to 1024, per_device_train_batch_size 8",
        "GRPO on Qwen2.5 7B with LoRA, bf16, batch 2, 8 generations, completion 256, prompt 256, trl vllm-serve",
    ] {
        let out = converse(&format!("{run}\n"));
        let peak = out
            .split("peak ")
            .nth(1)
            .and_then(|s| s.split(" GB of the").next())
            .unwrap_or("?");
        assert!(
            out.contains(&format!("GB budget − {peak} GB run peak (")),
            "{run}: {out}"
        );
        assert!(out.contains("beside the run: ("), "{run}: {out}");
    }
}
