//! The run as the owner gives it around everything else in a turn: words
//! above a driver's log, a size or a stack restated in a question, a
//! config's 8-bit base, a start said as a time of day.

use crate::support::converse;

#[test]
fn words_above_the_drivers_lines_set_the_run() {
    for driver in [
        "NVRM: nvCheckOkFailedNoLog: Check failed: Out of memory [NV_ERR_NO_MEMORY]\n(0x00000051) returned from _memdescAllocInternal(pMemDesc) @ mem_desc.c:1359",
        "NVRM: _iovaspaceCreateMappingDataFromMemDesc: failed to allocate\n0x176028 bytes for IOVA mapping metadata\nNVRM: Out of memory [NV_ERR_NO_MEMORY]",
    ] {
        let out = converse(&format!(
            "Llama 3.1 70B QLoRA, bf16, batch 1, max_seq_length 2048. The whole machine froze mid-step around step 600, the kernel log had this:\n{driver}\n"
        ));
        assert!(
            out.contains("Noted: model Llama 3.1 70B, method QLoRA"),
            "{out}"
        );
        assert!(out.contains("OOM noted"), "{out}");
        assert!(
            !out[out.find("OOM noted").unwrap()..].contains("- the model:"),
            "{out}"
        );
    }
}

#[test]
fn a_size_restated_in_a_question_is_the_runs_own() {
    for (run, question) in [
        (
            "Llama 3.1 8B qlora bf16 batch 1 packing 2048",
            "8b model, should be tiny?",
        ),
        (
            "Llama 3.1 70B qlora bf16 batch 1 packing 2048",
            "would a 70b fit?",
        ),
        (
            "gpt-oss 120b lora bf16 batch 1 packing 2048",
            "someone said a 120b moe lora takes ~68GB, does your number agree?",
        ),
    ] {
        let out = converse(&format!("{run}\n\n{question}\n"));
        let last = &out[out.rfind(question).map_or(0, |i| i)..];
        assert!(!out.contains("What if model"), "{question}: {out}");
        assert!(!out.contains("found no run setting"), "{question}: {last}");
    }
    // A different size is still a what-if.
    let out = converse("Llama 3.1 8B qlora bf16 batch 1 packing 2048\n\nwould a 70b fit?\n");
    assert!(out.contains("What if model"), "{out}");
}

#[test]
fn a_stack_named_in_passing_describes_the_run() {
    let out = converse(
        "gonna run this config on the spark tonight (axolotl), will it fit?\nbase_model: Qwen/Qwen2.5-7B\nadapter: lora\nmicro_batch_size: 2\nsequence_len: 4096\nbf16: true\n",
    );
    assert!(!out.contains("What if framework"), "{out}");
    assert!(out.contains("Verdict"), "{out}");
}

#[test]
fn a_configs_eight_bit_base_is_planned_in_int8() {
    for config in [
        "base_model: meta-llama/Llama-3.1-8B\nload_in_8bit: true\nadapter: lora\nmicro_batch_size: 1\nsequence_len: 2048\nbf16: auto",
        "model_name_or_path: meta-llama/Llama-3.1-8B\nload_in_8bit: true\nuse_peft: true\nper_device_train_batch_size: 1\nmax_seq_length: 2048\nbf16: true",
    ] {
        let out = converse(&format!("will this fit?\n{config}\n"));
        assert!(out.contains("dtype int8"), "{out}");
        assert!(!out.contains("dtype bf16 → int8"), "{out}");
    }
}

#[test]
fn a_start_said_as_a_time_of_day_takes_the_samples_day() {
    let csv = "timestamp, temperature.gpu, power.draw [W], clocks.current.sm [MHz]\n2026/03/14 00:20:00.112, 79, 97.12 W, 2477 MHz\n2026/03/14 00:21:00.117, 80, 96.84 W, 2484 MHz\n2026/03/14 00:22:00.121, 79, 98.03 W, 2470 MHz";
    for (said, want) in [
        (
            "training started at 22:40 last night",
            "2026-03-13 22:40:00",
        ),
        ("the run started at 0:05 tonight", "2026-03-14 00:05:00"),
    ] {
        let out = converse(&format!(
            "my run slowed down. {said}, here are the samples:\n{csv}\n"
        ));
        assert!(out.contains(&format!("Run start: {want}")), "{said}: {out}");
        assert!(!out.contains("When did the run start?"), "{said}: {out}");
    }
}

#[test]
fn a_config_pasted_under_words_naming_the_model_is_that_model() {
    let config = std::fs::read_to_string(
        crate::support::repo().join("tests/fixtures/mistral-nemo-12b-config.json"),
    )
    .unwrap();
    for words in [
        "got a mistral-nemo 12b finetune from a colleague, config.json below. lora bf16, batch 2, packing 8192. fits?",
        "Mistral Nemo 12B, config:\nlora, bf16, batch 2, packing 8192",
    ] {
        let out = crate::support::converse(&format!("{words}\n{}\n", config.trim()));
        assert!(
            out.contains("Noted: model Mistral Nemo 12B (your pasted config.json)"),
            "{words}: {out}"
        );
        assert!(!out.contains("→ Mistral Nemo 12B"), "{words}: {out}");
        assert!(!out.contains("the model in Mistral"), "{words}: {out}");
    }
}
