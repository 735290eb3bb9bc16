//! What an attacker or a clumsy user tries: bad bytes, impossible numbers,
//! unbounded inputs, a data directory turned against its owner, approvals
//! that are not approvals, and a session killed mid-turn.

use crate::support::{BIN, Headroom, repo};
use std::os::unix::fs::PermissionsExt;
use std::time::{Duration, Instant};

fn transcript(dir: &std::path::Path) -> String {
    std::fs::read_to_string(dir.join("transcript.jsonl")).unwrap_or_default()
}

#[test]
fn a_byte_that_is_not_utf8_never_ends_a_session() {
    let dir = tempfile::tempdir().unwrap();
    let mut input = b"LoRA on Qwen2.5 7B, bf16, batch 2\xff\xfe, packing 1024\n\n".to_vec();
    input.extend_from_slice(b"/status\n");
    let out = Headroom::new(dir.path()).stdin_bytes(&input).run().ok();
    assert!(out.stdout.contains("were not UTF-8 text"), "{}", out.stdout);
    assert!(
        out.stdout.contains("Qwen2.5 7B LoRA: peak"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("I remember"),
        "the session went on: {}",
        out.stdout
    );
}

#[test]
fn a_torn_transcript_is_repaired_on_start_and_the_original_kept() {
    let dir = tempfile::tempdir().unwrap();
    Headroom::new(dir.path())
        .stdin("LoRA on Qwen2.5 7B, bf16, batch 2, packing 1024\n")
        .run()
        .ok();
    let path = dir.path().join("transcript.jsonl");
    let mut bytes = std::fs::read(&path).unwrap();
    // A crash mid-write: half a record, cut inside a UTF-8 character.
    bytes.extend_from_slice("{\"event\":\"owner\",\"text\":\"caf\u{e9}".as_bytes());
    bytes.pop();
    std::fs::write(&path, &bytes).unwrap();
    let out = Headroom::new(dir.path())
        .at("2026-11-29T11:00:00Z")
        .stdin("/status\n")
        .run()
        .ok();
    assert!(
        out.stdout.contains("cut it back to the last whole record"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("model: Qwen2.5 7B"), "{}", out.stdout);
    let kept: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("transcript.jsonl.torn-")
        })
        .collect();
    assert_eq!(kept.len(), 1, "the original is kept beside it");
    assert!(std::fs::read(&path).unwrap().ends_with(b"\n"));
}

#[test]
fn impossible_numbers_are_refused_with_what_was_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let plan = |args: &[&str]| Headroom::new(dir.path()).args(args).run();
    let out = plan(&[
        "plan",
        "--params",
        "8b",
        "--method",
        "lora",
        "--batch",
        "4294967296",
        "--pack",
        "4294967296",
    ]);
    assert_eq!(out.code, 2, "{}", out.stdout);
    assert!(out.stderr.contains("--batch"), "{}", out.stderr);

    let free = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(free.path(), "Mem: 119 4 80 0 35 900\n").unwrap();
    let out = plan(&[
        "plan",
        "--params",
        "8b",
        "--method",
        "lora",
        "--free",
        free.path().to_str().unwrap(),
    ]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("larger than `total`"), "{}", out.stderr);

    let config = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(config.path(), r#"{"hidden_size": 0, "num_attention_heads": 32, "intermediate_size": 11008, "num_hidden_layers": 32, "vocab_size": 32000}"#).unwrap();
    let out = plan(&[
        "plan",
        "--config",
        config.path().to_str().unwrap(),
        "--method",
        "lora",
    ]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("`hidden_size` is 0"), "{}", out.stderr);

    for need in ["-5", "NaN", "inf"] {
        let out = Headroom::new(dir.path())
            .args(&["procs", "-", &format!("--need={need}")])
            .stdin(
                "ollama 1022 0.0 0.1 212344 112344 ? Ssl 08:01 0:03 /usr/local/bin/ollama serve\n",
            )
            .run();
        assert_ne!(out.code, 0, "--need {need}");
        assert!(out.stderr.contains("--need"), "{}", out.stderr);
    }

    // In the chat: the run keeps its old value.
    let out = Headroom::new(dir.path())
        .stdin("LoRA on Qwen2.5 7B, bf16, batch 2, packing 1024\n\nbatch 4294967296\n\n/status\n")
        .run()
        .ok();
    assert!(
        out.stdout.contains("I did not take \"batch 4294967296\""),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("batch: 2"), "{}", out.stdout);
}

#[test]
fn thermal_values_in_other_units_or_not_numbers_never_reach_the_chart() {
    let dir = tempfile::tempdir().unwrap();
    let csv = tempfile::NamedTempFile::new().unwrap();
    let mut text = String::from("timestamp, temperature.gpu, power.draw [W]\n");
    for i in 0..60 {
        text.push_str(&format!(
            "2026/11/29 10:{:02}:00.000, {}, NaN\n",
            i,
            318 + i % 3
        ));
    }
    std::fs::write(csv.path(), &text).unwrap();
    let svg = dir.path().join("c.svg");
    let start = Instant::now();
    let out = Headroom::new(dir.path())
        .args(&[
            "thermal",
            csv.path().to_str().unwrap(),
            "--svg",
            svg.to_str().unwrap(),
        ])
        .run();
    assert!(start.elapsed() < Duration::from_secs(10));
    assert_ne!(out.code, 0);
    assert!(out.stderr.contains("Kelvin"), "{}", out.stderr);

    let mut text = String::from("timestamp, temperature.gpu, power.draw [W]\n");
    for i in 0..60 {
        let temp = if i % 7 == 0 {
            "inf".to_string()
        } else {
            format!("{}", 60 + i / 10)
        };
        text.push_str(&format!("2026/11/29 10:{:02}:00.000, {temp}, 100.0\n", i));
    }
    std::fs::write(csv.path(), &text).unwrap();
    let out = Headroom::new(dir.path())
        .args(&[
            "thermal",
            csv.path().to_str().unwrap(),
            "--svg",
            svg.to_str().unwrap(),
        ])
        .run();
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(!std::fs::read_to_string(&svg).unwrap().contains("NaN"));
}

#[test]
fn a_failed_chart_write_still_prints_the_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let csv = repo().join("tests/fixtures/thermal/throttle-2h.csv");
    let log = repo().join("tests/fixtures/thermal/throttle-2h.log");
    let out = Headroom::new(dir.path())
        .args(&[
            "thermal",
            csv.to_str().unwrap(),
            "--train-log",
            log.to_str().unwrap(),
            "--svg",
            "/nonexistent-dir/chart.svg",
        ])
        .run();
    assert_eq!(out.code, 1);
    assert!(out.stdout.contains("Thermal check"), "{}", out.stdout);
    assert!(
        out.stderr.contains("the chart could not be written"),
        "{}",
        out.stderr
    );
}

#[test]
fn endless_and_device_inputs_fail_fast() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        vec![
            "plan",
            "--params",
            "8b",
            "--method",
            "lora",
            "--free",
            "/dev/zero",
        ],
        vec!["plan", "--config", "/dev/zero", "--method", "lora"],
        vec!["procs", "/dev/zero"],
        vec!["thermal", "/dev/zero"],
    ] {
        let start = Instant::now();
        let out = Headroom::new(dir.path()).args(&args).run();
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "{args:?} took too long"
        );
        assert_ne!(out.code, 0, "{args:?}");
        assert!(out.stderr.contains("device"), "{args:?}: {}", out.stderr);
    }
    // A file far larger than any `free` output.
    let big = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(big.path(), vec![b'x'; 3 * 1024 * 1024]).unwrap();
    let out = Headroom::new(dir.path())
        .args(&[
            "plan",
            "--params",
            "8b",
            "--method",
            "lora",
            "--free",
            big.path().to_str().unwrap(),
        ])
        .run();
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("over the 1 MiB headroom reads"),
        "{}",
        out.stderr
    );
    // Piped: a turn of more than 8 MiB with no blank line stops reading.
    let out = Headroom::new(dir.path())
        .stdin_bytes(&vec![b'z'; 9 * 1024 * 1024])
        .run()
        .ok();
    assert!(
        out.stdout.contains("stopped reading"),
        "{}",
        &out.stdout[..out.stdout.len().min(500)]
    );
}

#[test]
fn large_pastes_are_stored_once_by_reference() {
    let dir = tempfile::tempdir().unwrap();
    let mut log = String::new();
    for i in 0..4000 {
        log.push_str(&format!(
            "{{'loss': 1.{i:04}, 'grad_norm': 0.5, 'learning_rate': 0.0001, 'epoch': 0.{i:04}}}\n"
        ));
    }
    Headroom::new(dir.path())
        .stdin(&format!("{log}\n{log}\n"))
        .run()
        .ok();
    let t = transcript(dir.path());
    assert!(
        t.len() < 20_000,
        "the transcript holds the paste inline: {} bytes",
        t.len()
    );
    let pastes: Vec<_> = std::fs::read_dir(dir.path().join("pastes"))
        .unwrap()
        .collect();
    assert_eq!(pastes.len(), 1, "the same paste twice is stored once");
    let out = Headroom::new(dir.path())
        .at("2026-11-29T11:00:00Z")
        .stdin("/export --force ex.md\n")
        .cwd(dir.path())
        .run()
        .ok();
    assert!(out.stdout.contains("Wrote this session"), "{}", out.stdout);
}

#[test]
fn the_data_dir_keeps_the_owners_mode_and_never_follows_links() {
    let t = tempfile::tempdir().unwrap();
    let shared = t.path().join("shared");
    std::fs::create_dir(&shared).unwrap();
    std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o1777)).unwrap();
    let out = Headroom::new(&shared).stdin("/status\n").run();
    assert_ne!(out.code, 0);
    assert!(
        out.stderr.contains("writable by everyone"),
        "{}",
        out.stderr
    );
    assert_eq!(
        std::fs::metadata(&shared).unwrap().permissions().mode() & 0o7777,
        0o1777
    );

    let own = t.path().join("own");
    std::fs::create_dir(&own).unwrap();
    std::fs::set_permissions(&own, std::fs::Permissions::from_mode(0o750)).unwrap();
    let precious = t.path().join("precious.txt");
    std::fs::write(&precious, "keep me").unwrap();
    std::os::unix::fs::symlink(&precious, own.join("lock")).unwrap();
    let out = Headroom::new(&own).stdin("/status\n").run();
    assert_ne!(out.code, 0);
    assert!(out.stderr.contains("symlink"), "{}", out.stderr);
    assert_eq!(std::fs::read_to_string(&precious).unwrap(), "keep me");
    assert_eq!(
        std::fs::metadata(&own).unwrap().permissions().mode() & 0o777,
        0o750
    );

    std::fs::remove_file(own.join("lock")).unwrap();
    std::os::unix::fs::symlink(&precious, own.join("transcript.jsonl")).unwrap();
    let out = Headroom::new(&own).stdin("/status\n").run();
    assert_ne!(out.code, 0);
    assert!(out.stderr.contains("symlink"), "{}", out.stderr);
    assert_eq!(std::fs::read_to_string(&precious).unwrap(), "keep me");
}

#[test]
fn export_never_overwrites_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("mine.md");
    std::fs::write(&target, "my notes").unwrap();
    let out = Headroom::new(dir.path())
        .stdin(&format!(
            "LoRA on Qwen2.5 7B\n\n/export {}\n",
            target.display()
        ))
        .run()
        .ok();
    assert!(out.stdout.contains("already exists"), "{}", out.stdout);
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "my notes");
    let out = Headroom::new(dir.path())
        .at("2026-11-29T11:00:00Z")
        .stdin(&format!("/export {} --force\n", target.display()))
        .run()
        .ok();
    assert!(out.stdout.contains("Wrote this session"), "{}", out.stdout);
}

#[test]
fn a_question_or_a_hedge_is_not_a_yes_and_a_partial_yes_is_per_process() {
    let listing = "owner 4121 2.1 6.3 8123456 8012344 ? Sl 09:12 3:02 /usr/bin/python3 -m vllm.entrypoints.openai.api_server --model Qwen/Qwen2.5-32B-Instruct\nollama 1022 0.0 0.1 212344 112344 ? Ssl 08:01 0:03 /usr/local/bin/ollama serve";
    for hedge in ["ok, what would that stop?", "go, wait no"] {
        let dir = tempfile::tempdir().unwrap();
        let out = Headroom::new(dir.path())
            .stdin(&format!("full fine-tune of Qwen2.5 3B, bf16, batch 8, packing 2048\n\n{listing}\n\n{hedge}\n"))
            .run()
            .ok();
        assert!(!out.stdout.contains("kill 4121"), "{hedge}: {}", out.stdout);
        assert!(
            out.stdout.contains("Nothing was done"),
            "{hedge}: {}",
            out.stdout
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let out = Headroom::new(dir.path())
        .stdin(&format!("full fine-tune of Qwen2.5 3B, bf16, batch 8, packing 2048\n\n{listing}\n\nyes, but not vllm\n"))
        .run()
        .ok();
    assert!(
        out.stdout.contains("Keeping vLLM server (pid 4121)"),
        "{}",
        out.stdout
    );
    assert!(!out.stdout.contains("`kill 4121`"), "{}", out.stdout);
    assert!(
        out.stdout.contains("systemctl stop ollama"),
        "{}",
        out.stdout
    );
}

#[test]
fn a_session_killed_mid_turn_loses_nothing_and_says_what_was_not_shown() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    // A model server that accepts and never answers: the phrasing hangs.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let _server = std::thread::spawn(move || {
        let mut held = Vec::new();
        for s in listener.incoming().take(4).flatten() {
            held.push(s);
        }
        std::thread::sleep(Duration::from_secs(30));
    });
    let mut child = std::process::Command::new(BIN)
        .args(["--llm", &format!("openai:m@http://127.0.0.1:{port}")])
        .env("HEADROOM_DATA_DIR", dir.path())
        .env("HEADROOM_NOW", "2026-11-29T10:00:00Z")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"LoRA on Qwen2.5 7B, bf16, batch 2, packing 1024\n\n")
        .unwrap();
    stdin.flush().unwrap();
    // Wait until the owner's turn is on disk, then kill -9 while phrasing.
    let start = Instant::now();
    while !transcript(dir.path()).contains("\"event\":\"owner\"") {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the turn was never stored"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(200));
    child.kill().unwrap();
    child.wait().unwrap();
    let out = Headroom::new(dir.path())
        .at("2026-11-29T11:00:00Z")
        .stdin("/status\n")
        .run()
        .ok();
    assert!(
        out.stdout.contains("its reply was never shown"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("model: Qwen2.5 7B"),
        "the turn was kept: {}",
        out.stdout
    );
}

/// A data directory someone opened to the box (0755 after a copy without
/// `-p`) is said at the start with the command that closes it; a private
/// one says nothing (fault set 14, s28).
#[test]
fn a_data_directory_others_can_list_is_said_at_the_start() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
    let quiet = Headroom::new(dir.path()).stdin("hi\n").run().ok();
    assert!(
        !quiet.stdout.contains("others on this box can list it"),
        "{}",
        quiet.stdout
    );
    // Opened after the harness made it private, as a copy without -p would.
    let session = Headroom::new(dir.path());
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = session.stdin("hi\n").run().ok();
    assert!(
        out.stdout
            .contains("is mode 755, so others on this box can list it"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("`chmod 700 "), "{}", out.stdout);
}
