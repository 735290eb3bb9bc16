//! The piped dialogue's memory: what a restart knows, where it keeps it, and
//! what it refuses.

use crate::support::{Headroom, fixture};
use std::os::unix::fs::PermissionsExt;

const RUN: &str = "QLoRA on Llama 3.1 70B\n\nbatch 1, packing 2048\n\n";

#[test]
fn a_restart_asks_for_nothing_it_already_has() {
    let dir = tempfile::tempdir().unwrap();
    let first = Headroom::new(dir.path())
        .stdin(&format!("{RUN}{}", fixture("free-g-spark.txt")))
        .run()
        .ok();
    assert!(
        first.stdout.contains("**Verdict: fits.**"),
        "{}",
        first.stdout
    );
    let second = Headroom::new(dir.path())
        .at("2026-11-29T12:00:00Z")
        .stdin("plan\n\nassumptions\n")
        .run()
        .ok();
    assert!(
        second.stdout.starts_with("Welcome back."),
        "{}",
        second.stdout
    );
    assert!(!second.stdout.contains("I still need"), "{}", second.stdout);
    assert!(second.stdout.contains("**Verdict: fits.**"));
    assert!(
        second
            .stdout
            .contains("you said \"batch 1\" on 2026-11-29 10:00 UTC")
    );
}

#[test]
fn the_data_directory_and_its_files_are_private() {
    let parent = tempfile::tempdir().unwrap();
    let dir = parent.path().join("data");
    Headroom::new(&dir).stdin("bs 2\n").run().ok();
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&dir), 0o700);
    assert_eq!(mode(&dir.join("transcript.jsonl")), 0o600);
    assert_eq!(mode(&dir.join("lock")), 0o600);
}

#[test]
fn every_turn_is_in_the_transcript_with_the_facts_behind_the_reply() {
    let dir = tempfile::tempdir().unwrap();
    Headroom::new(dir.path())
        .stdin(&format!("{RUN}{}", fixture("free-g-spark.txt")))
        .run()
        .ok();
    let text = std::fs::read_to_string(dir.path().join("transcript.jsonl")).unwrap();
    let events: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let kinds: Vec<&str> = events
        .iter()
        .map(|e| e["event"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        [
            "session_start",
            "owner",
            "reply",
            "owner",
            "reply",
            "owner",
            "reply"
        ]
    );
    assert!(
        events[5]["text"]
            .as_str()
            .unwrap()
            .contains("Mem:             119")
    );
    assert_eq!(events[6]["kind"], "plan");
    assert_eq!(events[6]["facts"]["verdict"], "fits");
}

#[test]
fn an_unreadable_transcript_line_is_skipped_and_said() {
    let dir = tempfile::tempdir().unwrap();
    Headroom::new(dir.path()).stdin("bs 2\n").run().ok();
    let path = dir.path().join("transcript.jsonl");
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str("{not json\n");
    std::fs::write(&path, text).unwrap();
    let out = Headroom::new(dir.path()).run().ok();
    assert!(
        out.stdout.contains("your answers so far: batch 2"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("1 line(s) of"), "{}", out.stdout);
}

#[test]
fn a_second_session_on_the_same_data_directory_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    Headroom::new(dir.path()).run().ok();
    // Another session holds the directory's lock.
    let lock = std::fs::File::open(dir.path()).unwrap();
    lock.lock().unwrap();
    let out = Headroom::new(dir.path()).stdin("bs 2\n").run();
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("another headroom session is using"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("--data-dir"), "{}", out.stderr);
    drop(lock);
    Headroom::new(dir.path()).stdin("bs 2\n").run().ok();
}

#[test]
fn export_writes_the_session_as_markdown() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = tempfile::tempdir().unwrap();
    let target = out_dir.path().join("session.md");
    let out = Headroom::new(dir.path())
        .stdin(&format!(
            "LoRA on Qwen2.5 7B\n\n/export {}\n",
            target.display()
        ))
        .run()
        .ok();
    assert!(
        out.stdout.contains("Wrote this session to"),
        "{}",
        out.stdout
    );
    let md = std::fs::read_to_string(&target).unwrap();
    assert!(md.starts_with("# headroom session"));
    assert!(md.contains("LoRA on Qwen2.5 7B"));
    assert!(md.contains("To plan this run I still need"));
}

#[test]
fn quit_ends_the_dialogue_and_unknown_commands_get_a_suggestion() {
    let dir = tempfile::tempdir().unwrap();
    let out = Headroom::new(dir.path())
        .stdin("/stauts\n\n/quit\n\nbs 2\n")
        .run()
        .ok();
    assert!(
        out.stdout.contains("Did you mean `/status`?"),
        "{}",
        out.stdout
    );
    assert!(!out.stdout.contains("Noted: batch 2"), "{}", out.stdout);
}

#[test]
fn piped_output_has_no_colour() {
    let dir = tempfile::tempdir().unwrap();
    let out = Headroom::new(dir.path()).stdin("/help\n").run().ok();
    assert!(!out.stdout.contains('\x1b'));
    assert!(out.stdout.contains("/forget"));
}

#[test]
fn export_without_a_path_writes_into_the_current_directory() {
    let dir = tempfile::tempdir().unwrap();
    let cwd = tempfile::tempdir().unwrap();
    Headroom::new(dir.path())
        .cwd(cwd.path())
        .stdin("bs 2\n\n/export\n")
        .run()
        .ok();
    let written = cwd.path().join("headroom-session-20261129T100000Z.md");
    assert!(written.exists(), "no {}", written.display());
}

#[test]
fn plain_words_reach_every_estimator_knob() {
    let dir = tempfile::tempdir().unwrap();
    let out = Headroom::new(dir.path())
        .stdin(&format!(
            "LoRA on Qwen2.5 7B, bf16, batch 2, packing 2048, eager attention, pure bf16, fused loss, two sparks with fsdp\n\n{}\n\nwhat's the longest packing that fits?\n\ntensor parallel over the two sparks?\n",
            fixture("free-g-spark.txt")
        ))
        .run()
        .ok();
    let s = &out.stdout;
    assert!(s.contains("attention eager"), "{s}");
    assert!(s.contains("precision pure"), "{s}");
    assert!(s.contains("loss fused"), "{s}");
    assert!(s.contains("nodes 2"), "{s}");
    assert!(s.contains("sharding fsdp"), "{s}");
    assert!(s.contains("Longest packing length that fits: **"), "{s}");
    assert!(s.contains("Tensor parallel is refused"), "{s}");
}

/// A run given without a dtype is planned in bf16, said under "Assumed",
/// never asked for while what-ifs and server answers already price bf16
/// (set 14: six turns asked for it); one word changes it.
#[test]
fn a_run_without_a_dtype_is_planned_in_bf16_and_says_so() {
    for run in [
        "lora llama 3.1 8b batch 2 packing 2048",
        "full fine-tune of qwen3 0.6b, bs 4, 1k context",
        "Llama 3.2 3B, LoRA, batch 4, 1k context",
    ] {
        let out = crate::support::converse(&format!("{run}\n"));
        assert!(out.contains("**Verdict:"), "{run}: {out}");
        assert!(out.contains("Assumed: bf16"), "{run}: {out}");
        assert!(
            !out.contains("the dtype: bf16, fp16 or fp32"),
            "{run}: {out}"
        );
        let out = crate::support::converse(&format!("{run}\n\nfp16\n"));
        assert!(out.contains("dtype fp16"), "{run}: {out}");
    }
}

/// A pasted config that evaluates during training has its evaluation peak
/// planned (not "only if you evaluate"), and what the config sets is never
/// listed as assumed (set 15, 09: `sample_packing: true` was "padded
/// batches", and its eval batch "8 (axolotl)").
#[test]
fn a_config_that_evaluates_and_packs_is_planned_as_it_says() {
    let cfg = "base_model: NousResearch/Meta-Llama-3.1-8B\nadapter: lora\nsequence_len: 4096\nsample_packing: true\nmicro_batch_size: 2\nval_set_size: 0.05\nevals_per_epoch: 4\nlora_r: 16\nlora_target_linear: true\nbf16: auto\ngradient_checkpointing: true\n";
    let out = crate::support::converse(&format!("my axolotl config:\n{cfg}\nfull plan\n"));
    assert!(out.contains("- evaluation peak: **"), "{out}");
    assert!(
        !out.contains("only if you evaluate during training"),
        "{out}"
    );
    assert!(out.contains("eval batch 2 × 4,096 tokens"), "{out}");
    assert!(!out.contains("padded batches"), "{out}");
    assert!(!out.contains("eval batch 8 (axolotl)"), "{out}");
}
