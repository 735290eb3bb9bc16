//! Faults met by the third held-out fault set (tests/fixtures/attacks/
//! README.md has the phrasing sets; this one was scripted): a kept paste
//! changed on disk before a restart, a bad `--llm` flag, files named in a
//! sentence by their role, a refused path on later turns, and what a
//! restart says about the run it remembers.

use crate::support::{Headroom, fixture, from_last};
use std::path::Path;
use std::process::Command;

const RUN: &str = "LoRA on Qwen2.5 7B, bf16, batch 2, packing 4096";

/// A `ps aux` listing over the 64 KiB that is kept by reference.
fn big_listing() -> String {
    let mut text = String::from(
        "USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND\n",
    );
    for pid in 20_000..21_300 {
        text.push_str(&format!(
            "owner    {pid}  0.0  0.0  12345  6789 pts/1    Ss   08:00   0:00 -bash --login worker-{pid}\n"
        ));
    }
    text.push_str("owner       4242 12.0 45.1 98765432 55123456 ?   Sl   08:12  10:01 /usr/bin/python3 -m vllm.entrypoints.openai.api_server --model Qwen/Qwen2.5-7B-Instruct --port 8000\n");
    text
}

fn kept_paste(dir: &Path) -> std::path::PathBuf {
    std::fs::read_dir(dir.join("pastes"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| !p.file_name().unwrap().to_string_lossy().starts_with('.'))
        .expect("a kept paste")
}

#[test]
fn a_kept_paste_changed_or_gone_before_a_restart_is_said_not_silently_dropped() {
    for damage in ["cut", "extended", "gone"] {
        let dir = tempfile::tempdir().unwrap();
        Headroom::new(dir.path())
            .stdin(&format!("{RUN}\n\n{}\n", big_listing()))
            .run()
            .ok();
        let paste = kept_paste(dir.path());
        match damage {
            "cut" => {
                let len = std::fs::metadata(&paste).unwrap().len();
                std::fs::OpenOptions::new()
                    .write(true)
                    .open(&paste)
                    .unwrap()
                    .set_len(len / 2)
                    .unwrap();
            }
            "extended" => {
                let mut text = std::fs::read_to_string(&paste).unwrap();
                text.push_str("ollama   31337  0.5  2.0 4567890 2345678 ?     Ssl  08:00   0:30 /usr/local/bin/ollama serve\n");
                std::fs::write(&paste, text).unwrap();
            }
            _ => std::fs::remove_file(&paste).unwrap(),
        }
        let out = later(dir.path(), "2026-11-29T10:05:00Z", "will it fit?\n");
        assert!(
            out.stdout
                .contains("A paste you gave on 2026-11-29 10:00 UTC was not used"),
            "{damage}: {}",
            out.stdout
        );
        assert!(
            out.stdout.contains("paste it fresh"),
            "{damage}: {}",
            out.stdout
        );
        assert!(!out.stdout.contains("31337"), "{damage}: {}", out.stdout);
        // The run itself is remembered.
        assert!(out.stdout.contains("Qwen2.5 7B LoRA"), "{}", out.stdout);
    }
}

#[test]
fn a_bad_llm_endpoint_is_a_bad_flag_exit_2_and_nothing_is_sent() {
    for url in [
        "http://u:pw@127.0.0.1:9",
        "http://127.0.0.1:9/v1?x=1",
        "http://127.0.0.1:9/v1#frag",
        "http://:@127.0.0.1:9/v1",
    ] {
        let dir = tempfile::tempdir().unwrap();
        let out = Headroom::new(dir.path())
            .env("HEADROOM_API_KEY", "sk-test-secret")
            .args(&["--llm", &format!("openai:m@{url}")])
            .stdin(&format!("{RUN}\n"))
            .run();
        assert_eq!(out.code, 2, "{url}: {}", out.stderr);
        assert!(!out.stderr.contains("sk-test-secret"), "{}", out.stderr);
        assert!(out.stderr.contains("--llm"), "{}", out.stderr);
    }
}

fn mkfifo(path: &Path) {
    assert!(Command::new("mkfifo").arg(path).status().unwrap().success());
}

#[test]
fn a_file_named_by_its_role_in_a_sentence_is_opened_and_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("train.log");
    std::fs::write(&log, fixture("thermal/throttle-2h.log")).unwrap();
    let fifo = dir.path().join("thermal.fifo");
    mkfifo(&fifo);
    let folder = dir.path().join("samples");
    std::fs::create_dir(&folder).unwrap();
    let (log, fifo, folder) = (log.display(), fifo.display(), folder.display());
    let data = tempfile::tempdir().unwrap();
    for (words, named) in [
        (format!("check thermals: {fifo} and {log}"), "FIFO"),
        (
            format!("thermal samples: {folder} train log: {log}"),
            "directory",
        ),
        (
            format!("is it throttling? samples in /dev/zero, log {log}"),
            "device",
        ),
        (format!("the sampler log is at {fifo}, is it hot?"), "FIFO"),
    ] {
        let out = Headroom::new(data.path())
            .stdin(&format!("{words}\n"))
            .run()
            .ok();
        assert!(out.stdout.contains(named), "{words}: {}", out.stdout);
    }
}

#[test]
fn a_refused_path_is_explained_once_then_only_listed() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("t.fifo");
    mkfifo(&fifo);
    let data = tempfile::tempdir().unwrap();
    let out = Headroom::new(data.path())
        .stdin(&format!(
            "samples: {}\n\nis it throttling?\n\nand is it the heat?\n",
            fifo.display()
        ))
        .run()
        .ok();
    assert_eq!(
        out.stdout
            .matches("reading it would wait for a writer")
            .count(),
        1,
        "{}",
        out.stdout
    );
    let later = from_last(&out.stdout, "Named before, not readable now");
    assert!(
        later.starts_with(&format!(
            "Named before, not readable now: `{}` (it is a FIFO (named pipe), not a file).",
            fifo.display()
        )),
        "{}",
        out.stdout
    );
}

#[test]
fn a_file_read_before_and_gone_at_the_next_session_is_said_to_be_gone() {
    let dir = tempfile::tempdir().unwrap();
    let (csv, log) = (dir.path().join("t.csv"), dir.path().join("train.log"));
    std::fs::write(&csv, fixture("thermal/throttle-2h.csv")).unwrap();
    std::fs::write(&log, fixture("thermal/throttle-2h.log")).unwrap();
    let data = tempfile::tempdir().unwrap();
    let first = Headroom::new(data.path())
        .stdin(&format!(
            "samples: {} and the train log: {}\n",
            csv.display(),
            log.display()
        ))
        .run()
        .ok();
    assert!(first.stdout.contains("Thermal check"), "{}", first.stdout);
    std::fs::remove_file(&csv).unwrap();
    let out = later(
        data.path(),
        "2026-11-29T10:30:00Z",
        "is it throttling? check the same files again\n",
    );
    assert!(
        out.stdout.contains(&format!(
            "Named before, not readable now: `{}` (no such file)",
            csv.display()
        )),
        "{}",
        out.stdout
    );
}

#[test]
fn a_restart_names_the_settings_its_verdict_rests_on_and_states_it_plainly() {
    let dir = tempfile::tempdir().unwrap();
    Headroom::new(dir.path())
        .stdin(&format!("{RUN}\n\nactually packing 1536\n"))
        .run()
        .ok();
    let out = later(dir.path(), "2026-11-29T10:05:00Z", "will it fit?\n");
    assert!(
        out.stdout
            .contains("your run: Qwen2.5 7B LoRA (bf16, adamw, batch 2, pack 1536)"),
        "{}",
        out.stdout
    );
    // A run that does not fit, asked "will it fit?": never "Yes: … would OOM".
    let dir = tempfile::tempdir().unwrap();
    Headroom::new(dir.path())
        .stdin("full fine-tune of Llama 3.1 70B, batch 1, packing 2048\n")
        .run()
        .ok();
    for question in ["will it fit?", "is that bad?"] {
        let out = later(dir.path(), "2026-11-29T10:05:00Z", &format!("{question}\n"));
        assert!(!out.stdout.contains("Yes: the peak"), "{}", out.stdout);
        assert!(
            out.stdout.contains("does not fit"),
            "{question}: {}",
            out.stdout
        );
    }
}

#[test]
fn rows_with_a_damaged_pid_beside_good_ones_are_named_not_dropped() {
    let listing = "USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND
owner      04242 12.0 20.1 99999999 26214400 ?    Sl   08:01  10:00 /usr/bin/python3 /usr/local/bin/vllm serve Qwen/Qwen2.5-14B-Instruct --port 8005
owner   99999999 12.0 20.1 99999999 26214400 ?    Sl   08:01  10:00 /usr/bin/python3 /usr/local/bin/vllm serve Qwen/Qwen2.5-3B-Instruct --port 8006
owner       7777 31.0 62.4 141236508 81788412 ?  Sl   08:12  44:01 /home/owner/.venv/bin/python3 /home/owner/.venv/bin/vllm serve Qwen/Qwen2.5-32B-Instruct --port 8000
";
    let named = "Not read: 2 row(s) whose pid column is damaged (04242, 99999999)";
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("ps.txt");
    std::fs::write(&file, listing).unwrap();
    let cli = Headroom::new(dir.path())
        .args(&["procs", file.to_str().unwrap(), "--need", "60"])
        .run()
        .ok();
    assert!(cli.stdout.contains(named), "{}", cli.stdout);
    let chat = Headroom::new(dir.path())
        .stdin(&format!(
            "QLoRA on Llama 3.1 70B, batch 1, packing 2048\n\n{listing}\nyes\n"
        ))
        .run()
        .ok();
    assert!(chat.stdout.contains(named), "{}", chat.stdout);
    // Only the good row is ever stopped.
    assert!(chat.stdout.contains("kill 7777"), "{}", chat.stdout);
    for damaged in ["4242", "99999999"] {
        assert!(
            !chat.stdout.contains(&format!("kill {damaged}")),
            "{}",
            chat.stdout
        );
    }
}

#[test]
fn thermal_samples_with_clocks_but_no_power_get_no_firm_verdict() {
    let out = thermal_of(
        "timestamp, temperature.gpu, power.draw [W], clocks.sm [MHz], utilization.gpu [%]",
        |i| {
            let (temp, clock) = if i < 120 { (60, 2400) } else { (96, 1850) };
            format!("{temp}, [N/A], {clock} MHz, 98 %")
        },
    );
    assert!(!out.stdout.contains("No thermal event"), "{}", out.stdout);
    assert!(out.stdout.contains("not enough data"), "{}", out.stdout);
    assert!(out.stdout.contains("96 °C"), "{}", out.stdout);
}

#[test]
fn a_stop_proposed_again_from_a_listing_pasted_now_takes_this_sessions_yes() {
    let listing = "owner       4242  2.0  0.9 40211320 1201832 pts/4 Sl+ 09:20   0:12 /home/owner/venv/bin/python3 -m vllm.entrypoints.openai.api_server --model meta-llama/Llama-3.1-8B-Instruct --port 8001";
    let dir = tempfile::tempdir().unwrap();
    Headroom::new(dir.path())
        .stdin(&format!(
            "LoRA on Qwen2.5 32B, bf16, batch 4, packing 2048\n\n{}\n{listing}\n",
            fixture("free-g-spark.txt")
        ))
        .run()
        .ok();
    // Another session's bare yes is still refused…
    let other = later(dir.path(), "2026-11-29T10:15:00Z", "yes\n");
    assert!(!other.stdout.contains("kill 4242"), "{}", other.stdout);
    // …but a listing pasted in this session proposes the stop here.
    let here = later(
        dir.path(),
        "2026-11-29T10:16:00Z",
        &format!("{listing}\n\nyes\n"),
    );
    assert!(here.stdout.contains("`kill 4242`"), "{}", here.stdout);
}

#[test]
fn a_transcript_changed_under_a_session_keeps_the_next_turn_whole() {
    // Cut short mid-record, or appended to by another writer that left a
    // torn record: the next record starts on a line of its own, said once.
    for (change, said) in [
        ("cut", "cut short"),
        ("appended", "written to by something else"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("transcript.jsonl");
        let out = live_session(dir.path(), &format!("{RUN}\n\n"), || match change {
            "cut" => {
                let len = std::fs::metadata(&path).unwrap().len();
                std::fs::OpenOptions::new()
                    .write(true)
                    .open(&path)
                    .unwrap()
                    .set_len(len * 6 / 10)
                    .unwrap();
            }
            _ => {
                use std::io::Write;
                let mut f = std::fs::OpenOptions::new()
                    .append(true)
                    .open(&path)
                    .unwrap();
                f.write_all(b"{\"event\":\"reply\",\"at\":\"2026-11-29T10:00:0")
                    .unwrap();
            }
        });
        assert_eq!(
            out.matches(&format!("The transcript was {said} while this session ran"))
                .count(),
            1,
            "{change}: {out}"
        );
        let status = later(dir.path(), "2026-11-29T10:30:00Z", "/status\n");
        assert!(
            status.stdout.contains("pack: 1536"),
            "{change}: {}",
            status.stdout
        );
    }
}

/// A piped session kept open: `first` is answered, then `meddle` runs on
/// the data directory, then "actually packing 1536" is said; what the
/// session printed.
fn live_session(dir: &Path, first: &str, meddle: impl FnOnce()) -> String {
    use std::io::Write;
    let mut child = std::process::Command::new(crate::support::BIN)
        .env("HEADROOM_DATA_DIR", dir)
        .env("HEADROOM_NOW", "2026-11-29T10:00:00Z")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let path = dir.join("transcript.jsonl");
    let replies = || {
        std::fs::read_to_string(&path)
            .unwrap_or_default()
            .matches("\"event\":\"reply\"")
            .count()
    };
    stdin.write_all(first.as_bytes()).unwrap();
    stdin.flush().unwrap();
    let start = std::time::Instant::now();
    while replies() < 1 && start.elapsed() < std::time::Duration::from_secs(5) {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    meddle();
    stdin.write_all(b"actually packing 1536\n\n").unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn a_no_thermal_event_on_the_driver_flags_alone_says_so() {
    let out = thermal_of(
        "timestamp, temperature.gpu, power.draw [W], clocks.sm [MHz], utilization.gpu [%], clocks_event_reasons.active, clocks_event_reasons.sw_thermal_slowdown, clocks_event_reasons.hw_thermal_slowdown, clocks_event_reasons.sw_power_cap",
        |_| "96, [N/A], 2400 MHz, 97 %, 0x0000000000000004, Not Active, Not Active, Active".into(),
    );
    assert!(
        out.stdout.contains("on the driver's word alone"),
        "{}",
        out.stdout
    );
}

/// `headroom thermal` on 240 samples every 30 s from 08:00, each row's
/// fields after the stamp from `row(i)`.
fn thermal_of(header: &str, row: impl Fn(usize) -> String) -> crate::support::Ran {
    let dir = tempfile::tempdir().unwrap();
    let mut csv = format!("{header}\n");
    for i in 0..240 {
        csv.push_str(&format!(
            "2026/11/29 {:02}:{:02}:{:02}.000, {}\n",
            8 + i / 120,
            (i % 120) / 2,
            (i % 2) * 30,
            row(i)
        ));
    }
    let path = dir.path().join("t.csv");
    std::fs::write(&path, csv).unwrap();
    Headroom::new(dir.path())
        .args(&["thermal", path.to_str().unwrap()])
        .run()
}

/// A later session on `dir` at `at` (each start is a new session), told
/// `turns`; it must exit 0.
fn later(dir: &Path, at: &str, turns: &str) -> crate::support::Ran {
    Headroom::new(dir).at(at).stdin(turns).run().ok()
}

/// "will it fit?" after a `free` paste says whether it fits in what is free
/// right now, but only from a fresh paste: one dated after now, or older
/// than the freshness rule, says nothing about right now.
#[test]
fn fits_right_now_rests_only_on_a_fresh_free_paste() {
    let free = fixture("free-g-spark.txt");
    let fresh = tempfile::tempdir().unwrap();
    later(
        fresh.path(),
        "2026-11-29T10:00:00Z",
        &format!("{RUN}\n\n{free}\n"),
    );
    let out = later(fresh.path(), "2026-11-29T10:02:00Z", "will it fit?\n").stdout;
    assert!(out.contains("It fits right now too"), "{out}");
    for at in ["2027-03-09T10:00:00Z", "2026-11-20T10:00:00Z"] {
        let dir = tempfile::tempdir().unwrap();
        later(dir.path(), at, &format!("{RUN}\n\n{free}\n"));
        let out = later(dir.path(), "2026-11-29T10:02:00Z", "will it fit?\n").stdout;
        assert!(out.contains("It fits, so nothing is wrong"), "{at}: {out}");
        assert!(!out.contains("right now"), "{at}: {out}");
    }
}

/// A device listed beside a log in a sentence is named as data and refused
/// by name, like a directory or a FIFO.
#[test]
fn a_device_listed_beside_a_log_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("train.log");
    std::fs::write(&log, "step 1 loss 2.0\n").unwrap();
    let out = later(
        dir.path(),
        "2026-11-29T10:00:00Z",
        &format!("is the slowdown thermal? /dev/zero and {}\n", log.display()),
    )
    .stdout;
    assert!(out.contains("/dev/zero"), "{out}");
    assert!(out.contains("device"), "{out}");
}
