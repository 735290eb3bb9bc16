//! Settings said the owner's way: abbreviations ("bsz"), sizes in words
//! ("fourteen b"), the method said by what is trained ("the whole model")
//! and a method ruled out ("not lora", "no lora") never taken as the one
//! chosen.

use crate::support::converse;

fn noted(out: &str) -> &str {
    out.lines().find(|l| l.starts_with("Noted:")).unwrap_or("")
}

#[test]
fn bsz_is_the_batch() {
    for (said, batch) in [
        (
            "qlora llama 3.1 70b, bsz 1, seq 2048. fits?",
            "batch 1 (you said \"bsz 1\")",
        ),
        ("lora qwen2.5 7b bsz=4 packing 1024", "batch 4"),
        (
            "full dpo on mistral 7b, bsz 2, max_length 1024",
            "batch 2 (you said \"bsz 2\")",
        ),
    ] {
        let out = converse(&format!("{said}\n"));
        assert!(out.contains(batch), "{said}: {out}");
        assert!(!out.contains("- the batch size"), "{said}: {out}");
    }
}

#[test]
fn a_model_size_in_words_names_the_model() {
    for (said, model) in [
        (
            "lora on qwen 2.5 fourteen b, batch 2, packing 2048",
            "model Qwen2.5 14B",
        ),
        (
            "qlora llama 3.1 seventy b, batch 1, packing 2048",
            "model Llama 3.1 70B",
        ),
        (
            "lora on qwen2.5 seven billion, batch 2, packing 1024",
            "model Qwen2.5 7B",
        ),
    ] {
        let out = converse(&format!("{said}\n"));
        assert!(noted(&out).contains(model), "{said}: {out}");
        assert!(!out.contains("not in my model catalog"), "{said}: {out}");
    }
}

#[test]
fn what_is_trained_names_the_method_and_a_ruled_out_method_is_not_taken() {
    for said in [
        "qwen2.5 7b, the whole model not lora, batch 2, packing 1024",
        "qwen2.5 7b, no lora whatever happens, i need full param dpo, batch 2, packing 1024",
        "qwen2.5 7b training all the parameters, batch 2, packing 1024",
        "qwen2.5 7b, every weight trained, batch 2, packing 1024",
    ] {
        let out = converse(&format!("{said}\n"));
        assert!(
            noted(&out).contains("method full fine-tune"),
            "{said}: {out}"
        );
        assert!(!out.contains("method LoRA"), "{said}: {out}");
    }
    // "no lora dropout" is a setting of a LoRA run, not a no to LoRA.
    let out = converse("lora qwen2.5 7b, no lora dropout, batch 2, pack 1024\n");
    assert!(noted(&out).contains("method LoRA"), "{out}");
    assert!(
        noted(&out).contains("dropout off (you said \"no lora dropout\")"),
        "{out}"
    );
    // Ruled out later in a conversation: the run stays full.
    let out = converse(
        "full dpo, qwen2.5 7b, bsz 2, max_length 1024\n\nno lora whatever happens. does precompute_ref_log_probs=True fit?\n",
    );
    assert!(!out.contains("full fine-tune → LoRA"), "{out}");
}

#[test]
fn options_for_a_run_no_packing_or_batch_saves_name_what_would_fit() {
    for ask in [
        "oh no. is that bad? what are my options",
        "so? it doesn't fit?",
    ] {
        let out = converse(&format!(
            "full fine-tune of qwen2.5 14b, batch 2, packing 2000\n\n{ask}\n"
        ));
        let answer = out
            .rsplit("\n\n\n")
            .find(|s| !s.trim().is_empty())
            .unwrap_or(&out);
        assert!(answer.contains("It does not fit"), "{ask}: {answer}");
        assert!(
            answer.contains("Shorter packing or a smaller batch does not fit either"),
            "{ask}: {answer}"
        );
        assert!(
            answer.contains("what would: QLoRA (a 4-bit base)"),
            "{ask}: {answer}"
        );
    }
}

#[test]
fn a_free_m_paste_is_read_in_mib_by_its_own_command_line() {
    let out = converse(
        "$ free -m\n             total       used       free     shared    buffers     cached\nMem:         121856       5174      80000          0         62      36000\n-/+ buffers/cache:       2740     116062\nSwap:        16383       3840      12543\n",
    );
    // Old procps: what the kernel can give is the -/+ buffers/cache line.
    assert!(out.contains("available 116062"), "{out}");
    // 116062 MiB = 121,699,827,712 B, shown rounded down.
    assert!(out.contains("available 121.69 GB"), "{out}");
}

#[test]
fn a_value_after_punctuation_or_a_struck_value_is_the_setting() {
    for (turn, want) in [
        ("ok lets try shorter cutoff. 1024.", "pack 4096 → 1024"),
        ("shorter cutoff, 1024", "pack 4096 → 1024"),
        (
            "cutoff_len 2048. Sorry, not 2048 — 3072.",
            "pack 4096 → 3072",
        ),
        ("packing 2048, no wait, not 2048 - 1536", "pack 4096 → 1536"),
    ] {
        let out = converse(&format!("lora qwen2.5 7b batch 2 packing 4096\n\n{turn}\n"));
        assert!(out.contains(want), "{turn}: {out}");
        assert!(!out.contains("found no run setting"), "{turn}: {out}");
    }
}

#[test]
fn no_root_sets_the_waiting_flush_aside() {
    for said in [
        "go, wait no. im not root on this box, the admin is",
        "I don't have sudo here",
        "no root access on this machine, sorry",
    ] {
        let out = converse(&format!(
            "lora qwen2.5 7b batch 2 packing 4096\n\nit OOMed at step 30: torch.OutOfMemoryError: CUDA out of memory.\n\n{said}\n"
        ));
        let answer = out
            .rsplit("\n\n\n")
            .find(|s| !s.trim().is_empty())
            .unwrap_or(&out);
        assert!(
            answer.contains("Without root the flush is not yours to run"),
            "{said}: {answer}"
        );
        assert!(
            answer.contains("Noted: you declined step 1"),
            "{said}: {answer}"
        );
        assert!(!answer.contains("sync; echo 3"), "{said}: {answer}");
        assert!(
            !answer.contains("What is waiting: step 1"),
            "{said}: {answer}"
        );
    }
}
