//! Faults that must never cost an answer or a decision: a FIFO given as a
//! file, a second session after the lock file is deleted, a transcript
//! replaced by an editor mid-session, a last record without its newline,
//! and a disk that fills up mid-session.

use crate::support::{BIN, Headroom, available_or_skip};
use std::io::Write;
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

const RUN: &str = "LoRA on Qwen2.5 7B, bf16, batch 2, packing 1024";

fn transcript(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("transcript.jsonl")).unwrap_or_default()
}

/// A piped session kept open, so turns can be sent one at a time.
struct Live {
    child: Child,
    stdin: Option<ChildStdin>,
}

impl Live {
    fn start(dir: &Path) -> Live {
        let mut child = Command::new(BIN)
            .env("HEADROOM_DATA_DIR", dir)
            .env("HEADROOM_NOW", "2026-11-29T10:00:00Z")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take();
        Live { child, stdin }
    }

    /// Send one turn and wait until `dir`'s records show `replies` replies
    /// (or, on a disk that takes nothing, a short while).
    fn say(&mut self, text: &str, dir: &Path, replies: usize) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(format!("{text}\n\n").as_bytes()).unwrap();
        stdin.flush().unwrap();
        let start = Instant::now();
        while transcript(dir).matches("\"event\":\"reply\"").count() < replies
            && start.elapsed() < Duration::from_secs(5)
        {
            std::thread::sleep(Duration::from_millis(20));
        }
        std::thread::sleep(Duration::from_millis(150));
    }

    fn finish(mut self) -> (String, i32) {
        drop(self.stdin.take());
        let out = self.child.wait_with_output().unwrap();
        (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            out.status.code().unwrap_or(-1),
        )
    }
}

fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success());
}

#[test]
fn a_fifo_is_refused_in_milliseconds_on_the_command_line_and_in_chat() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("thermal.csv");
    mkfifo(&fifo);
    let start = Instant::now();
    let out = Headroom::new(dir.path())
        .args(&["thermal", fifo.to_str().unwrap()])
        .run();
    assert_ne!(out.code, 0);
    assert!(out.stderr.contains("FIFO"), "{}", out.stderr);
    let data = tempfile::tempdir().unwrap();
    let out = Headroom::new(data.path())
        .stdin(&format!("is it throttling? {}\n", fifo.display()))
        .run()
        .ok();
    assert!(out.stdout.contains("FIFO"), "{}", out.stdout);
    // The remembered path does not hang a restart either.
    Headroom::new(data.path()).stdin("/status\n").run().ok();
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn deleting_the_lock_file_does_not_let_a_second_session_in() {
    let dir = tempfile::tempdir().unwrap();
    let mut first = Live::start(dir.path());
    first.say(RUN, dir.path(), 1);
    std::fs::remove_file(dir.path().join("lock")).unwrap();
    let second = Headroom::new(dir.path()).stdin("no\n").run();
    assert_ne!(second.code, 0);
    assert!(
        second.stderr.contains("another headroom session is using"),
        "{}",
        second.stderr
    );
    let (out, code) = first.finish();
    assert_eq!(code, 0);
    assert!(out.contains("Qwen2.5 7B LoRA"), "{out}");
    assert!(!transcript(dir.path()).contains("\"text\":\"no\""));
}

#[test]
fn a_transcript_replaced_by_an_editor_is_followed_and_said_once() {
    let dir = tempfile::tempdir().unwrap();
    let mut live = Live::start(dir.path());
    live.say(RUN, dir.path(), 1);
    // An editor saves by writing a new file and renaming it over the old.
    let path = dir.path().join("transcript.jsonl");
    let text = transcript(dir.path());
    let edited = dir.path().join("transcript.jsonl.swp");
    std::fs::write(&edited, &text).unwrap();
    std::fs::rename(&edited, &path).unwrap();
    live.say("make it batch 4", dir.path(), 2);
    live.say("and packing 2048", dir.path(), 3);
    let (out, _) = live.finish();
    assert_eq!(
        out.matches("The transcript was replaced").count(),
        1,
        "{out}"
    );
    let now = transcript(dir.path());
    assert!(
        now.contains("make it batch 4") && now.contains("and packing 2048"),
        "{now}"
    );
    let out = Headroom::new(dir.path()).stdin("/status\n").run().ok();
    assert!(out.stdout.contains("batch: 4"), "{}", out.stdout);
}

#[test]
fn a_whole_last_record_without_its_newline_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    Headroom::new(dir.path())
        .stdin(&format!("{RUN}\n"))
        .run()
        .ok();
    let path = dir.path().join("transcript.jsonl");
    let text = transcript(dir.path());
    std::fs::write(&path, text.trim_end_matches('\n')).unwrap();
    let out = Headroom::new(dir.path()).stdin("/status\n").run().ok();
    assert!(!out.stdout.contains("cut it back"), "{}", out.stdout);
    assert!(out.stdout.contains("model: Qwen2.5 7B"), "{}", out.stdout);
    let after = transcript(dir.path());
    assert!(after.starts_with(text.trim_end_matches('\n')));
    for line in after.lines() {
        serde_json::from_str::<serde_json::Value>(line).unwrap_or_else(|e| panic!("{e}: {line}"));
    }
}

/// A small tmpfs: the only honest way to fill a disk in a test.
struct SmallDisk(std::path::PathBuf);

impl SmallDisk {
    fn mount(kib: u32) -> Option<SmallDisk> {
        let at = tempfile::tempdir().unwrap().keep();
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={kib}k"), "tmpfs"])
            .arg(&at)
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        ok.then_some(SmallDisk(at))
    }

    /// The disk, or None where this machine cannot mount one (the test
    /// then says it skipped, and fails where CI requires tmpfs).
    fn mount_or_skip(kib: u32) -> Option<SmallDisk> {
        let disk = SmallDisk::mount(kib);
        available_or_skip(
            "tmpfs",
            disk.is_none(),
            "mounting a small tmpfs needs root (mount -t tmpfs)",
        )
        .then_some(disk)
        .flatten()
    }

    /// Fill what is left, bar nothing.
    fn fill(&self) {
        let mut f = std::fs::File::create(self.0.join("filler")).unwrap();
        let block = vec![0u8; 4096];
        while f.write_all(&block).is_ok() {}
        let _ = f.sync_all();
    }

    fn free(&self) {
        std::fs::remove_file(self.0.join("filler")).unwrap();
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
        let _ = std::fs::remove_dir(&self.0);
    }
}

#[test]
fn a_disk_that_fills_up_mid_session_costs_no_answer() {
    let Some(disk) = SmallDisk::mount_or_skip(1024) else {
        return;
    };
    let dir = disk.0.join("data");
    let mut live = Live::start(&dir);
    live.say(RUN, &dir, 1);
    disk.fill();
    live.say("make it batch 4", &dir, 2);
    live.say(&"x ".repeat(40_000), &dir, 2);
    disk.free();
    live.say("and packing 2048", &dir, 2);
    let (out, code) = live.finish();
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("This turn is not saved"), "{out}");
    // Every reply was shown, the one computed on the full disk included.
    assert!(
        out.contains("batch 2 → 4") || out.contains("batch 4"),
        "{out}"
    );
    assert!(out.contains("2048"), "{out}");
    // Never a torn record, and the turns after the space came back are kept.
    let text = transcript(&dir);
    for line in text.lines() {
        serde_json::from_str::<serde_json::Value>(line)
            .unwrap_or_else(|e| panic!("torn: {e}: {line}"));
    }
    assert!(text.ends_with('\n'));
    assert!(text.contains("and packing 2048"), "{text}");

    // A crash mid-write on a full disk: the torn tail cannot be repaired
    // (keeping the original needs space), so the start is read-only, not
    // refused, and nothing is appended after the torn record.
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(dir.join("transcript.jsonl"))
        .unwrap();
    f.write_all(b"{\"event\":\"owner\",\"te").unwrap();
    drop(f);
    disk.fill();
    let out = Command::new(BIN)
        .env("HEADROOM_DATA_DIR", &dir)
        .env("HEADROOM_NOW", "2026-11-29T11:00:00Z")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            c.stdin.take().unwrap().write_all(b"/status\n")?;
            c.wait_with_output()
        })
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("Read-only"), "{stdout}");
    assert!(stdout.contains("model: Qwen2.5 7B"), "{stdout}");
    assert!(transcript(&dir).ends_with("{\"event\":\"owner\",\"te"));
}

/// On replay, records are read like live input: what is derived (the last
/// plan's figures) is recomputed, and a reading dated in the future is
/// never fresh.
#[test]
fn a_forged_reply_or_a_future_reading_is_not_trusted_on_replay() {
    let dir = tempfile::tempdir().unwrap();
    Headroom::new(dir.path())
        .stdin(&format!("{RUN}\n"))
        .run()
        .ok();
    let forged = r#"{"event":"reply","at":"2026-11-29T10:00:01Z","session":"x","kind":"plan","text":"","commands":[],"facts":{"verdict":"fits","model":"Qwen2.5 7B","method":"lora","total_gb":184467440737095516.15,"verdict_budget_gb":0.0}}"#;
    let future_free = format!(
        r#"{{"event":"owner","at":"2027-06-01T00:00:00Z","session":"x","text":{}}}"#,
        serde_json::to_string(&crate::support::fixture("free-g-spark.txt")).unwrap()
    );
    let path = dir.path().join("transcript.jsonl");
    let mut text = transcript(dir.path());
    text.push_str(&format!("{forged}\n{future_free}\n"));
    std::fs::write(&path, text).unwrap();
    let out = Headroom::new(dir.path())
        .at("2026-11-29T11:00:00Z")
        .stdin("will it fit?\n")
        .run()
        .ok();
    assert!(!out.stdout.contains("184467440737095516"), "{}", out.stdout);
    assert!(!out.stdout.contains("of 0.00 GB"), "{}", out.stdout);
    assert!(out.stdout.contains("after now"), "{}", out.stdout);
}

/// `headroom thermal` refuses what is not a regular file by its kind, with
/// what to give instead, and exits 2 (bad input), as `plan` does; a single
/// line far too long for a sample is skipped, not a reason to refuse.
#[test]
fn thermal_input_that_is_not_a_file_exits_2_and_a_junk_line_is_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("samples.csv");
    mkfifo(&fifo);
    let looped = dir.path().join("loop.csv");
    std::os::unix::fs::symlink(&looped, &looped).unwrap();
    for (path, why) in [
        (fifo.display().to_string(), "FIFO"),
        ("/dev/zero".into(), "device"),
        (dir.path().display().to_string(), "directory"),
        (looped.display().to_string(), "loops"),
    ] {
        let out = Headroom::new(dir.path()).args(&["thermal", &path]).run();
        assert_eq!(out.code, 2, "{path}: {}", out.stderr);
        assert!(out.stderr.contains(why), "{path}: {}", out.stderr);
    }
    let good = crate::support::fixture("thermal/cap-plateau.csv");
    let mut lines: Vec<String> = good.lines().map(String::from).collect();
    lines.insert(lines.len() / 2, "x".repeat(70_000));
    let junk = dir.path().join("junk.csv");
    std::fs::write(&junk, lines.join("\n")).unwrap();
    let out = Headroom::new(dir.path())
        .args(&["thermal", junk.to_str().unwrap()])
        .run();
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("power cap only"), "{}", out.stdout);
}

/// The second held-out fault set's classes: a proposal an OOM report sets
/// aside is said so; a pid listed twice is not judged; a negative `--need`
/// is named; a procs input error exits 2.
#[test]
fn a_set_aside_stop_a_doubled_pid_and_a_negative_need_are_each_said() {
    let dir = tempfile::tempdir().unwrap();
    let vllm = "alice   4242  3.1 12.0 98765432 15000000 ?   Sl   09:01   1:23 /usr/bin/python3 -m vllm.entrypoints.openai.api_server --model meta-llama/Llama-3.1-8B-Instruct --gpu-memory-utilization 0.9";
    let out = Headroom::new(dir.path())
        .stdin(&format!(
            "full fine-tune llama 3.1 8b bf16 batch 4 packing 4096\n\n{vllm}\n\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\nyes\n"
        ))
        .run()
        .ok();
    assert!(
        out.stdout
            .contains("Set aside, not done: stop vLLM server (pid 4242)"),
        "{}",
        out.stdout
    );
    assert!(!out.stdout.contains("kill 4242"), "{}", out.stdout);
    let dir = tempfile::tempdir().unwrap();
    let twice = format!("{vllm}\n{vllm}\n");
    let out = Headroom::new(dir.path())
        .args(&["procs", "-", "--json"])
        .stdin(&twice)
        .run()
        .ok();
    assert_eq!(out.json()["processes"][0]["recommendation"], "not judged");
    for need in ["-1", "nan", "inf"] {
        let out = Headroom::new(dir.path())
            .args(&["procs", "-", "--need", need])
            .stdin(&twice)
            .run();
        assert_eq!(out.code, 2, "{need}");
        assert!(out.stderr.contains("--need"), "{need}: {}", out.stderr);
    }
}

#[test]
fn a_read_only_filesystem_starts_a_read_only_session_that_still_answers() {
    let Some(disk) = SmallDisk::mount_or_skip(256) else {
        return;
    };
    let dir = disk.0.join("data");
    // A session before, so there is a transcript to replay.
    let first = Command::new(BIN)
        .env("HEADROOM_DATA_DIR", &dir)
        .env("HEADROOM_NOW", "2026-11-29T10:00:00Z")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            c.stdin.take().unwrap().write_all(RUN.as_bytes())?;
            c.wait_with_output()
        })
        .unwrap();
    assert!(first.status.success());
    let remount = Command::new("mount")
        .args(["-o", "remount,ro"])
        .arg(&disk.0)
        .status()
        .unwrap();
    assert!(remount.success());
    for turns in ["will it fit?\n", "what if batch 4\n"] {
        let out = Command::new(BIN)
            .env("HEADROOM_DATA_DIR", &dir)
            .env("HEADROOM_NOW", "2026-11-29T11:00:00Z")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .and_then(|mut c| {
                c.stdin.take().unwrap().write_all(turns.as_bytes())?;
                c.wait_with_output()
            })
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            stdout.contains("(Read-only: the transcript cannot be written"),
            "{stdout}"
        );
        // The run from before is replayed and answered against.
        assert!(stdout.contains("Qwen2.5 7B LoRA"), "{stdout}");
        assert!(stdout.contains("peak"), "{stdout}");
    }
}

#[test]
fn a_fifo_where_the_lock_file_goes_neither_hangs_nor_stops_the_session() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir(&data).unwrap();
    let made = Command::new("mkfifo")
        .arg(data.join("lock"))
        .status()
        .unwrap();
    assert!(made.success());
    let started = std::time::Instant::now();
    let ran = crate::support::Headroom::new(&data).stdin(RUN).run();
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
    let out = ran.ok().stdout;
    assert!(out.contains("Qwen2.5 7B LoRA"), "{out}");
    // The FIFO is left as it was.
    use std::os::unix::fs::FileTypeExt;
    assert!(
        std::fs::symlink_metadata(data.join("lock"))
            .unwrap()
            .file_type()
            .is_fifo()
    );
}

/// A FIFO put in place of `transcript.jsonl` mid-session: the next turn is
/// answered at once and said not saved; the session never blocks on it
/// (fault set 13, s29).
#[test]
fn a_transcript_turned_fifo_mid_session_never_blocks_a_turn() {
    let dir = tempfile::tempdir().unwrap();
    let mut live = Live::start(dir.path());
    live.say(RUN, dir.path(), 1);
    let path = dir.path().join("transcript.jsonl");
    std::fs::remove_file(&path).unwrap();
    mkfifo(&path);
    // The test must not read the FIFO itself: the turn is sent and stdin
    // closed, and the session has to end on its own.
    let start = Instant::now();
    let stdin = live.stdin.as_mut().unwrap();
    stdin.write_all(b"packing 2048\n\n").unwrap();
    stdin.flush().unwrap();
    // A session blocked on the FIFO is killed after 10 s and fails here.
    drop(live.stdin.take());
    while live.child.try_wait().unwrap().is_none() && start.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = live.child.kill();
    let (out, code) = live.finish();
    assert!(start.elapsed() < Duration::from_secs(10), "blocked: {out}");
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("pack 1024 → 2048"), "{out}");
    assert!(out.contains("This turn is not saved"), "{out}");
}
