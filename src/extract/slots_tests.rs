//! Unit tests for `extract::slots`, kept beside it so the reader stays short.
use super::*;

fn slots(text: &str) -> Vec<Slot> {
    extract(text, Knowledge::embedded())
        .into_iter()
        .map(|f| f.slot)
        .collect()
}

#[test]
fn the_issue_examples() {
    assert_eq!(
        slots("QLoRA on Llama 3.1 70B, batch 1, packing 2048"),
        vec![
            Slot::Model("Llama 3.1 70B".into()),
            Slot::Method(Method::Qlora),
            Slot::Batch(1),
            Slot::Pack(2048)
        ]
    );
    assert_eq!(slots("params 8b"), vec![Slot::Params(8_000_000_000)]);
    assert_eq!(slots("bf16"), vec![Slot::Dtype(Dtype::Bf16)]);
    assert_eq!(slots("full fine-tune"), vec![Slot::Method(Method::Full)]);
    assert_eq!(slots("max_seq_length=4096"), vec![Slot::Pack(4096)]);
    assert_eq!(slots("bs 2"), vec![Slot::Batch(2)]);
}

#[test]
fn catalog_names_in_many_spellings() {
    for text in [
        "meta-llama/Llama-3.1-70B-Instruct",
        "llama3.1:70b",
        "Llama 3.1 70B",
    ] {
        assert_eq!(
            slots(text),
            vec![Slot::Model("Llama 3.1 70B".into())],
            "{text}"
        );
    }
    assert_eq!(slots("qwen2.5 7b"), vec![Slot::Model("Qwen2.5 7B".into())]);
    assert_eq!(
        slots("Qwen2.5-72B"),
        vec![Slot::Model("Qwen2.5 72B".into())]
    );
    assert_eq!(slots("gemma 2 9b"), vec![Slot::Model("Gemma 2 9B".into())]);
    assert_eq!(
        slots("gemma-2-27b"),
        vec![Slot::Model("Gemma 2 27B".into())]
    );
}

#[test]
fn bare_sizes_and_knobs() {
    assert_eq!(slots("a 13B model"), vec![Slot::Params(13_000_000_000)]);
    assert_eq!(slots("seq len 4k"), vec![Slot::Pack(4096)]);
    assert_eq!(
        slots("adamw 8-bit"),
        vec![Slot::Optimizer(Optimizer::AdamW8bit)]
    );
    for text in [
        "optim=paged_adamw_8bit",
        "what if I use paged adamw 8bit",
        "paged adam 8-bit",
    ] {
        assert_eq!(
            slots(text),
            vec![Slot::Optimizer(Optimizer::PagedAdamW8bit)],
            "{text}"
        );
    }
    assert_eq!(
        slots("paged_adamw_32bit"),
        vec![Slot::Optimizer(Optimizer::PagedAdamW32bit)]
    );
    assert_eq!(
        slots("no gradient checkpointing"),
        vec![Slot::GradCheckpointing(false)]
    );
    assert_eq!(
        slots("gradient_checkpointing=true"),
        vec![Slot::GradCheckpointing(true)]
    );
    // A flag said not passed is off, whichever side the negation is on.
    for text in [
        "No --gradient_checkpointing passed.",
        "I didn't pass --gradient-checkpointing",
        "gradient_checkpointing was not set",
        "ran it without --gradient_checkpointing",
        "activation checkpointing is not enabled",
    ] {
        assert_eq!(slots(text), vec![Slot::GradCheckpointing(false)], "{text}");
    }
    assert_eq!(
        slots("with --gradient_checkpointing"),
        vec![Slot::GradCheckpointing(true)]
    );
    assert_eq!(slots("r=64"), vec![Slot::LoraRank(64)]);
    assert_eq!(
        slots("target_modules=['q_proj','v_proj']"),
        vec![Slot::LoraTargets(LoraTargets::Named(vec![
            "q_proj".into(),
            "v_proj".into()
        ]))]
    );
}

#[test]
fn estimator_knobs_in_plain_words() {
    assert_eq!(
        slots("pure bf16"),
        vec![Slot::Dtype(Dtype::Bf16), Slot::Precision(Precision::Pure)]
    );
    assert_eq!(
        slots("mixed precision"),
        vec![Slot::Precision(Precision::Mixed)]
    );
    assert_eq!(
        slots("attn_implementation=\"eager\""),
        vec![Slot::Attention(Attention::Eager)]
    );
    assert_eq!(
        slots("with the Liger kernel"),
        vec![Slot::Loss(Loss::Fused)]
    );
    for (words, loss) in [
        ("a chunked loss", Loss::Chunked),
        ("chunked cross-entropy", Loss::Chunked),
        ("the CEWithChunkedOutputLoss", Loss::Chunked),
        ("loss LinearCrossEntropyLoss", Loss::Fused),
        ("cut cross entropy", Loss::Fused),
        ("no fused loss", Loss::Upcast),
        ("the model's own bf16 cross-entropy", Loss::Native),
        ("fp32 loss", Loss::Upcast),
    ] {
        assert_eq!(slots(words), vec![Slot::Loss(loss)], "{words}");
    }
    assert_eq!(slots("lora_dropout=0.0"), vec![Slot::LoraDropout(false)]);
    assert_eq!(
        slots("two sparks with fsdp"),
        vec![Slot::Nodes(2), Slot::Sharding(Sharding::Fsdp)]
    );
    assert_eq!(
        slots("tensor parallel over 2 sparks"),
        vec![Slot::TensorParallel]
    );
    assert_eq!(
        slots("cpu offload of the optimizer"),
        vec![Slot::Offload(true)]
    );
    assert_eq!(
        slots("what's the longest packing that fits?"),
        vec![Slot::Solve(SolveFor::Pack)]
    );
    assert_eq!(
        slots("largest batch size I can use"),
        vec![Slot::Solve(SolveFor::Batch)]
    );
    for words in [
        "and the largest micro_batch_size?",
        "max micro batch that fits",
        "biggest per_device_train_batch_size",
    ] {
        assert!(
            slots(words).contains(&Slot::Solve(SolveFor::Batch)),
            "{words}"
        );
    }
    assert!(slots("longest sequence_len I can use").contains(&Slot::Solve(SolveFor::Pack)));
}

#[test]
fn solve_questions_in_other_words_and_settings_that_look_like_them() {
    for words in [
        "whats the longest ctx that fits",
        "max context length I can run?",
        "how long can the context be at bs 1",
        "what's the max seq len then",
        "highest cutoff_len that still fits?",
        "how long a sequence fits",
    ] {
        assert!(
            slots(words).contains(&Slot::Solve(SolveFor::Pack)),
            "{words}: {:?}",
            slots(words)
        );
    }
    for words in [
        "how big a batch can I use",
        "how far could I push the batch",
        "max bs?",
        "largest possible mbs",
    ] {
        assert!(
            slots(words).contains(&Slot::Solve(SolveFor::Batch)),
            "{words}: {:?}",
            slots(words)
        );
    }
    // A figure after the words makes them a setting, not a question.
    for words in [
        "max seq length 4096",
        "max_length=2048, batch 2",
        "maximum context of 8192",
        "max batch size: 4",
        "how long will the run take at batch 4",
    ] {
        assert!(
            !slots(words).iter().any(|s| matches!(s, Slot::Solve(_))),
            "{words}: {:?}",
            slots(words)
        );
    }
}

#[test]
fn targets_and_adafactor_in_words() {
    assert_eq!(
        slots("LoRA on attention only"),
        vec![
            Slot::Method(Method::Lora),
            Slot::LoraTargets(LoraTargets::Attention)
        ]
    );
    for words in [
        "lora on attention projections only",
        "adapters on the attention layers only",
        "only on the attention projections",
        "attn-proj-only lora",
    ] {
        assert!(
            slots(words).contains(&Slot::LoraTargets(LoraTargets::Attention)),
            "{words}"
        );
    }
    assert_eq!(
        slots("q_proj and v_proj"),
        vec![Slot::LoraTargets(LoraTargets::Named(vec![
            "q_proj".into(),
            "v_proj".into()
        ]))]
    );
    assert_eq!(
        slots("adafactor"),
        vec![Slot::Optimizer(Optimizer::Adafactor)]
    );
}

#[test]
fn hub_ids_map_to_the_catalog() {
    for (text, want) in [
        ("google/gemma-2-9b-it", "Gemma 2 9B"),
        ("meta-llama/Llama-3.2-3B-Instruct", "Llama 3.2 3B"),
        ("unsloth/Meta-Llama-3.1-70B-bnb-4bit", "Llama 3.1 70B"),
        ("Qwen/Qwen2.5-32B-Instruct", "Qwen2.5 32B"),
    ] {
        assert_eq!(
            slots(text).first(),
            Some(&Slot::Model(want.into())),
            "{text}"
        );
    }
}

#[test]
fn unknown_models_are_named_not_dropped() {
    assert_eq!(
        slots("and what about Falcon-H1 34B?"),
        vec![Slot::UnknownModel("Falcon-H1 34B".into())]
    );
    assert_eq!(
        slots("LoRA on Llama 4 Scout"),
        vec![
            Slot::UnknownModel("Llama 4 Scout".into()),
            Slot::Method(Method::Lora)
        ]
    );
}

#[test]
fn eight_bit_adam_in_words() {
    for text in [
        "the 8-bit adam optimizer",
        "adam 8bit",
        "bnb 8bit adamw",
        "adamw_8bit",
    ] {
        assert_eq!(
            slots(text),
            vec![Slot::Optimizer(Optimizer::AdamW8bit)],
            "{text}"
        );
    }
}

#[test]
fn words_that_name_nothing_fill_nothing() {
    assert!(slots("hello, what can you do?").is_empty());
    assert!(slots("the run took 3 hours").is_empty());
}

#[test]
fn packing_in_short_forms() {
    for text in [
        "seq 4096",
        "seqlen 4096",
        "sequence length 4096",
        "block_size: 4096",
    ] {
        assert_eq!(slots(text), vec![Slot::Pack(4096)], "{text}");
    }
}

#[test]
fn projections_by_their_letters_are_the_targets() {
    use crate::calc::setup::LoraTargets;
    let named = |list: &[&str]| {
        Slot::LoraTargets(LoraTargets::Named(
            list.iter().map(|s| s.to_string()).collect(),
        ))
    };
    for (words, expected) in [
        (
            "lora only on q,k,v,o",
            named(&["q_proj", "k_proj", "v_proj", "o_proj"]),
        ),
        ("adapters on q/v", named(&["q_proj", "v_proj"])),
        ("lora on qkv", named(&["q_proj", "k_proj", "v_proj"])),
    ] {
        assert!(
            slots(words).contains(&expected),
            "{words}: {:?}",
            slots(words)
        );
    }
    // A key-value cache is no target list.
    assert!(
        !slots("the kv cache on q")
            .iter()
            .any(|s| matches!(s, Slot::LoraTargets(_)))
    );
}

#[test]
fn figures_no_plan_can_take_are_refused_in_the_owners_digits() {
    for (words, digits) in [
        (
            "batch 99999999999999999999",
            "a batch of 99999999999999999999",
        ),
        (
            "packing 123456789012345678901234",
            "a packing length of 123456789012345678901234",
        ),
    ] {
        let found = slots(words);
        assert!(
            found
                .iter()
                .any(|s| matches!(s, Slot::OutOfRange(why) if why.starts_with(digits))),
            "{words}: {found:?}"
        );
    }
    // A rank refused is no method: "lora rank 0" leaves QLoRA as it was.
    assert!(
        !slots("lora rank 0")
            .iter()
            .any(|s| matches!(s, Slot::Method(_))),
        "{:?}",
        slots("lora rank 0")
    );
}
