//! Measures what "instant" means for headroom, on this machine:
//! 1. startup to the first prompt, in a real pseudo-terminal;
//! 2. a whole piped dialogue (start, replay, three turns, a plan, exit);
//! 3. one deterministic plan turn in process (extract → estimate → render).
//!
//! Run: `cargo bench --bench startup_and_plan`. Prints median and p90.

use headroom::dialogue::engine::respond;
use headroom::dialogue::session::Session;
use headroom::knowledge::Knowledge;
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_headroom");
const FREE_G: &str = "               total        used        free      shared  buff/cache   available\nMem:             119           4          80           0          35         115\nSwap:             15           0          15\n";

fn summary(name: &str, mut samples: Vec<Duration>) {
    samples.sort();
    let pick = |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize];
    println!(
        "{name:<48} n={:<6} median {:>10.3?}  p90 {:>10.3?}  min {:>10.3?}",
        samples.len(),
        pick(0.5),
        pick(0.9),
        samples[0]
    );
}

/// Reads the pty directly: rexpect's own `exp_*` polls every 100 ms, which
/// would hide a start-up shorter than that.
fn startup_to_prompt(runs: usize) -> Vec<Duration> {
    use std::io::Read;
    (0..runs)
        .map(|_| {
            let data = tempfile::tempdir().expect("temp dir");
            let mut cmd = Command::new(BIN);
            cmd.env("HEADROOM_DATA_DIR", data.path())
                .env("TERM", "xterm")
                .env("NO_COLOR", "1");
            let start = Instant::now();
            let process = rexpect::process::PtyProcess::new(cmd).expect("pty");
            let mut pty = process.get_file_handle().expect("pty handle");
            let mut seen = Vec::new();
            let mut buf = [0u8; 4096];
            while !String::from_utf8_lossy(&seen).contains("headroom> ") {
                let n = pty.read(&mut buf).expect("read pty");
                assert!(n > 0, "headroom closed the pty before its prompt");
                seen.extend_from_slice(&buf[..n]);
            }
            let took = start.elapsed();
            pty.write_all(b"\x04").expect("ctrl-d");
            process.wait().expect("exit");
            took
        })
        .collect()
}

fn piped_dialogue(runs: usize) -> Vec<Duration> {
    let input = format!("QLoRA on Llama 3.1 70B\n\nbatch 1, packing 2048\n\n{FREE_G}");
    (0..runs)
        .map(|_| {
            let data = tempfile::tempdir().expect("temp dir");
            let start = Instant::now();
            let mut child = Command::new(BIN)
                .env("HEADROOM_DATA_DIR", data.path())
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .spawn()
                .expect("spawn");
            child
                .stdin
                .take()
                .expect("stdin")
                .write_all(input.as_bytes())
                .expect("write");
            let out = child.wait_with_output().expect("wait");
            let took = start.elapsed();
            assert!(String::from_utf8_lossy(&out.stdout).contains("Verdict: fits"));
            took
        })
        .collect()
}

fn plan_turn_in_process(runs: usize) -> Vec<Duration> {
    let k = Knowledge::embedded();
    let now: jiff::Timestamp = "2026-11-29T10:00:00Z".parse().expect("time");
    let mut ready = Session::default();
    respond(
        &mut ready,
        "QLoRA on Llama 3.1 70B, batch 1, packing 2048",
        now,
        k,
    );
    respond(&mut ready, FREE_G, now, k);
    (0..runs)
        .map(|i| {
            let mut session = ready.clone();
            let turn = format!("batch {}", 1 + i % 4 + 1);
            let start = Instant::now();
            let reply = respond(&mut session, &turn, now, k);
            let took = start.elapsed();
            assert!(reply.verdict.is_some());
            took
        })
        .collect()
}

fn main() {
    println!(
        "headroom benchmarks ({} cores)",
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    summary("startup to first prompt (pty)", startup_to_prompt(30));
    summary(
        "piped dialogue: 3 turns to a plan, exit",
        piped_dialogue(30),
    );
    summary(
        "plan turn in process (extract+estimate+render)",
        plan_turn_in_process(2000),
    );
}
