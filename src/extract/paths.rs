//! File paths the owner types: absolute, relative, `~/`, or a bare file
//! name with a log or data extension. A Hugging Face id (`org/model`) is
//! not a path, and neither is a URL.

use crate::extract::reading::{ReadProblem, Reader, Reading};

const EXTENSIONS: [&str; 9] = [
    ".csv", ".log", ".txt", ".out", ".jsonl", ".json", ".yaml", ".yml", ".err",
];
/// Words that may stand beside paths in a turn that is only paths.
const GLUE: [&str; 8] = ["and", "here", "here:", "the", "log", "logs", "files", "&"];

fn trimmed(token: &str) -> &str {
    token
        .trim_matches(|c: char| matches!(c, '`' | '"' | '\'' | '(' | ')' | '<' | '>'))
        .trim_end_matches(['.', ',', ';', ':', '?', '!'])
}

/// Is this one token a file path?
pub fn is_path(token: &str) -> bool {
    let t = trimmed(token);
    if t.len() < 2 || t.contains("://") || t.chars().any(char::is_control) {
        return false;
    }
    let rooted =
        t.starts_with('/') && t.len() > 1 && t[1..].contains(|c: char| c.is_alphanumeric());
    let relative = t.starts_with("~/") || t.starts_with("./") || t.starts_with("../");
    let named = EXTENSIONS
        .iter()
        .any(|e| t.to_ascii_lowercase().ends_with(e) && t.len() > e.len())
        && !t.contains(' ');
    // `10/1000` is a progress count, not a path.
    let fraction = t.split('/').all(|p| p.chars().all(|c| c.is_ascii_digit()));
    (rooted || relative || named) && !fraction
}

/// Every path in the text, in order.
pub fn paths_in(text: &str) -> Vec<String> {
    text.split_whitespace()
        .filter(|t| is_path(t))
        .map(|t| trimmed(t).to_string())
        .collect()
}

/// Kernel and device trees: a sentence names them for a command ("echo 3 >
/// /proc/sys/vm/drop_caches"), never as a file to read here.
const SYSTEM_TREES: [&str; 4] = ["/proc/", "/sys/", "/dev/", "/run/"];

/// Nouns that label the path after them as a file to read ("samples:
/// /tmp/x/t.fifo", "train log: /tmp/x/out", "sampler log in ~/runs/t"):
/// the owner named its role, so it is opened, and refused by name if it
/// is not a regular file.
const ROLES: [&str; 12] = [
    "samples", "sample", "sampler", "thermal", "thermals", "log", "logs", "file", "files", "csv",
    "data", "output",
];
/// Words between a role and its path ("samples in X", "log is at X").
const ROLE_LINKS: [&str; 5] = ["in", "at", "is", "=", "are"];

fn bare_word(token: &str) -> String {
    token
        .trim_matches(|c: char| !c.is_alphanumeric() && c != '=')
        .to_ascii_lowercase()
}

/// The paths in the owner's sentence that name a file for headroom to read:
/// a log or data file by its extension, a path labelled by its role
/// ("samples: /tmp/x/t"), the paths listed beside one ("… /tmp/x/samples
/// and /tmp/x/train.log": a list of files, so the one without an extension
/// is a file too, refused by name if it is not one), or every path when the
/// turn is only paths. A program (`/usr/local/bin/python`), a kernel knob
/// or a device named in passing is not one.
pub fn files_named(text: &str) -> Vec<String> {
    let whole = only_paths(text);
    let data = |p: &str| {
        let lower = p.to_ascii_lowercase();
        EXTENSIONS.iter().any(|e| lower.ends_with(e))
    };
    // Runs of path tokens joined by nothing or by "and"; each path with
    // whether a role word labels it.
    let mut runs: Vec<Vec<(String, bool)>> = vec![Vec::new()];
    let mut words: Vec<String> = Vec::new();
    for token in text.split_whitespace() {
        if is_path(token) {
            // The role, past at most two linking words ("log is at X").
            let labelled = words
                .iter()
                .rev()
                .take(3)
                .find(|w| !ROLE_LINKS.contains(&w.as_str()))
                .is_some_and(|w| ROLES.contains(&w.as_str()));
            runs.last_mut()
                .expect("one run")
                .push((trimmed(token).to_string(), labelled));
            words.clear();
            continue;
        }
        let word = bare_word(token);
        if !matches!(word.as_str(), "and" | "") && !runs.last().is_some_and(Vec::is_empty) {
            runs.push(Vec::new());
        }
        words.push(word);
    }
    runs.into_iter()
        .flat_map(|run| {
            let listed = run.len() > 1 && run.iter().any(|(p, _)| data(p));
            run.into_iter().filter_map(move |(p, labelled)| {
                let system = SYSTEM_TREES.iter().any(|t| p.starts_with(t));
                // Listed beside a log, or alone in the turn, a device is
                // named as data (and refused by name); a kernel knob never.
                let knob = p.starts_with("/proc/") || p.starts_with("/sys/");
                let named = (labelled || listed) && !program_or_secret(&p)
                    || !system && (whole || data(&p))
                    || whole && !knob;
                named.then_some(p)
            })
        })
        .collect()
}

/// A program (`/usr/bin/python3`), a hidden file or a key store
/// (`~/.ssh/id_rsa`): never opened for being listed beside a log. A data
/// file inside a hidden working folder (`/tmp/.run/t.fifo`) is not hidden.
fn program_or_secret(p: &str) -> bool {
    let name = p.rsplit('/').next().unwrap_or(p);
    ["/usr/", "/bin/", "/sbin/"]
        .iter()
        .any(|d| p.starts_with(d))
        || p.contains("/bin/")
        || name.starts_with('.')
        || ["/.ssh/", "/.gnupg/", "/.aws/", "/.kube/", "/.docker/"]
            .iter()
            .any(|d| p.contains(d))
}

/// True when the turn is paths and nothing else worth reading.
pub fn only_paths(text: &str) -> bool {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    !tokens.is_empty()
        && tokens.iter().any(|t| is_path(t))
        && tokens
            .iter()
            .all(|t| is_path(t) || GLUE.contains(&t.to_ascii_lowercase().as_str()))
}

#[cfg(test)]
mod listed_tests {
    #[test]
    fn a_path_listed_beside_a_log_is_a_file_unless_a_program_or_hidden() {
        assert_eq!(
            super::files_named("is it throttling? /tmp/x/samples /tmp/x/train.log"),
            vec!["/tmp/x/samples", "/tmp/x/train.log"]
        );
        assert_eq!(
            super::files_named("check thermals: /tmp/x/thermal.fifo and /tmp/x/train.log"),
            vec!["/tmp/x/thermal.fifo", "/tmp/x/train.log"]
        );
        assert_eq!(
            super::files_named("ran /usr/bin/python3 ~/.ssh/id_rsa /tmp/x/train.log"),
            vec!["/tmp/x/train.log"]
        );
    }
}

/// The registry's reader for a turn that is only file paths.
pub struct TypedPaths;

impl Reader for TypedPaths {
    fn kind(&self) -> &'static str {
        "file paths"
    }
    fn claims(&self, text: &str) -> bool {
        text.lines().filter(|l| !l.trim().is_empty()).count() <= 4 && only_paths(text)
    }
    fn read(&self, text: &str) -> Result<Reading, ReadProblem> {
        Ok(Reading::Paths(paths_in(text)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_of_every_kind() {
        for p in [
            "/home/owner/runs/sft-0412/thermal.log",
            "~/runs/train.log",
            "./thermal.csv",
            "../logs/out.txt",
            "train.log",
            "runs/a/thermal.csv,",
        ] {
            assert!(is_path(p), "{p}");
        }
    }

    #[test]
    fn ids_urls_counts_and_commands_are_not_paths() {
        for p in [
            "google/gemma-2-9b-it",
            "unsloth/Meta-Llama-3.1-70B-bnb-4bit",
            "https://example.com/a.log",
            "10/1000",
            "/",
            "batch",
        ] {
            assert!(!is_path(p), "{p}");
        }
    }

    #[test]
    fn files_named_in_a_sentence() {
        assert!(
            files_named("I already did sync + echo 3 > /proc/sys/vm/drop_caches as root")
                .is_empty()
        );
        assert!(files_named("it runs /usr/local/bin/python from the venv").is_empty());
        assert!(files_named("the sampler wrote to /dev/shm/t.csv").is_empty());
        assert_eq!(
            files_named("the log is at ~/runs/sft/train.log and samples in thermal.csv"),
            vec!["~/runs/sft/train.log", "thermal.csv"]
        );
        // A role word labels the path after it as a file, extension or not,
        // even in a device tree (it is then refused by name).
        assert_eq!(
            files_named("thermal samples: /tmp/x/adir train log: /tmp/x/out"),
            vec!["/tmp/x/adir", "/tmp/x/out"]
        );
        assert_eq!(
            files_named("is it throttling? samples in /dev/zero, log ~/runs/t"),
            vec!["/dev/zero", "~/runs/t"]
        );
        // A device listed beside a log, or alone, is named as data.
        assert_eq!(
            files_named("is the slowdown thermal? /dev/zero and /tmp/x/train.log"),
            vec!["/dev/zero", "/tmp/x/train.log"]
        );
        assert_eq!(files_named("/dev/zero"), vec!["/dev/zero"]);
        assert!(files_named("/proc/sys/vm/drop_caches").is_empty());
        assert_eq!(
            files_named("the sampler log is at /home/me/t and it is slow"),
            vec!["/home/me/t"]
        );
        // Not labelled: a place the owner worked in, a knob, a program.
        assert!(files_named("I ran it from /home/me/project and it slowed").is_empty());
        assert!(files_named("log output goes via /usr/local/bin/tee").is_empty());
        assert!(files_named("log file: ~/.ssh/id_rsa").is_empty());
        assert_eq!(
            files_named("samples: /tmp/.run/t.fifo"),
            vec!["/tmp/.run/t.fifo"]
        );
        // A turn that is only a path is a file to read, extension or not.
        assert_eq!(files_named("/home/me/runs/out"), vec!["/home/me/runs/out"]);
    }

    #[test]
    fn a_turn_of_paths_and_a_turn_of_words() {
        assert!(only_paths("/home/owner/runs/sft-0412/train.log"));
        assert!(only_paths("train.log and thermal.csv"));
        assert!(!only_paths(
            "my log is at ~/runs/train.log, is it throttling?"
        ));
        assert_eq!(
            paths_in("my log is at ~/runs/train.log, is it throttling?"),
            vec!["~/runs/train.log"]
        );
    }
}
