//! Every real paste in tests/fixtures/real/ (harvested from public threads,
//! sources in its SOURCES.md), each inside a short conversation: the paste,
//! then "so?". Nothing dead-ends, no run setting comes from a paste that is
//! not a trainer configuration, and the pastes headroom cannot read yet are
//! exactly the ones listed in UNREAD.txt (a ratchet: reading one more fails
//! the test until the list is shortened).

use crate::support::{Headroom, repo};
use std::path::PathBuf;

fn corpus() -> Vec<PathBuf> {
    let root = repo().join("tests/fixtures/real");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .flat_map(|kind| {
            std::fs::read_dir(kind.unwrap().path())
                .into_iter()
                .flatten()
        })
        .map(|f| f.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    files
}

/// The paste as one piped turn (piped mode ends a turn at a blank line),
/// then the follow-up.
fn converse(path: &PathBuf) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let paste: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let data = tempfile::tempdir().unwrap();
    Headroom::new(data.path())
        .stdin(&format!("{}\n\nso?\n", paste.join("\n")))
        .run()
        .ok()
        .stdout
}

fn name(path: &std::path::Path) -> String {
    let kind = path
        .parent()
        .unwrap()
        .file_name()
        .unwrap()
        .to_string_lossy();
    format!("{kind}/{}", path.file_name().unwrap().to_string_lossy())
}

/// A run setting in a "Noted:" line (the memory reading is not one).
static SETTING: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(r"(?:Noted: |, )(?:model|method|dtype|batch|pack|rank|optimizer|framework|checkpointing|targets|dropout|precision|attention|loss|nodes|sharding|eval|resume|loader|prequantized) ").unwrap()
});

#[test]
fn the_corpus_is_large_and_sourced() {
    let files = corpus();
    assert!(files.len() >= 120, "{} real pastes", files.len());
    let sources = std::fs::read_to_string(repo().join("tests/fixtures/real/SOURCES.md")).unwrap();
    for f in &files {
        let file = name(f);
        assert!(
            sources.contains(&format!("`{file}`")),
            "{file} has no source row"
        );
    }
}

#[test]
fn every_real_paste_is_read_or_said_unread_and_never_dead_ends() {
    let listed: Vec<String> =
        std::fs::read_to_string(repo().join("tests/fixtures/real/UNREAD.txt"))
            .unwrap()
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(String::from)
            .collect();
    let mut failures = Vec::new();
    let mut unread = Vec::new();
    for path in corpus() {
        let file = name(&path);
        let out = converse(&path);
        if out.contains("found no run setting") {
            failures.push(format!("{file}: dead end"));
        }
        let config = file.starts_with("config/");
        for line in out.lines().filter(|l| l.starts_with("Noted: ")) {
            if !config && let Some(m) = SETTING.find(line) {
                failures.push(format!("{file}: {} from a paste: {line}", m.as_str()));
            }
        }
        if out.contains("I do not read the paste") || out.contains("but I could not read it") {
            unread.push(file.clone());
        }
    }
    for f in &unread {
        if !listed.contains(f) {
            failures.push(format!("{f}: not read, and not in UNREAD.txt"));
        }
    }
    for f in &listed {
        if !unread.contains(f) {
            failures.push(format!("{f}: read now: take it off UNREAD.txt"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
