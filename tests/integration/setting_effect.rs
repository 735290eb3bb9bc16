//! "what does the chunked loss buy me?": a question about a setting the run
//! already has is answered with the run beside itself without it, and the
//! run stays as it was; a setting the run lacks is still a what-if.

use crate::support::converse;

const RUN: &str = "qlora llama 3.1 8b batch 4 packing 4096, chunked loss\n\n";

#[test]
fn a_setting_the_run_has_is_priced_by_its_absence() {
    for (asked, named, alternative) in [
        (
            "what does the chunked loss buy me here?",
            "What the chunked loss buys this run",
            "fp32-upcast logits",
        ),
        (
            "is the chunked loss actually helping?",
            "What the chunked loss buys this run",
            "fp32-upcast logits",
        ),
        (
            "how much is gradient checkpointing saving me?",
            "What gradient checkpointing buys this run",
            "checkpointing off",
        ),
        (
            "does qlora save me much here vs plain lora?",
            "What QLoRA's 4-bit base buys this run",
            "bf16 LoRA",
        ),
    ] {
        let out = converse(&format!("{RUN}{asked}\n"));
        let answer = out
            .split(named)
            .nth(1)
            .unwrap_or_else(|| panic!("{asked}: {out}"));
        assert!(answer.contains(alternative), "{asked}: {out}");
        assert!(answer.contains("Your run is unchanged."), "{asked}: {out}");
        assert!(!answer.contains("ok, do that"), "{asked}: {out}");
        assert!(!answer.contains("found no run setting"), "{asked}: {out}");
    }
}

#[test]
fn the_difference_is_the_two_peaks_apart() {
    let out = converse(&format!("{RUN}what does the chunked loss buy me here?\n"));
    let line = out
        .split("What the chunked loss buys this run: ")
        .nth(1)
        .expect(&out);
    let figure = |s: &str| -> f64 { s.split(" GB").next().unwrap().trim().parse().unwrap() };
    let saved = figure(line);
    let with = figure(line.split("the peak is ").nth(1).unwrap());
    let without = figure(line.split("instead it would be ").nth(1).unwrap());
    assert!((without - with - saved).abs() < 0.005, "{line}");
    assert!(without > with, "{line}");
}

#[test]
fn the_run_is_not_changed_by_the_question() {
    let out = converse(&format!(
        "{RUN}what is gradient checkpointing buying me?\n\nok do that\n"
    ));
    assert!(!out.contains("Adopted"), "{out}");
    assert!(!out.contains("checkpointing on → off"), "{out}");
}

#[test]
fn a_setting_the_run_lacks_is_still_a_what_if() {
    let out = converse(&format!("{RUN}what would the fused loss buy me?\n"));
    assert!(out.contains("What if loss chunked → fused"), "{out}");
    assert!(!out.contains("buys this run"), "{out}");
}

/// torchtune's own Gemma 2 27B LoRA recipe, pasted as a chat turn (blank
/// lines dropped, as a paste in one turn has them): its loss, dropout and
/// MLP adapters are the run's.
#[test]
fn a_torchtune_recipe_gives_its_loss_dropout_and_mlp_adapters() {
    let cfg: String =
        crate::support::fixture("real/config/torchtune-gemma2-27b-lora-single-device-yaml.txt")
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| format!("{l}\n"))
            .collect();
    let out = converse(&format!(
        "launched with tokenizer.max_seq_len=2048, will it fit?\n{cfg}\nwhat does CEWithChunkedOutputLoss buy me here?\n"
    ));
    let noted = out
        .lines()
        .skip_while(|l| !l.starts_with("Noted:"))
        .take(6)
        .collect::<Vec<_>>()
        .join(" ");
    assert!(noted.contains("loss chunked"), "{out}");
    assert!(noted.contains("dropout off"), "{out}");
    assert!(noted.contains("gate_proj,up_proj,down_proj"), "{out}");
    assert!(!out.contains("loss fused"), "{out}");
    assert!(out.contains("padded batches"), "{out}");
    assert!(out.contains("What the chunked loss buys this run"), "{out}");
}

/// "what does --gradient_checkpointing buy me here" about a run that does
/// not use it: the run beside itself with it, unchanged, even while a
/// ladder step waits for its yes (set 19, 03 T5).
#[test]
fn a_setting_the_run_lacks_asked_what_it_buys_is_priced_with_it() {
    for (run, asked) in [
        (
            "qlora llama 3.1 8b batch 4 packing 2048, no gradient checkpointing",
            "what does --gradient_checkpointing buy me here",
        ),
        (
            "qlora llama 3.1 8b batch 4 packing 2048, no gradient checkpointing. it OOMed mid-step",
            "what does gradient checkpointing buy me here?",
        ),
    ] {
        let out = converse(&format!("{run}\n\n{asked}\n"));
        let answer = out
            .split("What gradient checkpointing would buy this run")
            .nth(1)
            .unwrap_or_else(|| panic!("{asked}: {out}"));
        assert!(answer.contains("GB off the peak"), "{asked}: {out}");
        assert!(answer.contains("Your run is unchanged"), "{asked}: {out}");
        assert!(!out.contains("Nothing was done"), "{asked}: {out}");
        assert!(!out.contains("found no run setting"), "{asked}: {out}");
    }
}
