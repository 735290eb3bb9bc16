//! headroom never runs a command: the product's code must not be able to
//! start a process. This scans every source file of the product.

use crate::support::repo;

const FORBIDDEN: &[&str] = &[
    "process::Command",
    "Command::new",
    ".spawn(",
    "process::exec",
    "CommandExt",
    "libc::fork",
    "libc::exec",
    "nix::unistd::fork",
    "posix_spawn",
    "execvp",
];

fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn the_product_code_never_spawns_a_process() {
    let mut files = Vec::new();
    rust_files(&repo().join("src"), &mut files);
    assert!(files.len() > 20, "scanned only {} files", files.len());
    let mut hits = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for (n, line) in text.lines().enumerate() {
            for pattern in FORBIDDEN {
                if line.contains(pattern) {
                    hits.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        hits.is_empty(),
        "process spawning in src/:\n{}",
        hits.join("\n")
    );
}

#[test]
fn the_scan_would_catch_a_spawn() {
    let sample = "let _ = std::process::Command::new(\"sh\").spawn();";
    assert!(FORBIDDEN.iter().any(|p| sample.contains(p)));
}
