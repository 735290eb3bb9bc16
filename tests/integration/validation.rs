//! The estimator against published measurements (validation/cases.md), the
//! rules of thumb beside it, and the seed's anchors.

use crate::support::Headroom;
use headroom::calc::estimate::{estimate, qlora_overhead_elements_per_token_layer};
use headroom::knowledge::Knowledge;
use headroom::validation::{FIT_CASES, cases, run, summaries};

#[test]
fn median_error_is_at_most_10_percent_and_p90_at_most_20() {
    let s = summaries(&run(Knowledge::embedded()).expect("cases parse"));
    for (name, sum) in [("all cases", s.ours), ("held out", s.held_out)] {
        assert!(sum.median <= 0.10, "{name}: median {:.3}", sum.median);
        assert!(sum.p90 <= 0.20, "{name}: p90 {:.3}", sum.p90);
    }
}

#[test]
fn the_worksheet_beats_both_rules_of_thumb_on_every_summary() {
    let s = summaries(&run(Knowledge::embedded()).unwrap());
    for baseline in [s.weights, s.rule] {
        assert!(s.ours.median < baseline.median && s.ours.p90 < baseline.p90);
    }
}

/// The one empirical constant must be what its fit cases say, not a number
/// tuned by hand.
#[test]
fn the_qlora_constant_is_recomputed_from_its_fit_cases() {
    let k = Knowledge::embedded();
    let mut ratios: Vec<f64> = cases(k)
        .unwrap()
        .into_iter()
        .filter(|c| FIT_CASES.contains(&c.id.as_str()))
        .map(|c| {
            let est = estimate(&c.input, k);
            let without = est.allocated_centi_gb - est.centi("qlora_overhead");
            let residual = c.measured_gb * 1e9 - without as f64 * 1e7;
            let layers = c.input.model.arch.layers as f64;
            let set = 2.0
                * (c.input.batch * c.input.pack) as f64
                * layers
                * qlora_overhead_elements_per_token_layer(&c.input) as f64;
            residual / set
        })
        .collect();
    assert_eq!(ratios.len(), 8);
    ratios.sort_by(f64::total_cmp);
    let median = (ratios[3] + ratios[4]) / 2.0;
    let constant = k
        .constant("bitsandbytes QLoRA saved tensors per layer")
        .value;
    assert!(
        (median - constant).abs() <= 0.05,
        "fit cases give {median:.3}, knowledge says {constant}"
    );
}

#[test]
fn nf4_double_quantization_saving_matches_litgpt_inference_rows() {
    // litgpt resource tables, Llama-2-7B inference: NF4 4.57 GB, NF4+DQ 4.26 GB.
    let out = |weights: &str| {
        let dir = tempfile::tempdir().unwrap();
        Headroom::new(dir.path())
            .args(&[
                "plan",
                "--model",
                "llama-2-7b",
                "--method",
                "qlora",
                "--dtype",
                weights,
                "--json",
            ])
            .run()
            .ok()
            .json()["terms"]["weights_gb"]
            .as_f64()
            .unwrap()
    };
    let saving = out("nf4") - out("nf4-dq");
    assert!((saving - (4.57 - 4.26)).abs() <= 0.015, "saving {saving}");
}

#[test]
fn headroom_validate_prints_the_table_and_the_summary() {
    let dir = tempfile::tempdir().unwrap();
    let out = Headroom::new(dir.path()).args(&["validate"]).run().ok();
    assert!(
        out.stdout
            .contains("| M012 | Llama 2 7B | LoRA | 1 × 1304 | allocated | 21.30 |")
    );
    assert!(out.stdout.contains("held out from the QLoRA fit"));
    assert!(out.stdout.contains("weights-only"));
}

fn anchor(args: &[&str]) -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    let mut all = vec!["plan"];
    all.extend_from_slice(args);
    all.push("--json");
    Headroom::new(dir.path()).args(&all).run().ok().json()
}

#[test]
fn the_seed_anchors_still_hold() {
    // 27B LoRA fits at pack ≤1024.
    let j = anchor(&[
        "--model",
        "gemma-2-27b",
        "--method",
        "lora",
        "--pack",
        "1024",
    ]);
    assert_eq!(j["verdict"], "fits", "{j}");
    // 9B full fine-tune fits comfortably (with 8-bit AdamW).
    let j = anchor(&[
        "--model",
        "gemma-2-9b",
        "--method",
        "full",
        "--optimizer",
        "adamw_8bit",
    ]);
    assert_eq!(j["verdict"], "fits");
    assert!(j["total_gb"].as_f64().unwrap() < 0.75 * j["verdict_budget_gb"].as_f64().unwrap());
    // ~120B MoE NVFP4 LoRA ≈68 GB.
    let j = anchor(&[
        "--model",
        "gpt-oss-120b",
        "--method",
        "lora",
        "--dtype",
        "nvfp4",
        "--lora-targets",
        "attn",
    ]);
    // The stated ≈68 GB is the NVFP4 weights alone (reconciled in the
    // plan's anchor note); the system-level step peak adds the rest.
    let total = j["total_gb"].as_f64().unwrap();
    let weights = j["terms"]["weights_gb"].as_f64().unwrap();
    assert!(
        (weights - 68.0).abs() / 68.0 <= 0.05,
        "120B MoE NVFP4 weights: {weights} GB"
    );
    assert!(
        total > 68.0 && total < 1.35 * 68.0,
        "120B MoE NVFP4 LoRA: {total} GB"
    );
    assert_eq!(j["verdict"], "fits");
}

#[test]
fn the_readme_table_is_the_commands_output() {
    let dir = tempfile::tempdir().unwrap();
    let out = Headroom::new(dir.path()).args(&["validate"]).run().ok();
    let readme = std::fs::read_to_string(crate::support::repo().join("README.md")).unwrap();
    let start = readme
        .find("<!-- validate:begin -->\n")
        .expect("begin marker")
        + 24;
    let end = readme.find("\n<!-- validate:end -->").expect("end marker");
    assert_eq!(
        readme[start..end].trim_end(),
        out.stdout.trim_end(),
        "README is stale: paste the output of `headroom validate` between the markers"
    );
}

/// Issue 11's bar on system-level Spark measurements: the step peak within
/// 25 % and never more than 10 % under (two constants were fitted to these
/// rows: the bar checks the fit holds at every batch size).
#[test]
fn spark_system_level_measurements_are_met() {
    let outcomes =
        headroom::spark_validation::run(headroom::knowledge::Knowledge::embedded()).unwrap();
    let fitted: Vec<_> = outcomes.iter().filter(|o| o.fitted).collect();
    assert_eq!(fitted.len(), 4);
    for o in fitted {
        let e = o.error();
        assert!(
            e.abs() <= 0.25 && e >= -0.10,
            "{}: {:+.1} %",
            o.id,
            e * 100.0
        );
    }
}

/// The held-out DPO rows (nothing fitted to them): never under the
/// measurement by more than 10 %, the half of issue 20's bar the plan meets
/// today. It prices every batch padded to the 1,024-token cap and this
/// dataset's batches are often shorter, so it is over by +27 … +82 %
/// (the note on issue 20 says so); the upper half is not asserted.
#[test]
fn the_held_out_dpo_rows_are_never_far_under() {
    let outcomes =
        headroom::spark_validation::run(headroom::knowledge::Knowledge::embedded()).unwrap();
    let held: Vec<_> = outcomes.iter().filter(|o| !o.fitted).collect();
    assert_eq!(held.len(), 3);
    for o in held {
        assert!(o.error() >= -0.10, "{}: {:+.1} %", o.id, o.error() * 100.0);
    }
}
