//! Every trainer's log, lined up in time: multi-hour logs generated from
//! each framework's own format strings (tests/fixtures/logs, README there
//! names the sources), each against its thermal CSV, with the true verdict
//! and slowdown onset in truth.json.

use headroom::calc::thermal::{ThermalVerdict, analyze};
use headroom::extract::thermal_csv::{parse_time, read_thermal};
use headroom::extract::train_log::read_train_log_with;
use headroom::knowledge::Knowledge;
use std::io::BufReader;

/// Within this of the true onset counts as found.
const ONSET_TOLERANCE_S: f64 = 300.0;

fn local(iso: &str) -> f64 {
    // "2026-11-29T11:07:13.250+01:00": the wall clock, as the CSV keeps it.
    parse_time(&iso[..23].replace('T', " ")).unwrap()
}

#[test]
fn each_format_and_case_gets_the_right_verdict_and_onset() {
    let root = crate::support::repo().join("tests/fixtures/logs");
    let truth: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("truth.json")).unwrap()).unwrap();
    let k = Knowledge::embedded();
    let mut right = 0;
    let mut misses = Vec::new();
    let files = truth["files"].as_array().unwrap();
    for f in files {
        let file = f["file"].as_str().unwrap();
        let case = f["case"].as_str().unwrap();
        let stamps = f["timestamps_in_log"].as_str().unwrap_or("");
        let torchtune = f["format"].as_str().unwrap().starts_with("torchtune");
        // torchtune prints tokens/s only: the owner gives the tokens per
        // step (packed batches of 8192) and the start time.
        let start = (stamps.starts_with("none") || torchtune)
            .then(|| local(f["start_local"].as_str().unwrap()));
        let tokens = torchtune.then_some(8192.0);
        let tz = stamps.contains("UTC").then_some(3600.0);
        let csv = std::fs::File::open(root.join(f["thermal"].as_str().unwrap())).unwrap();
        let thermal = read_thermal(BufReader::new(csv)).unwrap();
        let log = std::fs::File::open(root.join(file)).unwrap();
        let result =
            read_train_log_with(log, start, tz, tokens).map(|log| analyze(&thermal, Some(&log), k));
        let verdict_ok = |v: ThermalVerdict| match case {
            "throttle" | "resumed_throttle" => v == ThermalVerdict::ThermalThrottling,
            "plateau" => v == ThermalVerdict::PowerCapOnly,
            _ => v != ThermalVerdict::ThermalThrottling,
        };
        let ok = match &result {
            Err(e) => {
                misses.push(format!("{file}: {e}"));
                false
            }
            Ok(a) => {
                let onset_ok = match (f["onset_local"].as_str(), &a.slowdown) {
                    (Some(truth), Some(s)) => (s.onset - local(truth)).abs() <= ONSET_TOLERANCE_S,
                    (None, None) => true,
                    _ => false,
                };
                if !(verdict_ok(a.verdict) && onset_ok) {
                    misses.push(format!(
                        "{file}: verdict {:?}, onset {:?}",
                        a.verdict,
                        a.slowdown
                            .as_ref()
                            .map(|s| s.onset - f["onset_local"].as_str().map_or(0.0, local))
                    ));
                }
                verdict_ok(a.verdict) && onset_ok
            }
        };
        if ok {
            right += 1;
        }
    }
    eprintln!(
        "{right} of {} (format, case) pairs right; misses: {misses:#?}",
        files.len()
    );
    assert_eq!(right, files.len(), "misses: {misses:#?}");
}

fn samples(
    n: usize,
    f: impl Fn(usize) -> (f32, f32, f32, f32),
) -> Vec<headroom::readings::samples::ThermalSample> {
    (0..n)
        .map(|i| {
            let (temp, power, clock, util) = f(i);
            headroom::readings::samples::ThermalSample {
                t: 1_795_939_200.0 + i as f64 * 30.0,
                temp_c: Some(temp),
                power_w: Some(power),
                sm_clock_mhz: Some(clock),
                util_pct: Some(util),
                thermal_flag: Some(false),
                power_cap_flag: Some(false),
                cpu_temp_c: None,
            }
        })
        .collect()
}

/// A GPU busy at 18 W and 650 MHz with no thermal flag is the
/// power-delivery fault, told apart from heat and from the 100 W plateau.
#[test]
fn a_power_delivery_low_power_state_is_not_thermal() {
    let k = Knowledge::embedded();
    let s = samples(480, |i| {
        if i < 200 {
            (65.0, 100.0, 2400.0, 96.0)
        } else {
            (52.0, 18.0, 650.0, 95.0)
        }
    });
    let a = analyze(&s, None, k);
    assert_eq!(a.verdict, ThermalVerdict::LowPowerState);
    let md = headroom::render::thermal_md::thermal_markdown(&a, k);
    assert!(md.contains("full AC power cycle"), "{md}");
}

/// The low-power state is a level, not a trend: a few busy samples at
/// about 30 W and under 900 MHz show it, where a climb needs 10 minutes.
#[test]
fn a_few_samples_in_the_low_power_state_are_judged() {
    let k = Knowledge::embedded();
    for (n, watts) in [(3, 29.0), (10, 30.4), (6, 18.0)] {
        let s = samples(n, |_| (47.0, watts, 860.0, 96.0));
        let a = analyze(&s, None, k);
        assert_eq!(a.verdict, ThermalVerdict::LowPowerState, "{n} at {watts} W");
    }
    // Too few, or one busy sample at full power, is no verdict.
    let a = analyze(&samples(2, |_| (47.0, 30.0, 860.0, 96.0)), None, k);
    assert_eq!(a.verdict, ThermalVerdict::InsufficientData);
    let a = analyze(
        &samples(5, |i| {
            if i == 4 {
                (60.0, 98.0, 2400.0, 96.0)
            } else {
                (47.0, 30.0, 860.0, 96.0)
            }
        }),
        None,
        k,
    );
    assert_eq!(a.verdict, ThermalVerdict::InsufficientData);
    // In the chat, the follow-ups judge it and give the fix, each once.
    let csv = std::fs::read_to_string(
        crate::support::repo().join("tests/fixtures/nvidia-smi-query-low-power-30w.txt"),
    )
    .unwrap();
    let out = crate::support::converse(&format!(
        "llama 3.1 8b lora got 2x slower, samples during training:\n{}\n\nso its the heat? should i put a fan next to it\n\nwhat do i do then\n",
        csv.trim()
    ));
    assert!(
        out.contains("Not thermal: the GPU is stuck in a low-power state."),
        "{out}"
    );
    assert!(
        out.contains("Not heat: the GPU is stuck in a low-power state"),
        "{out}"
    );
    assert!(
        out.contains("A fan or a cooler room will not clear it."),
        "{out}"
    );
    assert!(!out.contains("too few to judge"), "{out}");
}

/// Samples every 10 minutes (an excerpt an owner trimmed): no 10-minute
/// window holds a 5 °C climb, but the SM clock falls 12 % at flat power
/// while the GPU is at its hottest, and the log that prints a line every
/// 10 minutes places the onset between its lines by the step count.
#[test]
fn a_clock_fall_while_hottest_is_throttling_and_a_sparse_onset_is_placed() {
    let dir = crate::support::repo().join("tests/fixtures");
    let out = crate::support::Headroom::new(tempfile::tempdir().unwrap().path())
        .args(&[
            "thermal",
            dir.join("nvidia-smi-query-every-10-min-excerpt.csv")
                .to_str()
                .unwrap(),
            "--train-log",
            dir.join("train-log-stamped-step-time-every-10-min.log")
                .to_str()
                .unwrap(),
        ])
        .run()
        .ok()
        .stdout;
    assert!(
        out.contains("## Thermal check: thermal throttling"),
        "{out}"
    );
    assert!(
        out.contains("SM clock falling at flat power while hottest"),
        "{out}"
    );
    // 250 steps in 600 s at 1.91 then 2.62 s/step: 77 steps at the old
    // pace after 01:58:30 puts the onset at 02:00:57.
    assert!(out.contains("from 02:00 (2026-01-15 02:00:57)"), "{out}");
    assert!(out.contains("The slowdown matches"), "{out}");
    // A clock that falls while the GPU is cool is not this event.
    let k = Knowledge::embedded();
    let s = samples(40, |i| {
        let clock = if i < 20 { 2400.0 } else { 1900.0 };
        (if i < 20 { 85.0 } else { 55.0 }, 97.0, clock, 97.0)
    });
    assert_ne!(
        analyze(&s, None, k).verdict,
        ThermalVerdict::ThermalThrottling
    );
}

/// Regression: heat building too slowly to show in 10 minutes (+15 °C over
/// 90 minutes at flat power) is still a climb.
#[test]
fn a_slow_climb_at_flat_power_counts() {
    let k = Knowledge::embedded();
    // 4 h at 30 s; from 1 h on, +15 °C over 90 minutes at a flat 95 W.
    let s = samples(480, |i| {
        let t = i as f32 * 30.0;
        let temp = if t < 3600.0 {
            60.0
        } else {
            (60.0 + (t - 3600.0) / 5400.0 * 15.0).min(75.0)
        };
        (temp, 95.0, 2400.0, 96.0)
    });
    // No clock-event reasons sampled: the climb is the evidence.
    let s: Vec<_> = s
        .into_iter()
        .map(|x| headroom::readings::samples::ThermalSample {
            thermal_flag: None,
            power_cap_flag: None,
            ..x
        })
        .collect();
    let a = analyze(&s, None, k);
    assert_eq!(
        a.verdict,
        ThermalVerdict::ThermalThrottling,
        "{:?}",
        a.events
    );
}

/// The sampler's cumulative thermal counters: growth between two samples is
/// a slowdown even when the instantaneous flag missed it; the CPU zone's
/// temperature is read beside the GPU's.
#[test]
fn thermal_counters_and_the_cpu_zone_are_read() {
    let mut csv = String::from(
        "timestamp,temperature.gpu,power.draw,clocks_event_reasons.active,clocks_event_reasons_counters.sw_thermal_slowdown,clocks_event_reasons_counters.hw_thermal_slowdown,cpu.temp.max [C]\n",
    );
    for i in 0..40 {
        let counter = if i < 20 {
            1000
        } else {
            1000 + (i - 19) * 500_000
        };
        csv.push_str(&format!(
            "2026/11/29 10:{:02}:00.000, 70, 100.00 W, 0x0000000000000000, {counter}, 0, {}.500\n",
            i,
            60 + i / 4
        ));
    }
    let s = read_thermal(BufReader::new(csv.as_bytes())).unwrap();
    assert_eq!(s[10].thermal_flag, Some(false));
    assert_eq!(s[25].thermal_flag, Some(true));
    assert_eq!(s[39].cpu_temp_c, Some(69.5));
}

/// In the chat, a slowdown that matches no thermal event, with a server in
/// the pasted process listing, names contention as the first lead.
#[test]
fn contention_is_named_when_a_server_shares_the_pool() {
    let root = crate::support::repo().join("tests/fixtures/logs");
    let dir = tempfile::tempdir().unwrap();
    let out = crate::support::Headroom::new(dir.path())
        .stdin(&format!(
            "owner 4121 2.1 6.3 8123456 8012344 ? Sl 09:12 3:02 /usr/bin/python3 -m vllm.entrypoints.openai.api_server --model Qwen/Qwen2.5-32B-Instruct\n\n{}\n\n{}\n",
            root.join("thermal/slow_no_thermal.csv").display(),
            root.join("hf/slow_no_thermal.log").display()
        ))
        .run()
        .ok();
    assert!(
        out.stdout.contains("Contention is the first lead"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("vLLM server (pid 4121)"),
        "{}",
        out.stdout
    );
}

/// One held-out corpus through the binary end to end, as an owner would
/// run it: `--start` only for logs with no absolute time, `--log-tz` only
/// for marked UTC stamps; container-UTC logs get no offset and must line up
/// on their own. Returns the misses.
fn corpus_misses(set: &str, count: usize) -> Vec<String> {
    let root = crate::support::repo().join("tests/fixtures/logs");
    let truth: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root.join(set).join("truth.json")).unwrap())
            .unwrap();
    let mut misses = Vec::new();
    let files = truth["files"].as_array().unwrap();
    assert_eq!(files.len(), count, "{set}");
    for f in files {
        let file = f["file"].as_str().unwrap();
        let stamps = f["timestamps_in_log"].as_str().unwrap_or("");
        let container = f["container_utc"].as_bool().unwrap_or(false);
        let mut args = vec![
            "thermal".to_string(),
            root.join(f["thermal"].as_str().unwrap())
                .display()
                .to_string(),
            "--train-log".into(),
            root.join(set).join(file).display().to_string(),
            "--json".into(),
        ];
        if stamps.starts_with("none") {
            let start = f["start_local"].as_str().unwrap()[..19].replace('T', " ");
            args.extend(["--start".into(), start]);
        }
        if stamps.contains("UTC") && !container {
            args.extend(["--log-tz".into(), "+01:00".into()]);
        }
        let out = std::process::Command::new(crate::support::BIN)
            .args(&args)
            .output()
            .unwrap();
        let Ok(j) = serde_json::from_slice::<serde_json::Value>(&out.stdout) else {
            misses.push(format!("{file}: {}", String::from_utf8_lossy(&out.stderr)));
            continue;
        };
        let verdict = j["verdict"].as_str().unwrap_or("");
        let verdict_ok = match f["case"].as_str().unwrap() {
            "throttle" => verdict == "thermal_throttling",
            "plateau" => verdict == "power_cap_only",
            _ => verdict != "thermal_throttling",
        };
        let onset_ok = match (f["onset_local"].as_str(), j["slowdown_onset"].as_str()) {
            (Some(truth), Some(got)) => {
                let truth = local(truth);
                let got = parse_time(got).unwrap();
                (got - truth).abs() <= ONSET_TOLERANCE_S
            }
            (None, None) => true,
            _ => false,
        };
        if container && j["log_shift_s"].as_f64() != Some(3600.0) {
            misses.push(format!("{file}: not lined up ({})", j["log_shift_s"]));
        }
        if !(verdict_ok && onset_ok) {
            misses.push(format!(
                "{file}: verdict {verdict}, onset {}",
                j["slowdown_onset"]
            ));
        }
    }
    misses
}

/// The wider corpus (tests/fixtures/logs/wide, written by a helper from
/// each trainer's own source: structlog, logfmt, sparse nanoGPT, loguru and
/// Megatron in docker with naive UTC stamps, DeepSpeed, Composer, ms-swift,
/// litgpt, Keras, torchtitan, fairseq).
#[test]
fn the_wide_corpus_through_the_binary_with_no_offset_for_container_logs() {
    let misses = corpus_misses("wide", 56);
    assert!(misses.is_empty(), "{} misses: {misses:#?}", misses.len());
}

/// The second held-out corpus (tests/fixtures/logs/fresh: mlx-lm's It/sec,
/// mmengine's Iter(train) and %Y/%m/%d stamps, detectron2's and absl's
/// stamps without a year, timm's and the ImageNet example's epoch/batch
/// counters and "value (average)" meters, icefall's epochs of batches,
/// MaxText's "seconds:", OpenNMT, a plain ISO script).
#[test]
fn the_fresh_corpus_through_the_binary() {
    let misses = corpus_misses("fresh", 39);
    assert!(misses.is_empty(), "{} misses: {misses:#?}", misses.len());
}

/// In the chat too, a container's UTC log is lined up and the shift said;
/// the owner's own offset wins.
#[test]
fn the_chat_says_when_it_lines_a_log_up_and_the_owner_can_override() {
    let root = crate::support::repo().join("tests/fixtures/logs");
    let paths = format!(
        "{} {}",
        root.join("thermal/throttle.csv").display(),
        root.join("wide/megatron-docker-utc/throttle.log").display()
    );
    let dir = tempfile::tempdir().unwrap();
    let out = crate::support::Headroom::new(dir.path())
        .stdin(&format!("{paths}\n"))
        .run()
        .ok()
        .stdout;
    assert!(out.contains("I shifted the log by +1 h"), "{out}");
    assert!(
        out.contains("## Thermal check: thermal throttling"),
        "{out}"
    );
    let dir = tempfile::tempdir().unwrap();
    let out = crate::support::Headroom::new(dir.path())
        .stdin(&format!("the log is UTC, we are at UTC+1\n\n{paths}\n"))
        .run()
        .ok()
        .stdout;
    assert!(!out.contains("I shifted the log"), "{out}");
    // The owner's offset shifts the container's naive UTC stamps too.
    assert!(out.contains("The slowdown matches"), "{out}");
}

/// A sparse log (nanoGPT at log_interval 10) whose printed dt after an
/// evaluation carries the eval's time: one pause, counted once and said.
#[test]
fn a_pause_after_an_evaluation_counts_once_and_is_said() {
    let root = crate::support::repo().join("tests/fixtures/logs");
    let run = |json: bool| {
        let mut args = vec![
            "thermal".to_string(),
            root.join("thermal/throttle.csv").display().to_string(),
            "--train-log".into(),
            root.join("wide/nanogpt-sparse/throttle.log")
                .display()
                .to_string(),
            "--start".into(),
            "2026-11-29 09:02:13".into(),
        ];
        if json {
            args.push("--json".into());
        }
        let out = std::process::Command::new(crate::support::BIN)
            .args(&args)
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    let j: serde_json::Value = serde_json::from_str(&run(true)).unwrap();
    assert_eq!(j["pauses"]["count"], 1, "{j}");
    // The truth file says one pause of 33.1 s (eval and save at iter 1000).
    let total = j["pauses"]["total_s"].as_f64().unwrap();
    assert!((total - 33.1).abs() < 1.0, "{total}");
    assert!(run(false).contains("carry 1 pause(s) for evaluation or saving"));
}
