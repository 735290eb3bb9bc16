//! `headroom thermal` and `headroom sampler` on the generated fixtures and
//! the real captures, and the sampler script itself.

use crate::support::{Headroom, repo};
use std::path::PathBuf;

fn fx(name: &str) -> String {
    repo()
        .join("tests/fixtures/thermal")
        .join(name)
        .display()
        .to_string()
}

fn thermal(args: &[&str]) -> crate::support::Ran {
    let dir = tempfile::tempdir().unwrap();
    let mut all = vec!["thermal"];
    all.extend_from_slice(args);
    Headroom::new(dir.path()).args(&all).run()
}

#[test]
fn throttling_two_hours_in_matches_the_slowdown() {
    let j = thermal(&[
        &fx("throttle-2h.csv"),
        "--train-log",
        &fx("throttle-2h.log"),
        "--json",
    ])
    .ok()
    .json();
    assert_eq!(j["verdict"], "thermal_throttling");
    assert_eq!(j["matches_thermal_event"], true);
    let event = &j["events"][0];
    assert_eq!(event["kind"], "reported_thermal_slowdown");
    assert_eq!(event["start"], "2026-11-29 11:10:00");
    assert!(
        j["slowdown_onset"]
            .as_str()
            .unwrap()
            .starts_with("2026-11-29 11:1")
    );
}

#[test]
fn a_plateau_near_100_w_with_no_slowdown_is_the_cap_only() {
    let out = thermal(&[
        &fx("cap-plateau.csv"),
        "--train-log",
        &fx("cap-plateau.log"),
    ])
    .ok();
    assert!(
        out.stdout.starts_with("## Thermal check: power cap only"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("Do not re-tune batch size or precision")
    );
    let j = thermal(&[
        &fx("cap-plateau.csv"),
        "--train-log",
        &fx("cap-plateau.log"),
        "--json",
    ])
    .ok()
    .json();
    assert_eq!(j["verdict"], "power_cap_only");
    assert!(j["slowdown_onset"].is_null());
    assert!(j["matches_thermal_event"].is_null());
}

#[test]
fn a_slowdown_at_flat_temperature_is_not_thermal_and_points_elsewhere() {
    let out = thermal(&[&fx("flat-temp.csv"), "--train-log", &fx("flat-temp.log")]).ok();
    assert!(
        out.stdout.contains("does not match a thermal event"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("a checkpoint save at"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("contention on the shared pool"));
    let j = thermal(&[
        &fx("flat-temp.csv"),
        "--train-log",
        &fx("flat-temp.log"),
        "--json",
    ])
    .ok()
    .json();
    assert_eq!(j["matches_thermal_event"], false);
    assert_eq!(j["events"].as_array().unwrap().len(), 0);
}

#[test]
fn the_seed_sampler_format_shows_the_climb_signature() {
    let j = thermal(&[&fx("seed-format-climb.csv"), "--json"])
        .ok()
        .json();
    assert_eq!(j["verdict"], "thermal_throttling");
    assert_eq!(j["events"][0]["kind"], "temp_climb_flat_power");
}

#[test]
fn too_little_data_is_said_with_what_to_sample_next() {
    let j = thermal(&[&fx("too-little.csv"), "--json"]).ok().json();
    assert_eq!(j["verdict"], "insufficient_data");
    assert!(
        j["insufficient"][0]
            .as_str()
            .unwrap()
            .contains("thermal-sample.sh 30")
    );
    // No overlap between the two files is too little as well.
    let relative = repo()
        .join("tests/fixtures/hf-trainer-it-per-s.txt")
        .display()
        .to_string();
    let j = thermal(&[
        &fx("cap-plateau.csv"),
        "--train-log",
        &relative,
        "--start",
        "2026-12-01 09:00:00",
        "--json",
    ])
    .ok()
    .json();
    assert_eq!(j["verdict"], "insufficient_data", "{j}");
}

#[test]
fn messy_input_is_read() {
    let j = thermal(&[&fx("messy.csv"), "--json"]).ok().json();
    assert_eq!(j["thermal_samples"], 80);
    assert_eq!(j["verdict"], "power_cap_only");
}

#[test]
fn a_log_without_absolute_time_needs_the_start() {
    let log = repo()
        .join("tests/fixtures/hf-trainer-it-per-s.txt")
        .display()
        .to_string();
    let j = thermal(&[&fx("cap-plateau.csv"), "--train-log", &log, "--json"])
        .ok()
        .json();
    assert_eq!(j["verdict"], "insufficient_data");
    assert!(j["insufficient"][0].as_str().unwrap().contains("--start"));
    let out = thermal(&[&fx("cap-plateau.csv"), "--start", "yesterday"]);
    assert_ne!(out.code, 0);
    assert!(out.stderr.contains("--start"));
}

#[test]
fn the_chart_is_ascii_when_piped_and_images_are_written() {
    let dir = tempfile::tempdir().unwrap();
    let svg: PathBuf = dir.path().join("c.svg");
    let png: PathBuf = dir.path().join("c.png");
    let out = thermal(&[
        &fx("throttle-2h.csv"),
        "--train-log",
        &fx("throttle-2h.log"),
        "--svg",
        svg.to_str().unwrap(),
        "--png",
        png.to_str().unwrap(),
    ])
    .ok();
    let chart: Vec<&str> = out
        .stdout
        .lines()
        .filter(|l| l.trim_start().starts_with("temp °C") || l.trim_start().starts_with("s/step"))
        .collect();
    assert_eq!(chart.len(), 2, "{}", out.stdout);
    assert!(
        chart
            .iter()
            .all(|l| l.chars().all(|c| c.is_ascii() || c == '°' || c == '–')),
        "{chart:?}"
    );
    let svg_text = std::fs::read_to_string(&svg).unwrap();
    assert!(svg_text.starts_with("<svg") && svg_text.contains("GPU temperature"));
    let png_bytes = std::fs::read(&png).unwrap();
    assert_eq!(&png_bytes[..8], b"\x89PNG\r\n\x1a\n");
}

#[test]
fn real_nvidia_smi_query_output_reads() {
    let real = repo()
        .join("tests/fixtures/nvidia-smi-query-timestamp-loop.txt")
        .display()
        .to_string();
    let j = thermal(&[&real, "--json"]).ok().json();
    assert_eq!(j["verdict"], "insufficient_data");
    assert!(j["thermal_samples"].as_u64().unwrap() >= 2);
}

#[test]
fn sampler_prints_the_script_and_how_to_start_and_stop_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = Headroom::new(dir.path()).args(&["sampler"]).run().ok();
    assert!(
        out.stdout
            .contains("bash assets/thermal-sample.sh 30 thermal.log")
    );
    assert!(out.stdout.contains("kill PID"));
    assert!(out.stdout.contains("sw_thermal_slowdown"));
}

/// The script against a stand-in nvidia-smi: header once, timestamped rows,
/// the PID printed, and it stops on kill.
#[test]
fn the_sampler_script_writes_a_header_and_rows_in_the_background() {
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let fake = bin.join("nvidia-smi");
    std::fs::write(
        &fake,
        "#!/usr/bin/env bash\ncase \"$*\" in *clocks_event_reasons*) ;; *) ;; esac\necho \"$(date '+%Y/%m/%d %H:%M:%S.000'), 71, 99.50 W, 2450 MHz, 98 %, 0x0000000000000000, Not Active, Not Active, Not Active\"\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out_csv = dir.path().join("thermal.log");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let run = std::process::Command::new("bash")
        .arg(repo().join("assets/thermal-sample.sh"))
        .arg("1")
        .arg(&out_csv)
        .env("PATH", &path)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let pid: u32 = String::from_utf8_lossy(&run.stdout)
        .trim()
        .parse()
        .expect("the script prints a PID");
    std::thread::sleep(std::time::Duration::from_millis(2500));
    let _ = std::process::Command::new("kill")
        .arg(pid.to_string())
        .status();
    let text = std::fs::read_to_string(&out_csv).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("timestamp,temperature.gpu,power.draw"),
        "{text}"
    );
    assert!(lines.len() >= 3, "{text}");
    assert!(lines[1].contains(", 71, 99.50 W"));
}

#[test]
fn the_sampler_script_is_shellcheck_clean() {
    let out = std::process::Command::new("shellcheck")
        .arg(repo().join("assets/thermal-sample.sh"))
        .output();
    if !crate::support::available_or_skip(
        "shellcheck",
        out.is_err(),
        "not installed here; .ci/run installs it",
    ) {
        return;
    }
    let out = out.unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// Columns in the sampler's order or another, named by their header: the
/// evidence states the GPU's peak temperature and the SM clock's range
/// from the right columns, whatever their order.
#[test]
fn the_peak_temperature_and_clock_are_stated_from_columns_in_any_order() {
    let dir = tempfile::tempdir().unwrap();
    for (name, header, row) in [
        (
            "sampler.csv",
            "timestamp, temperature.gpu, power.draw [W], clocks.sm [MHz], utilization.gpu [%]",
            (|t: &str, c: f32, w: f32, m: u32| format!("{t}, {c:.0}, {w:.2} W, {m} MHz, 99 %"))
                as fn(&str, f32, f32, u32) -> String,
        ),
        (
            "reordered.csv",
            "power.draw [W], utilization.gpu [%], clocks.sm [MHz], temperature.gpu, timestamp",
            |t: &str, c: f32, w: f32, m: u32| format!("{w:.2} W, 99 %, {m} MHz, {c:.0}, {t}"),
        ),
    ] {
        let mut csv = format!("{header}\n");
        for i in 0..241u32 {
            let t = format!(
                "2026/11/29 {:02}:{:02}:{:02}.000",
                12 + i / 120,
                (i / 2) % 60,
                (i % 2) * 30
            );
            let c = 62.0 + 21.0 * i as f32 / 240.0;
            csv.push_str(&row(&t, c, 100.0 + (i % 3) as f32 * 0.4, 2400 - i));
            csv.push('\n');
        }
        let path = dir.path().join(name);
        std::fs::write(&path, csv).unwrap();
        let out = thermal(&[path.to_str().unwrap()]).stdout;
        assert!(
            out.contains("GPU temperature: 62.0–83.0 °C, peak 83.0 °C"),
            "{name}: {out}"
        );
        assert!(
            out.contains("SM clock 2400 MHz at most, 2160 MHz at least"),
            "{name}: {out}"
        );
    }
}

#[test]
fn samples_piped_in_with_a_dash_are_read_and_two_dashes_refused() {
    let csv = std::fs::read_to_string("tests/fixtures/logs/thermal/throttle.csv").unwrap();
    let out = crate::support::Headroom::new(tempfile::tempdir().unwrap().path())
        .args(&["thermal", "-", "--json"])
        .stdin(&csv)
        .run()
        .ok()
        .stdout;
    let j: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(j["verdict"], "thermal_throttling", "{out}");
    let ran = crate::support::Headroom::new(tempfile::tempdir().unwrap().path())
        .args(&["thermal", "-", "--train-log", "-"])
        .stdin(&csv)
        .run();
    assert_eq!(ran.code, 2);
    assert!(ran.stderr.contains("cannot both be `-`"), "{}", ran.stderr);
}
