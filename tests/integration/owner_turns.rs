//! Turns owners write that no reader expected: sequences counted per
//! batch, "micro 4?", "k do it", "si, yes", a unit after "at", torchtune's
//! model ids, an OOM from another machine, a question while a step waits,
//! and a run reported running for a while.

use crate::support::converse;

fn noted(out: &str) -> String {
    out.lines()
        .skip_while(|l| !l.starts_with("Noted:"))
        .take_while(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn sequences_counted_per_batch_are_the_batch() {
    for (said, batch) in [
        (
            "full fine-tune of gemma 2 9b, four sequences per batch and each one 2048 tokens long",
            "batch 4",
        ),
        (
            "lora llama 3.1 8b, 2 samples per step, packing 1024",
            "batch 2",
        ),
        ("qlora qwen2.5 7b, 16 per device, 1024 tokens", "batch 16"),
    ] {
        let out = converse(&format!("{said}\n"));
        assert!(noted(&out).contains(batch), "{said}: {out}");
        assert!(!out.contains("- the batch size"), "{said}: {out}");
    }
}

#[test]
fn short_what_ifs_and_their_adoption() {
    let out = converse(
        "qlora mistral 7b micro_batch_size 2, sequence_len 8192\n\nmicro 4?\n\nk do it\n\nand 32 per device?\n\nHow about finetuning_type is full?\n",
    );
    assert!(out.contains("What if batch 2 → 4"), "{out}");
    assert!(out.contains("Changed: batch 2 → 4"), "{out}");
    assert!(out.contains("What if batch 4 → 32"), "{out}");
    assert!(
        out.contains("What if method QLoRA → full fine-tune"),
        "{out}"
    );
    assert!(!out.contains("found no run setting"), "{out}");
}

#[test]
fn a_figure_with_a_unit_after_at_is_no_length() {
    for said in [
        "lora llama 3.1 8b batch 2. 105 W looks low for a box rated at 240 W.",
        "lora llama 3.1 8b batch 2. the clock sits at 1500 MHz.",
        "lora llama 3.1 8b batch 2. it peaked at 1200 seconds.",
    ] {
        let out = converse(&format!("{said}\n"));
        let n = noted(&out);
        assert!(n.contains("batch 2"), "{said}: {out}");
        assert!(!n.contains("pack"), "{said}: {out}");
    }
    // Without a unit, "at" still gives the packing.
    let out = converse("lora llama 3.1 8b batch 2 at 2048.\n");
    assert!(noted(&out).contains("pack 2048"), "{out}");
}

#[test]
fn letters_and_thousands_name_targets_and_lengths() {
    let out = converse(
        "qwen2.5-14b, lora rank 64 but only on q,k,v,o. batch 8 no wait 6. samples cut at 3k tokens\n",
    );
    let n = noted(&out);
    assert!(n.contains("targets q_proj,k_proj,v_proj,o_proj"), "{out}");
    assert!(n.contains("batch 6"), "{out}");
    assert!(n.contains("pack 3072"), "{out}");
}

#[test]
fn torchtune_model_ids_with_underscores_are_catalog_models() {
    for (id, model) in [
        ("llama3_1_8b", "Llama 3.1 8B"),
        ("qwen2_5_7b", "Qwen2.5 7B"),
        ("llama3_2_1b", "Llama 3.2 1B"),
    ] {
        let out = converse(&format!("full fine-tune {id} batch 2 packing 2048\n"));
        assert!(
            noted(&out).contains(&format!("model {model}")),
            "{id}: {out}"
        );
        assert!(!out.contains("not in my model catalog"), "{id}: {out}");
    }
}

const OLD_BOX_OOM: &str = "[2023-12-28 10:04:57,187] [ERROR] [axolotl.load_model:453] [PID:34] [RANK:1] CUDA out of memory. Tried to allocate 28.00 MiB (GPU 1; 15.71 GiB total capacity; 15.39 GiB already allocated; 24.31 MiB free; 15.46 GiB reserved in total by PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid fragmentation.";

#[test]
fn an_oom_from_a_smaller_card_opens_no_ladder_here() {
    let out = converse(&format!(
        "my old titan box died loading mixtral 8x7b qlora with this. on the spark, will it even load?\n{OLD_BOX_OOM}\n"
    ));
    assert!(
        out.contains("GPU with 15.71 GiB in total, not this Spark"),
        "{out}"
    );
    assert!(!out.contains("OOM noted"), "{out}");
    assert!(!out.contains("Step 1 of the OOM ladder"), "{out}");
    // The load is answered without a batch or packing.
    assert!(out.contains("Loading Mixtral 8x7B QLoRA"), "{out}");
    assert!(out.contains("**it loads**"), "{out}");
    // A Spark's own OOM still opens the ladder.
    let own = converse(
        "lora llama 3.1 8b batch 2 packing 4096, it died at step 3:\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 121.69 GiB of which 1.20 GiB is free.\n",
    );
    assert!(own.contains("OOM noted"), "{own}");
}

#[test]
fn will_it_load_asked_with_the_run_complete() {
    let out = converse("qlora llama 3.1 70b batch 1 packing 2048\n\ndoes it even load?\n");
    assert!(out.contains("Loading Llama 3.1 70B QLoRA"), "{out}");
    assert!(!out.contains("that verdict waits"), "{out}");
}

const SPARK_OOM: &str = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 80.00 MiB.\nGPU 0 has a total capacity of 121.69 GiB of which 583.20 MiB is free.\nThis process has 117.79 GiB memory in use.";

#[test]
fn a_load_that_went_well_puts_the_oom_in_the_step() {
    let out = converse(&format!(
        "lora gemma-2-27b bf16 batch 1 packing 4096 adamw 8bit. the model load fine (~54GB) but in the first step it die with this:\n{SPARK_OOM}\n"
    ));
    assert!(out.contains("(mid-step)"), "{out}");
    assert!(!out.contains("(mid-load)"), "{out}");
}

#[test]
fn a_question_while_a_step_waits_is_answered_and_the_step_still_waits() {
    let out = converse(&format!(
        "lora gemma-2-27b bf16 batch 1 packing 4096 adamw 8bit, it died at step 1:\n{SPARK_OOM}\n\nok yes\n\nflushed, same\n\nwhy not change the batch? is already 1\n\nsi, yes\n\ndone, now it run since 20 minutes. thank you!\n"
    ));
    let asked = out
        .split("Your batch is already 1")
        .nth(1)
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        asked.contains("Still waiting: step 2: shorter packing"),
        "{out}"
    );
    assert!(out.contains("Changed: pack 4096 → 2048"), "{out}");
    assert!(!out.contains("Nothing was done"), "{out}");
    assert!(!out.contains("found no run setting"), "{out}");
}

#[test]
fn what_first_if_it_ooms_is_the_ladder_ahead() {
    for asked in [
        "and if it dies while loading anyway, what first",
        "what do I do if it OOMs?",
        "if it crashes for memory, what's the order?",
    ] {
        let out = converse(&format!(
            "qlora mixtral 8x7b batch 2 packing 1024\n\n{asked}\n"
        ));
        assert!(
            out.contains("step 1, flush the page cache"),
            "{asked}: {out}"
        );
        assert!(!out.contains("OOM noted"), "{asked}: {out}");
    }
}

#[test]
fn a_model_other_people_use_is_not_the_runs() {
    for said in [
        "But my teammates sometimes hit gpt-oss:120b from their laptops.",
        "the team queries llama 3.1 70b all day on this box",
        "colleagues use qwen3 32b on it",
    ] {
        let out = converse(&format!(
            "lora llama 3.1 8b batch 2 packing 2048\n\n{said}\n"
        ));
        assert!(!out.contains("model Llama 3.1 8B →"), "{said}: {out}");
        assert_eq!(out.matches("Noted: model").count(), 1, "{said}: {out}");
    }
}
