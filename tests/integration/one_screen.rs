//! Answers fit on one screen: piped with COLUMNS=80, a first plan is at most
//! 20 lines with the verdict, the peak and the budget; "full plan" shows
//! every term; a thermal reply is at most 25 lines plus its chart; no reply
//! repeats a paragraph; a restart's greeting is at most 8 lines.

use crate::support::{BIN, Headroom, fixture, repo};

/// The end of the fresh-start greeting: what follows is the first reply.
const GREETING_END: &str = "thermal sampler's log.\n\n";

fn piped_at_80(dir: &std::path::Path, stdin: &str) -> String {
    Headroom::new(dir)
        .env("COLUMNS", "80")
        .stdin(stdin)
        .run()
        .ok()
        .stdout
}

fn first_reply(stdout: &str) -> &str {
    stdout
        .split_once(GREETING_END)
        .map_or(stdout, |(_, rest)| rest)
        .trim_end()
}

/// Each stored reply's text, in order (the transcript keeps them apart).
fn replies(dir: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("transcript.jsonl"))
        .unwrap()
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|e| e["event"] == "reply")
        .map(|e| e["text"].as_str().unwrap_or_default().to_string())
        .collect()
}

fn plan_json(args: &[&str]) -> serde_json::Value {
    let out = std::process::Command::new(BIN)
        .args(["plan", "--json"])
        .args(args)
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn a_first_plan_is_at_most_20_lines_with_verdict_peak_and_budget() {
    for (run, args) in [
        (
            "LoRA on Qwen2.5 7B, bf16, batch 2, max_seq_length=4096",
            vec![
                "--model",
                "Qwen2.5 7B",
                "--method",
                "lora",
                "--dtype",
                "bf16",
                "--batch",
                "2",
                "--pack",
                "4096",
            ],
        ),
        (
            "QLoRA on Llama 3.1 70B, batch 1, packing 2048",
            vec![
                "--model",
                "Llama 3.1 70B",
                "--method",
                "qlora",
                "--batch",
                "1",
                "--pack",
                "2048",
            ],
        ),
        (
            "full fine-tune of Llama 3.1 70B in bf16, batch 1, packing 2048",
            vec![
                "--model",
                "Llama 3.1 70B",
                "--method",
                "full",
                "--dtype",
                "bf16",
                "--batch",
                "1",
                "--pack",
                "2048",
            ],
        ),
        (
            "LoRA on Gemma 2 27B, bf16, batch 2, packing 4096",
            vec![
                "--model",
                "Gemma 2 27B",
                "--method",
                "lora",
                "--dtype",
                "bf16",
                "--batch",
                "2",
                "--pack",
                "4096",
            ],
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let out = piped_at_80(dir.path(), &format!("{run}\n"));
        let reply = first_reply(&out);
        let lines: Vec<&str> = reply.lines().collect();
        assert!(
            lines.len() <= 20,
            "{} lines for {run}:\n{reply}",
            lines.len()
        );
        let j = plan_json(&args);
        let gb = |key: &str| format!("{:.2} GB", j[key].as_f64().unwrap());
        assert!(reply.contains("**Verdict:"), "{reply}");
        assert!(reply.contains(&gb("total_gb")), "peak for {run}:\n{reply}");
        assert!(
            reply.contains(&gb("verdict_budget_gb")),
            "budget for {run}:\n{reply}"
        );
        // Wrapped for 80 columns, except table rows and code.
        for l in &lines {
            assert!(
                l.chars().count() <= 80 || l.starts_with('|'),
                "{l:?} in {reply}"
            );
        }
    }
}

#[test]
fn full_plan_shows_every_term_and_each_part_on_request() {
    let dir = tempfile::tempdir().unwrap();
    Headroom::new(dir.path())
        .env("COLUMNS", "80")
        .stdin("LoRA on Qwen2.5 7B, bf16, batch 2, packing 4096\n\nfull plan\n\nphases\n\nanchors\n\nassumptions\n")
        .run()
        .ok();
    let r = replies(dir.path());
    assert_eq!(r.len(), 5, "{r:#?}");
    let j = plan_json(&[
        "--model",
        "Qwen2.5 7B",
        "--method",
        "lora",
        "--dtype",
        "bf16",
        "--batch",
        "2",
        "--pack",
        "4096",
    ]);
    for term in j["term_details"].as_array().unwrap() {
        let line = format!(
            "- {}: **{:.2} GB** = {}",
            term["label"].as_str().unwrap(),
            term["gb"].as_f64().unwrap(),
            term["formula"].as_str().unwrap()
        );
        assert!(r[1].contains(&line), "missing {line:?} in the full plan");
        // The first answer does not print the formulas.
        assert!(!r[0].contains(&line), "{line:?} in the first answer");
    }
    assert!(r[2].contains("load-time peak") && !r[2].contains("Inputs:"));
    assert!(r[3].contains("Closest seed anchors"));
    assert!(r[4].contains("Assumed, because you did not say"));
    assert!(r[4].contains("you said \"batch 2\""));
}

#[test]
fn a_thermal_reply_is_at_most_25_lines_plus_its_chart() {
    let root = repo().join("tests/fixtures/logs");
    for case in ["throttle", "plateau", "slow_no_thermal", "none"] {
        let dir = tempfile::tempdir().unwrap();
        let out = piped_at_80(
            dir.path(),
            &format!(
                "{} {}\n",
                root.join(format!("thermal/{case}.csv")).display(),
                root.join(format!("hf/{case}.log")).display()
            ),
        );
        let reply = first_reply(&out);
        let mut in_chart = false;
        let mut prose = 0;
        for l in reply.lines() {
            if l.starts_with("```") {
                in_chart = !in_chart;
            } else if !in_chart {
                prose += 1;
            }
        }
        assert!(reply.contains("## Thermal check:"), "{reply}");
        assert!(prose <= 25, "{prose} lines for {case}:\n{reply}");
        // The chart fits the 80 columns it was drawn for.
        assert!(
            reply.lines().all(|l| l.chars().count() <= 80),
            "{case}:\n{reply}"
        );
    }
}

#[test]
fn follow_ups_on_a_report_get_advice_not_the_report_again() {
    let root = repo().join("tests/fixtures/logs");
    let dir = tempfile::tempdir().unwrap();
    Headroom::new(dir.path())
        .stdin(&format!(
            "{} {}\n\nhow do I stop it?\n\nis that bad?\n\nLoRA on Qwen2.5 7B, bf16, batch 2, packing 4096\n\nis that bad?\n\nwhat can I do about it?\n",
            root.join("thermal/throttle.csv").display(),
            root.join("hf/throttle.log").display()
        ))
        .run()
        .ok();
    let r = replies(dir.path());
    assert_eq!(r.len(), 6, "{r:#?}");
    for i in [1, 2, 4, 5] {
        assert!(!r[i].contains("## Thermal check"), "{}", r[i]);
        assert!(!r[i].contains("found no run setting"), "{}", r[i]);
        assert!(r[i].lines().count() <= 8, "{}", r[i]);
    }
    assert!(r[1].contains("heat"), "{}", r[1]);
    assert!(r[2].contains("+25.2 %"), "{}", r[2]);
    assert!(
        r[4].starts_with(
            "It fits, so nothing is wrong for memory: Qwen2.5 7B LoRA's peak 60.17 GB"
        ),
        "{}",
        r[4]
    );
    assert!(r[5].contains("Nothing needs changing"), "{}", r[5]);
}

#[test]
fn no_reply_repeats_a_paragraph() {
    let dir = tempfile::tempdir().unwrap();
    let root = repo().join("tests/fixtures/logs");
    Headroom::new(dir.path())
        .stdin(&format!(
            "hello\n\nLoRA on Qwen2.5 7B, bf16, batch 2, packing 4096\n\n{}\n\nwhat if batch 2?\n\nwhat if batch 4?\n\nok, do that\n\nfull plan\n\nwhat is the longest packing that fits?\n\nbanana\n\n{}\n\nOOM at step 3\n\nno\n\n{} {}\n\ndetails\n",
            fixture("free-g-spark.txt"),
            fixture("ps-aux-spark-mixed.txt"),
            root.join("thermal/throttle.csv").display(),
            root.join("hf/throttle.log").display()
        ))
        .run()
        .ok();
    let r = replies(dir.path());
    assert!(r.len() >= 13, "{}", r.len());
    for reply in &r {
        let mut seen = std::collections::HashSet::new();
        for para in reply.split("\n\n").map(str::trim).filter(|p| p.len() > 20) {
            assert!(seen.insert(para), "repeated {para:?} in:\n{reply}");
        }
    }
    // A what-if that changes nothing is not shown as two identical rows.
    assert!(!r[3].contains("side by side"), "{}", r[3]);
}

#[test]
fn a_restart_greeting_is_at_most_8_lines_and_lists_files_once() {
    let dir = tempfile::tempdir().unwrap();
    let root = repo().join("tests/fixtures/logs");
    let csv = root.join("thermal/throttle.csv");
    let log = root.join("hf/throttle.log");
    let paths = format!("{} {}", csv.display(), log.display());
    Headroom::new(dir.path())
        .stdin(&format!(
            "QLoRA on Qwen2.5 32B, batch 2, packing 4096\n\n{paths}\n\n{paths}\n\n{paths}\n\nOOM at step 3\n\nthe file train.log\n"
        ))
        .run()
        .ok();
    let out = Headroom::new(dir.path())
        .at("2026-11-29T12:00:00Z")
        .run()
        .ok()
        .stdout;
    let greeting = out.trim_end();
    assert!(greeting.lines().count() <= 8, "{greeting}");
    assert_eq!(greeting.matches("throttle.csv").count(), 1, "{greeting}");
    assert!(greeting.contains(&csv.canonicalize().unwrap().display().to_string()));
    assert!(!greeting.contains("`train.log`"), "{greeting}");
    assert!(greeting.contains("last thermal check: **thermal throttling**"));
    assert!(greeting.contains("OOM ladder"), "{greeting}");
}

#[test]
fn after_forget_all_a_restart_is_a_fresh_start() {
    let dir = tempfile::tempdir().unwrap();
    Headroom::new(dir.path())
        .stdin("QLoRA on Llama 3.1 70B, batch 1, packing 2048\n\n/forget all\n")
        .run()
        .ok();
    let out = Headroom::new(dir.path()).run().ok().stdout;
    assert!(!out.contains("Welcome back"), "{out}");
    assert!(!out.contains("remember"), "{out}");
    assert!(out.contains("Tell me the run"), "{out}");
    assert!(!out.contains("To plan this run I still need"), "{out}");
}

#[test]
fn the_sampler_command_prints_only_the_script() {
    let out = std::process::Command::new(BIN)
        .arg("sampler")
        .output()
        .unwrap();
    let script = String::from_utf8(out.stdout).unwrap();
    let asset = std::fs::read_to_string(repo().join("assets/thermal-sample.sh")).unwrap();
    assert_eq!(script.trim_end(), asset.trim_end());
    assert!(String::from_utf8_lossy(&out.stderr).contains("headroom sampler > sample.sh"));
}

/// The rendered replies of the main workflows at 80 columns, so a layout
/// change shows in review (`cargo insta review`, or INSTA_UPDATE=always).
#[test]
fn main_workflows_at_80_columns() {
    let root = repo().join("tests/fixtures/logs");
    let cases = [
        (
            "plan_brief",
            "LoRA on Qwen2.5 7B, bf16, batch 2, packing 4096\n".to_string(),
        ),
        (
            "plan_full",
            "QLoRA on Llama 3.1 70B, batch 1, packing 2048\n\nfull plan\n".to_string(),
        ),
        (
            "pool",
            format!(
                "LoRA on Qwen2.5 7B, bf16, batch 2, packing 4096\n\n{}\n",
                fixture("ps-aux-spark-mixed.txt")
            ),
        ),
        (
            "oom",
            "QLoRA on Qwen2.5 32B, batch 2, packing 4096\n\nOOM at step 3\n".to_string(),
        ),
        (
            "thermal",
            format!(
                "{} {}\n\nhow do I stop it?\n",
                root.join("thermal/throttle.csv").display(),
                root.join("hf/throttle.log").display()
            ),
        ),
    ];
    for (name, stdin) in cases {
        let dir = tempfile::tempdir().unwrap();
        let out = piped_at_80(dir.path(), &stdin);
        let reply = first_reply(&out).replace(&format!("{}/", repo().display()), "$REPO/");
        insta::assert_snapshot!(name, reply);
    }
}

/// The seed's anchor for a model of the run's size and method stands beside
/// the verdict, with what this worksheet gives its own set-up: the 70B
/// QLoRA figure, the 9B full fine-tune "fits comfortably", the MoE ≈68 GB.
#[test]
fn the_anchor_for_this_size_and_method_is_beside_the_verdict() {
    for (run, anchor) in [
        (
            "QLoRA on Llama 3.1 70B, batch 1, packing 2048",
            "Seed anchor \"70B QLoRA ≈40 GB observed\": about its weights alone (39.52 GB)",
        ),
        (
            "full fine-tune gemma 2 9b, bf16, batch 2, packing 2048",
            "Seed anchor \"9B full fine-tune fits comfortably\": its set-up here (batch 1, pack 2048, adamw_8bit) 77.91 GB, yours",
        ),
        (
            "lora gpt-oss-120b batch 1 packing 2048 bf16",
            "Seed anchor \"~120B MoE NVFP4 LoRA ≈68 GB\": about its weights alone (67.36 GB)",
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let out = piped_at_80(dir.path(), &format!("{run}\n"));
        let first = first_reply(&out).replace('\n', " ");
        assert!(first.contains(anchor), "{run}: {first}");
    }
    // A 7B run has no anchor of its size: none is shown.
    let dir = tempfile::tempdir().unwrap();
    let out = piped_at_80(
        dir.path(),
        "LoRA on Qwen2.5 7B, bf16, batch 2, packing 2048\n",
    );
    assert!(!first_reply(&out).contains("Seed anchor"), "{out}");
}

#[test]
fn the_largest_value_asked_after_the_plan_does_not_repeat_it() {
    for asked in [
        "what's the biggest batch then?",
        "longest packing that fits?",
    ] {
        let out = crate::support::converse(&format!(
            "lora llama 3.1 8b batch 4 packing 2048\n\n{asked}\n"
        ));
        let second = out.split("that fits: **").nth(1).expect(&out);
        // One verdict line names the run as it is; the table is not repeated.
        assert!(second.contains("**Verdict:"), "{asked}: {out}");
        assert!(!second.contains("| term"), "{asked}: {out}");
        assert!(!second.contains("Assumed:"), "{asked}: {out}");
        assert_eq!(out.matches("| term").count(), 1, "{asked}: {out}");
    }
    // Asked with the run in the same turn, the plan is new: shown whole.
    let out = crate::support::converse(
        "lora llama 3.1 8b batch 4 packing 2048, what's the largest batch that fits?\n",
    );
    assert!(out.contains("| term"), "{out}");
}
