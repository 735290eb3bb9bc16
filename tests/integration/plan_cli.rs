//! `headroom plan`: the one-shot answer for scripts.

use crate::support::{Headroom, fixture};

fn plan(args: &[&str]) -> crate::support::Ran {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut all = vec!["plan"];
    all.extend_from_slice(args);
    Headroom::new(dir.path()).args(&all).run()
}

#[test]
fn seventy_b_qlora_lands_near_the_40_gb_anchor() {
    let out = plan(&[
        "--params", "70B", "--method", "qlora", "--batch", "1", "--pack", "2048", "--json",
    ])
    .ok();
    let j = out.json();
    let total = j["total_gb"].as_f64().expect("total_gb");
    // The anchor is an observed total with no stated packing, rank or loss;
    // its 40 GB is about the 4-bit weights alone (39.46 GB here). The
    // worksheet adds what a step needs on top (validated on measured QLoRA
    // runs in validation.rs), so it sits above 40 GB, within a third of it.
    assert!((40.0..=54.0).contains(&total), "total {total} GB");
    let weights = j["terms"]["weights_gb"].as_f64().unwrap();
    assert!((39.0..=40.5).contains(&weights), "weights {weights} GB");
    assert_eq!(j["verdict"], "fits");
    assert!(j["budget_gb"].is_null());
    for key in [
        "weights_gb",
        "optimizer_gb",
        "gradients_gb",
        "activations_gb",
    ] {
        assert!(j["terms"][key].as_f64().is_some(), "{key}");
    }
    let sum: f64 = j["term_details"]
        .as_array()
        .expect("details")
        .iter()
        .map(|t| t["gb"].as_f64().expect("gb"))
        .sum();
    assert!(
        (sum - total).abs() < 0.005,
        "terms sum to {sum}, total {total}"
    );
    assert!(j["anchors"][0]["anchor"] == "70B QLoRA");
}

#[test]
fn seventy_b_full_finetune_in_bf16_does_not_fit() {
    let j = plan(&[
        "--model",
        "Llama 3.1 70B",
        "--method",
        "full",
        "--dtype",
        "bf16",
        "--json",
    ])
    .ok()
    .json();
    assert_eq!(j["verdict"], "does_not_fit");
    // 2 B weights + 2 B gradients + 8 B AdamW states per parameter.
    assert!(j["total_gb"].as_f64().unwrap() > 70.55 * 12.0);
}

#[test]
fn nine_b_full_finetune_with_8bit_adamw_fits() {
    for size in [["--params", "9B"], ["--model", "gemma-2-9b"]] {
        let mut args = size.to_vec();
        args.extend([
            "--method",
            "full",
            "--optimizer",
            "adamw_8bit",
            "--free",
            "-",
            "--json",
        ]);
        let dir = tempfile::tempdir().unwrap();
        let mut all = vec!["plan"];
        all.extend(args);
        let j = Headroom::new(dir.path())
            .args(&all)
            .stdin(&fixture("free-g-spark.txt"))
            .run()
            .ok()
            .json();
        assert_eq!(j["verdict"], "fits", "{size:?}: {j}");
        assert_eq!(j["budget_gb"], 119.48);
    }
}

#[test]
fn text_answer_shows_terms_budget_anchors_and_the_caveat() {
    let free = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(free.path(), fixture("free-g-spark.txt")).unwrap();
    let out = plan(&[
        "--model",
        "qwen2.5-32b",
        "--method",
        "lora",
        "--batch",
        "4",
        "--pack",
        "4096",
        "--free",
        free.path().to_str().unwrap(),
    ])
    .ok();
    let text = out.stdout;
    assert!(text.contains("**Verdict: tight.**"), "{text}");
    assert!(text.contains("start with shorter packing or a smaller batch"));
    assert!(text.contains("packing 4096 → 2048"));
    assert!(text.contains("115 × 1.073741824 = 123.48 GB"));
    assert!(text.contains("minus 4 GB OS/driver reserve"));
    assert!(text.contains("Closest seed anchors"));
    assert!(text.contains("planning math, not a guarantee"));
    assert!(text.contains("Assumed, because you did not say"));
}

#[test]
fn config_json_gives_the_exact_architecture() {
    let config = crate::support::repo().join("tests/fixtures/llama-3.1-8b-config.json");
    let j = plan(&[
        "--config",
        config.to_str().unwrap(),
        "--method",
        "lora",
        "--json",
    ])
    .ok()
    .json();
    assert_eq!(j["params"], 8_030_261_248u64);
    assert_eq!(j["shape_basis"]["kind"], "config");
}

#[test]
fn bad_flags_name_the_flag_and_exit_non_zero() {
    let out = plan(&["--params", "seventy", "--method", "qlora"]);
    assert_ne!(out.code, 0);
    assert!(out.stderr.contains("--params"), "{}", out.stderr);

    let out = plan(&["--params", "70B"]);
    assert_ne!(out.code, 0);
    assert!(out.stderr.contains("--method"), "{}", out.stderr);

    let out = plan(&["--method", "lora"]);
    assert_ne!(out.code, 0);
    assert!(out.stderr.contains("--params"), "{}", out.stderr);

    let out = plan(&["--model", "llama 9000", "--method", "lora"]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr
            .contains("--model \"llama 9000\" is not in the catalog"),
        "{}",
        out.stderr
    );

    let out = plan(&["--params", "7B", "--method", "lora", "--optimizer", "lion"]);
    assert_ne!(out.code, 0);
    assert!(out.stderr.contains("--optimizer"), "{}", out.stderr);

    let bad = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(bad.path(), "Mem: 119 4").unwrap();
    let out = plan(&[
        "--params",
        "7B",
        "--method",
        "lora",
        "--free",
        bad.path().to_str().unwrap(),
    ]);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("has 2 values"), "{}", out.stderr);
    assert!(out.stderr.contains("free -g"), "{}", out.stderr);
}

#[test]
fn help_shows_examples() {
    let out = plan(&["--help"]).ok();
    assert!(
        out.stdout
            .contains("headroom plan --params 70B --method qlora"),
        "{}",
        out.stdout
    );
}
