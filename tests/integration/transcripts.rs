//! Replays every example conversation in `transcripts/` through the binary.
//!
//! Each file holds one or more sessions over the same data directory; each
//! session is the owner's turns and the exact output headroom must print.
//! Run with `HEADROOM_BLESS=1` to rewrite the expected output after an
//! intended change, then read the diff before committing it.

use crate::support::{Headroom, repo};

const FENCE: &str = "````";

#[derive(Debug)]
struct Session {
    at: String,
    turns: Vec<String>,
    expected: String,
    /// Byte range of the expected block in the file, for blessing.
    expected_span: (usize, usize),
}

fn fenced_after(text: &str, from: usize) -> (String, usize, usize) {
    let open = text[from..]
        .find(FENCE)
        .map(|i| from + i)
        .expect("a ```` fence");
    let body_start = text[open..]
        .find('\n')
        .map(|i| open + i + 1)
        .expect("fence line");
    // An empty block closes at once; otherwise at the next fence line.
    let close = if text[body_start..].starts_with(FENCE) {
        body_start
    } else {
        text[body_start..]
            .find(&format!("\n{FENCE}"))
            .map(|i| body_start + i + 1)
            .expect("unclosed ```` fence")
    };
    (text[body_start..close].to_string(), body_start, close)
}

fn parse(text: &str) -> Vec<Session> {
    let mut sessions: Vec<Session> = Vec::new();
    let mut pos = 0;
    while pos < text.len() {
        let line_end = text[pos..].find('\n').map_or(text.len(), |i| pos + i);
        let line = &text[pos..line_end];
        if let Some(at) = line.strip_prefix("## session at ") {
            sessions.push(Session {
                at: at.trim().to_string(),
                turns: Vec::new(),
                expected: String::new(),
                expected_span: (0, 0),
            });
        } else if line.trim() == "### owner" || line.trim() == "### headroom" {
            let (body, start, end) = fenced_after(text, line_end);
            let session = sessions.last_mut().expect("a ## session heading first");
            if line.trim() == "### owner" {
                let turn = body.trim_end_matches('\n').to_string();
                assert!(
                    !turn.lines().any(|l| l.trim().is_empty()),
                    "an owner turn cannot hold a blank line (blank lines separate turns):\n{turn}"
                );
                session.turns.push(turn);
            } else {
                session.expected = body;
                session.expected_span = (start, end);
            }
            pos = end + FENCE.len();
            continue;
        }
        pos = line_end + 1;
    }
    sessions
}

#[test]
fn every_example_transcript_replays_exactly() {
    let dir = repo().join("transcripts");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("transcripts/ exists")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 5,
        "want at least five example transcripts, found {}",
        files.len()
    );
    let bless = std::env::var_os("HEADROOM_BLESS").is_some();
    let mut failures = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("readable transcript");
        let sessions = parse(&text);
        assert!(!sessions.is_empty(), "{} has no sessions", file.display());
        let data = tempfile::tempdir().expect("temp dir");
        let mut blessed = text.clone();
        // Replace from the end so earlier spans stay valid.
        let mut replacements = Vec::new();
        for (i, s) in sessions.iter().enumerate() {
            let stdin = s.turns.join("\n\n") + "\n";
            let ran = Headroom::new(data.path())
                .at(&s.at)
                .stdin(&stdin)
                .run()
                .ok();
            // Absolute paths name the checkout, wherever it was cloned.
            let root = format!("{}/", repo().display());
            let stdout = ran.stdout.replace(&root, "$REPO/");
            if stdout != s.expected {
                if bless {
                    replacements.push((s.expected_span, stdout.clone()));
                } else {
                    failures.push(format!(
                        "{} session {}:\n~~~ expected\n{}~~~ got\n{}~~~",
                        file.display(),
                        i + 1,
                        s.expected,
                        stdout
                    ));
                }
            }
        }
        if bless && !replacements.is_empty() {
            for ((start, end), out) in replacements.into_iter().rev() {
                blessed.replace_range(start..end, &out);
            }
            std::fs::write(file, blessed).expect("write blessed transcript");
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
