//! The REPL in a real pseudo-terminal: what only a TTY shows.

use crate::support::{BIN, fixture};
use rexpect::process::WaitStatus;
use rexpect::session::{PtySession, spawn_command};
use std::process::Command;

const PROMPT: &str = "headroom> ";

fn start(data: &std::path::Path) -> PtySession {
    let mut cmd = Command::new(BIN);
    cmd.env("HEADROOM_DATA_DIR", data)
        .env("HEADROOM_NOW", "2026-11-29T10:00:00Z")
        .env("TERM", "xterm")
        .env("NO_COLOR", "1");
    let mut p = spawn_command(cmd, Some(10_000)).expect("spawn in a pty");
    p.exp_string(PROMPT).expect("first prompt");
    p
}

#[test]
fn bracketed_paste_is_one_turn_ctrl_c_keeps_the_session_ctrl_d_exits_0() {
    let data = tempfile::tempdir().unwrap();
    let mut p = start(data.path());

    // The three lines of `free -g`, pasted as one bracketed paste.
    let paste = fixture("free-g-spark.txt").trim_end().replace('\n', "\r");
    p.send(&format!("\x1b[200~{paste}\x1b[201~")).unwrap();
    p.flush().unwrap();
    p.send("\r").unwrap();
    p.flush().unwrap();
    p.exp_string("Noted: your `free` output (available 115).")
        .expect("the paste was read as one free -g turn");
    p.exp_string(PROMPT).unwrap();

    // Ctrl-C at the prompt abandons the line, not the session.
    p.send("half a line").unwrap();
    p.flush().unwrap();
    p.send_control('c').unwrap();
    p.exp_string("line abandoned").unwrap();
    p.exp_string(PROMPT).unwrap();
    p.send_line("QLoRA on Llama 3.1 70B, batch 1, packing 2048")
        .unwrap();
    p.exp_string("Verdict: fits.")
        .expect("the session continued after Ctrl-C");
    p.exp_string(PROMPT).unwrap();

    // Ctrl-D leaves cleanly.
    p.send_control('d').unwrap();
    p.exp_eof().unwrap();
    match p.process_mut().wait().unwrap() {
        WaitStatus::Exited(_, code) => assert_eq!(code, 0),
        other => panic!("headroom did not exit cleanly: {other:?}"),
    }

    // The paste is one owner event in the transcript.
    let text = std::fs::read_to_string(data.path().join("transcript.jsonl")).unwrap();
    let owners: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("\"event\":\"owner\""))
        .collect();
    assert_eq!(owners.len(), 2, "{text}");
    assert!(owners[0].contains("Mem:") && owners[0].contains("Swap:"));
}

#[test]
fn free_output_typed_without_bracketed_paste_continues_until_swap() {
    let data = tempfile::tempdir().unwrap();
    let mut p = start(data.path());
    for line in fixture("free-g-spark.txt").lines() {
        p.send_line(line).unwrap();
    }
    p.exp_string("Noted: your `free` output (available 115).")
        .unwrap();
    p.exp_string(PROMPT).unwrap();
    p.send_line("/quit").unwrap();
    p.exp_eof().unwrap();
}

/// Regression: a paste on a terminal without bracketed paste arrives as one
/// write of several lines; every line must reach the dialogue (rustyline's
/// read buffer is kept between prompts).
#[test]
fn several_lines_in_one_write_all_reach_the_dialogue() {
    let data = tempfile::tempdir().unwrap();
    let mut p = start(data.path());
    p.send("LoRA on Qwen2.5 7B\rbatch 2\rpacking 1024, bf16\r")
        .unwrap();
    p.flush().unwrap();
    p.exp_string("Qwen2.5 7B LoRA: peak")
        .expect("the third line completed the run");
    p.exp_string(PROMPT).unwrap();
    p.send_line("/quit").unwrap();
    p.exp_eof().unwrap();
    let text = std::fs::read_to_string(data.path().join("transcript.jsonl")).unwrap();
    let owners = text
        .lines()
        .filter(|l| l.contains("\"event\":\"owner\""))
        .count();
    assert_eq!(owners, 3, "{text}");
}
