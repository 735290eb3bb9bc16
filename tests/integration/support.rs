//! A small builder that runs the real `headroom` binary, isolated in its own
//! data directory, with a fixed clock.

use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub const BIN: &str = env!("CARGO_BIN_EXE_headroom");

pub struct Headroom {
    args: Vec<String>,
    envs: Vec<(String, String)>,
    stdin: Vec<u8>,
    data_dir: PathBuf,
    cwd: Option<PathBuf>,
}

pub struct Ran {
    pub stdout: String,
    pub stderr: String,
    pub code: i32,
}

impl Headroom {
    pub fn new(data_dir: &Path) -> Headroom {
        // As headroom makes its own (0700): a temp dir under umask 022 is
        // 0755, which the greeting would point out in every test.
        if let Ok(meta) = std::fs::metadata(data_dir)
            && meta.is_dir()
            && meta.permissions().mode() & 0o077 == 0o055
        {
            let _ = std::fs::set_permissions(data_dir, std::fs::Permissions::from_mode(0o700));
        }
        Headroom {
            args: Vec::new(),
            envs: vec![("HEADROOM_NOW".into(), "2026-11-29T10:00:00Z".into())],
            stdin: Vec::new(),
            data_dir: data_dir.to_path_buf(),
            cwd: None,
        }
    }

    pub fn args(mut self, args: &[&str]) -> Headroom {
        self.args.extend(args.iter().map(|a| a.to_string()));
        self
    }

    pub fn env(mut self, key: &str, value: &str) -> Headroom {
        self.envs.retain(|(k, _)| k != key);
        self.envs.push((key.into(), value.into()));
        self
    }

    pub fn at(self, timestamp: &str) -> Headroom {
        self.env("HEADROOM_NOW", timestamp)
    }

    pub fn stdin(mut self, text: &str) -> Headroom {
        self.stdin = text.as_bytes().to_vec();
        self
    }

    /// Raw bytes on stdin (for input that is not UTF-8).
    pub fn stdin_bytes(mut self, bytes: &[u8]) -> Headroom {
        self.stdin = bytes.to_vec();
        self
    }

    pub fn cwd(mut self, dir: &Path) -> Headroom {
        self.cwd = Some(dir.to_path_buf());
        self
    }

    pub fn run(self) -> Ran {
        let mut cmd = Command::new(BIN);
        cmd.args(&self.args)
            .env("HEADROOM_DATA_DIR", &self.data_dir)
            .env_remove("NO_COLOR")
            .env_remove("COLUMNS")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for (k, v) in &self.envs {
            cmd.env(k, v);
        }
        if let Some(dir) = &self.cwd {
            cmd.current_dir(dir);
        }
        let mut child = cmd.spawn().expect("headroom runs");
        let mut stdin = child.stdin.take().expect("stdin is piped");
        let input = self.stdin.clone();
        // Write from a thread so a large reply cannot deadlock the pipe.
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(&input);
        });
        let out = child.wait_with_output().expect("headroom finishes");
        writer.join().expect("stdin writer");
        Ran {
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            code: out.status.code().unwrap_or(-1),
        }
    }
}

impl Ran {
    #[track_caller]
    /// `headroom plan` answered (0 fits, 1 does not fit), whatever the verdict.
    pub fn answered(self) -> Ran {
        assert!(
            matches!(self.code, 0 | 1),
            "exit {}\nstderr:\n{}",
            self.code,
            self.stderr
        );
        self
    }

    /// `headroom plan` said "does not fit" (exit 1), with its answer printed.
    pub fn does_not_fit(self) -> Ran {
        assert_eq!(
            self.code, 1,
            "stdout:\n{}\nstderr:\n{}",
            self.stdout, self.stderr
        );
        self
    }

    pub fn ok(self) -> Ran {
        assert_eq!(
            self.code, 0,
            "headroom exited {}\nstdout:\n{}\nstderr:\n{}",
            self.code, self.stdout, self.stderr
        );
        self
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("not JSON ({e}):\n{}", self.stdout))
    }
}

/// The repository's root, for reading `transcripts/` and fixtures.
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn fixture(name: &str) -> String {
    std::fs::read_to_string(repo().join("tests/fixtures").join(name))
        .unwrap_or_else(|e| panic!("fixture {name}: {e}"))
}

/// What a test does when a tool or server it needs is missing: under
/// `.ci/run` (which sets `HEADROOM_CI_REQUIRES` to the names it installed)
/// the test fails; elsewhere it says "skipped: …" where cargo test shows
/// it (straight to stderr, past the output capture) and returns false.
#[track_caller]
pub fn available_or_skip(name: &str, missing: bool, why: &str) -> bool {
    if !missing {
        return true;
    }
    let required = std::env::var("HEADROOM_CI_REQUIRES").unwrap_or_default();
    assert!(
        !required.split_whitespace().any(|r| r == name),
        "{name} is required here (HEADROOM_CI_REQUIRES={required}) but missing: {why}"
    );
    let _ = writeln!(std::io::stderr(), "skipped: {name}: {why}");
    false
}

/// One piped conversation on a fresh data folder: what headroom printed.
pub fn converse(text: &str) -> String {
    let data = tempfile::tempdir().unwrap();
    Headroom::new(data.path()).stdin(text).run().ok().stdout
}

/// The output from the last occurrence of `marker` on: the reply that
/// carries it.
pub fn from_last(out: &str, marker: &str) -> String {
    let out = out.trim_end();
    out[out
        .rfind(marker)
        .unwrap_or_else(|| panic!("no {marker:?} in {out}"))..]
        .to_string()
}
