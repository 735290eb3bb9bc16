//! Reads pasted `ps aux` (or `ps -ef`, `pgrep -fa`) lines into the processes
//! that share the pool: inference servers with their caps, trainers, and
//! lines it does not recognise (listed as unknown, never guessed).

pub use crate::readings::process::{Process, ProcessKind};

use crate::extract::re;
use regex::Regex;
use std::sync::LazyLock;

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PsError {
    #[error("no process lines in what you pasted")]
    NoLines,
    #[error(
        "the PID column holds {0}, which {1} (pids are whole numbers above 0), so I judge none of these lines"
    )]
    BadPids(String, &'static str),
}

impl PsError {
    pub fn hint(&self) -> &'static str {
        "Run `ps aux | grep -E 'vllm|ollama|trl|axolotl' | grep -v grep` on the Spark and paste every line it prints (nothing printed means none of them is running)."
    }
}

/// ps aux: USER PID %CPU %MEM VSZ RSS TTY STAT START TIME COMMAND.
static PS_AUX: LazyLock<Regex> = LazyLock::new(|| {
    re(r"^\S+\s+(\d+)\s+[\d.]+\s+[\d.]+\s+(\d+)\s+(\d+)\s+\S+\s+\S+\s+\S+\s+\S+\s+(.+)$")
});
/// A `ps aux` line whose PID is not a process id ("-1", "12a"): the shape
/// says it is a listing, the value says it is damaged.
static PS_AUX_BAD_PID: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^\S+\s+(-\d+|\d*[^\d\s.]\S*|\d+[^\d\s]\S*)\s+[\d.]+\s+[\d.]+\s+\d+\s+\d+\s+\S+\s+\S+\s+\S+\s+\S+\s+.+$",
    )
});
/// ps -ef: UID PID PPID C STIME TTY TIME CMD.
static PS_EF: LazyLock<Regex> =
    LazyLock::new(|| re(r"^\S+\s+(\d+)\s+\d+\s+\d+\s+\S+\s+\S+\s+\d[\d:.-]*\s+(.+)$"));
/// pgrep -fa: PID CMD.
/// pgrep -fa: PID CMD, where CMD starts with a path or a known program (so
/// "2 sparks with fsdp" is not read as a process).
static PGREP: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(\d{2,})\s+((?:/\S+|python\S*|ollama|vllm|llama-server|torchrun|accelerate|VLLM::\S+)(?:\s.*)?)$",
    )
});
static UTILIZATION: LazyLock<Regex> =
    LazyLock::new(|| re(r"--gpu[-_]memory[-_]utilization(?:=|\s+)([0-9]*\.?[0-9]+)"));
static TRAINER: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)(\btrl\b|accelerate\s+launch|\btorchrun\b|axolotl|unsloth|\bsft\b|train[\w-]*\.py|finetune[\w-]*\.py|tune\s+run)",
    )
});

/// vLLM's server by any of its launchers and forks: `vllm serve`,
/// `python -m vllm.entrypoints…`, `vllm_omni.entrypoints.cli.main serve`.
static VLLM_SERVER: LazyLock<Regex> = LazyLock::new(|| {
    re(r"\bvllm\w*\.entrypoints\b|(?:^|[\s/])vllm\w*\s+serve\b|\bvllm\w*(?:\.\w+)*\s+serve\b")
});

fn kind_of(command: &str) -> ProcessKind {
    let c = command;
    // vLLM names its engine and worker processes `VLLM::…`
    // (EngineCore, Worker, StageEngineCoreProc_DP0).
    if c.starts_with("VLLM::") || c.contains(" VLLM::") {
        ProcessKind::VllmEngine
    } else if VLLM_SERVER.is_match(c) {
        ProcessKind::Vllm
    } else if c.contains("ollama runner") || c.contains("ollama_llama_server") {
        ProcessKind::OllamaRunner
    } else if c.contains("ollama serve") || c.trim_end().ends_with("/ollama serve") {
        ProcessKind::OllamaServer
    } else if c.contains("llama-server") {
        ProcessKind::LlamaCpp
    } else if TRAINER.is_match(c) {
        ProcessKind::Trainer
    } else {
        ProcessKind::Unknown
    }
}

fn is_grep_itself(command: &str) -> bool {
    let first = command.split_whitespace().next().unwrap_or("");
    first == "grep" || first.ends_with("/grep") || command.starts_with("grep ")
}

/// One row of `ps aux` or `ps -ef`, by its columns.
pub fn is_listing_row(line: &str) -> bool {
    let l = line.trim();
    PS_AUX.is_match(l) || PS_EF.is_match(l) || PS_AUX_BAD_PID.is_match(l)
}

/// A line a terminal wrapped off the end of a row: the rest of its command
/// line (flags, paths, a port), never a sentence.
fn continues_a_row(line: &str) -> bool {
    let t = line.trim();
    !t.is_empty()
        && !t.contains('?')
        && (t.contains("--") || t.contains('/') || t.starts_with(|c: char| c.is_ascii_digit()))
        && !PS_AUX.is_match(t)
        && !PS_EF.is_match(t)
        && !t.starts_with("USER ")
        && !t.starts_with("UID ")
}

/// The listing with each wrapped row joined back onto its line.
fn unwrapped(text: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let after_row = out
            .last()
            .is_some_and(|l| PS_AUX.is_match(l.trim()) || PS_EF.is_match(l.trim()));
        match out.last_mut() {
            Some(last) if after_row && continues_a_row(line) => {
                last.push(' ');
                last.push_str(line.trim());
            }
            _ => out.push(line.to_string()),
        }
    }
    out.join("\n")
}

/// True when the text looks like process listing lines at all.
pub fn looks_like_ps(text: &str) -> bool {
    let text = &unwrapped(text);
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let row = |l: &str| {
        PS_AUX.is_match(l) || PS_EF.is_match(l) || PGREP.is_match(l) || PS_AUX_BAD_PID.is_match(l)
    };
    let rows = lines.iter().filter(|l| row(l.trim())).count();
    // A stray short line among many rows (a shell's "yes", a `$ ps aux`
    // echo) does not stop the listing from being one; it is data, skipped.
    let others = lines
        .iter()
        .filter(|l| {
            let l = l.trim();
            !(l.starts_with("USER ") || l.starts_with("UID ") || row(l))
        })
        .collect::<Vec<_>>();
    let header = lines.iter().any(|l| {
        let l = l.trim();
        l.starts_with("USER ") || l.starts_with("UID ")
    });
    rows > 0
        && (others.is_empty()
            || ((rows >= 2 || header)
                && others.len() <= (rows / 4).max(1)
                && others.iter().all(|l| l.len() < 40)))
}

crate::extract::reading::paste_reader!(
    /// The registry's reader for `ps aux`, `ps -ef` and `pgrep -fa` lines.
    ProcessListing,
    "a process listing",
    looks_like_ps,
    parse_ps => crate::extract::reading::Reading::Procs
);

/// The largest pid Linux hands out (PID_MAX_LIMIT on 64-bit kernels,
/// include/linux/threads.h): a larger one is no process, and `kill` of one
/// over 2^32 wraps to another.
const PID_MAX_LIMIT: u64 = 4_194_304;

/// A pid as `ps` prints it: digits without a leading zero, within the
/// kernel's limit ("00042" or "4294967297" is damaged, not pid 42 or 1).
fn process_id(s: &str) -> Option<u64> {
    (s == "0" || !s.starts_with('0'))
        .then(|| s.parse::<u64>().ok())
        .flatten()
        .filter(|p| *p <= PID_MAX_LIMIT)
}

/// The pid column of each `ps` row that is damaged (a leading zero, past
/// the kernel's limit, not a number): such a row is no process and is never
/// stopped, and the owner is told which were left out.
pub fn damaged_pids(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            let l = l.trim();
            PS_AUX_BAD_PID
                .captures(l)
                .map(|c| c[1].to_string())
                .or_else(|| {
                    let pid = PS_AUX.captures(l)?[1].to_string();
                    process_id(&pid).is_none().then_some(pid)
                })
        })
        .collect()
}

pub fn parse_ps(text: &str) -> Result<Vec<Process>, PsError> {
    let text = &unwrapped(text);
    let mut out = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if line.starts_with("USER ") || line.starts_with("UID ") {
            continue;
        }
        let (pid, rss, command) = if let Some(c) = PS_AUX.captures(line) {
            (process_id(&c[1]), c[3].parse().ok(), c[4].to_string())
        } else if let Some(c) = PS_EF.captures(line) {
            (process_id(&c[1]), None, c[2].to_string())
        } else if let Some(c) = PGREP.captures(line) {
            (process_id(&c[1]), None, c[2].to_string())
        } else {
            continue;
        };
        let Some(pid) = pid else { continue };
        if is_grep_itself(&command) {
            continue;
        }
        out.push(Process {
            pid,
            kind: kind_of(&command),
            utilization_flag: UTILIZATION
                .captures(&command)
                .and_then(|c| c[1].parse().ok()),
            rss_kib: rss,
            command,
        });
    }
    if out.is_empty() {
        let bad = damaged_pids(text);
        return Err(match bad.len() {
            0 => PsError::NoLines,
            1 => PsError::BadPids(bad[0].clone(), "is not a process id"),
            _ => PsError::BadPids(bad.join(", "), "are not process ids"),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(line: &str) -> Process {
        parse_ps(line).unwrap().remove(0)
    }

    #[test]
    fn a_listing_with_damaged_pids_says_which() {
        let row = |pid: &str| {
            format!(
                "alice {pid} 3.1 12.0 98765432 15000000 ? Sl 09:01 1:23 /usr/bin/python3 -m vllm.entrypoints.openai.api_server --model x"
            )
        };
        let text = format!(
            "USER PID %CPU %MEM VSZ RSS TTY STAT START TIME COMMAND\n{}\n{}\n{}",
            row("-1"),
            row("-4242"),
            row("12a")
        );
        assert!(looks_like_ps(&text));
        let e = parse_ps(&text).unwrap_err().to_string();
        assert!(e.contains("-1, -4242, 12a"), "{e}");
        // Good rows beside a damaged one: the good ones are read, and the
        // damaged one is named.
        let mixed = format!(
            "{}\n{}\n{}\n{}",
            row("4242"),
            row("-1"),
            row("04242"),
            row("99999999")
        );
        assert_eq!(parse_ps(&mixed).unwrap().len(), 1);
        assert_eq!(damaged_pids(&mixed), ["-1", "04242", "99999999"]);
        assert!(damaged_pids(&row("4242")).is_empty());
    }

    #[test]
    fn real_ollama_serve_line_in_a_chinese_locale_and_the_grep_is_dropped() {
        let all = parse_ps(include_str!(
            "../../tests/fixtures/ps-aux-ollama-zh-locale.txt"
        ))
        .unwrap();
        assert_eq!(all.len(), 1);
        assert_eq!(all[0].kind, ProcessKind::OllamaServer);
        assert_eq!(all[0].pid, 1259539);
        assert_eq!(all[0].rss_kib, Some(350756));
    }

    #[test]
    fn real_ollama_runner_from_ps_ef() {
        let p = one(include_str!("../../tests/fixtures/ps-ef-ollama-runner.txt"));
        assert_eq!(p.kind, ProcessKind::OllamaRunner);
        assert_eq!(p.pid, 3573918);
    }

    #[test]
    fn real_llama_server_from_pgrep() {
        let p = one(include_str!("../../tests/fixtures/pgrep-llama-server.txt"));
        assert_eq!(p.kind, ProcessKind::LlamaCpp);
        assert_eq!(p.pid, 2510);
    }

    #[test]
    fn every_kind_in_the_made_up_spark_listing() {
        let all = parse_ps(include_str!("../../tests/fixtures/ps-aux-spark-mixed.txt")).unwrap();
        let kinds: Vec<(u64, ProcessKind, Option<f64>)> = all
            .iter()
            .map(|p| (p.pid, p.kind, p.utilization_flag))
            .collect();
        assert_eq!(
            kinds,
            vec![
                (412233, ProcessKind::Vllm, Some(0.5)),
                (412517, ProcessKind::VllmEngine, None),
                (415002, ProcessKind::Vllm, None),
                (1259539, ProcessKind::OllamaServer, None),
                (1261877, ProcessKind::OllamaRunner, None),
                (413001, ProcessKind::Trainer, None),
                (413388, ProcessKind::Trainer, None),
                (413512, ProcessKind::Trainer, None),
                (413777, ProcessKind::Trainer, None),
                (414040, ProcessKind::Trainer, None),
                (416100, ProcessKind::Unknown, None),
            ]
        );
    }

    #[test]
    fn a_vllm_fork_launched_by_module_and_its_stage_engines() {
        let text = "root      530020      81 25 06:14 pts/1    00:02:01 /workspace/.venv/bin/python3 -m vllm_omni.entrypoints.cli.main serve /nvme1n1p1/models/Qwen/Qwen3-Omni-30B-A3B-Instruct --host 127.0.0.1\nroot      530284  530020 23 06:15 pts/1    00:01:50 VLLM::StageEngineCoreProc_DP0\nroot      530283  530020  0 06:15 pts/1    00:00:00 /workspace/.venv/bin/python3 -c from multiprocessing.resource_tracker import main;main(57)";
        let kinds: Vec<(u64, ProcessKind)> = parse_ps(text)
            .unwrap()
            .iter()
            .map(|p| (p.pid, p.kind))
            .collect();
        assert_eq!(
            kinds,
            vec![
                (530020, ProcessKind::Vllm),
                (530284, ProcessKind::VllmEngine),
                (530283, ProcessKind::Unknown)
            ]
        );
        assert_eq!(
            kind_of("/opt/venv/bin/vllm serve Qwen/Qwen3-8B"),
            ProcessKind::Vllm
        );
        assert_eq!(
            kind_of("python -m vllm.entrypoints.openai.api_server"),
            ProcessKind::Vllm
        );
        assert_eq!(
            kind_of("/usr/bin/python3 serve_vllm_docs.py"),
            ProcessKind::Unknown
        );
    }

    #[test]
    fn a_row_the_terminal_wrapped_is_joined_back() {
        let text = "USER         PID %CPU %MEM      VSZ      RSS TTY      STAT START   TIME COMMAND\nowner      41500  3.2 40.1 98304512 52428800 ?        Sl   13:02   5:11 python3 -m vllm.entrypoints.open\n8000 --max-model-len 8192 ai.api_server --model meta-llama/Llama-3.1-8B-Instruct --port\nowner       2210  0.0  0.0    12345     5120 pts/0    Ss   09:01   0:00 -bash";
        assert!(looks_like_ps(text));
        let ps = parse_ps(text).unwrap();
        assert_eq!(ps.len(), 2);
        assert_eq!((ps[0].pid, ps[0].kind), (41500, ProcessKind::Vllm));
        assert!(ps[0].command.contains("--max-model-len 8192"));
        // A question under a listing is no part of its last row.
        assert!(!unwrapped("owner 41500 3.2 40.1 98304512 52428800 ? Sl 13:02 5:11 /usr/bin/python3 x\ncan both run?").contains("x can"));
    }

    #[test]
    fn the_flag_with_an_equals_sign() {
        let p = one(
            "u 7 0.0 0.0 1 2 ? S 10:00 0:00 python -m vllm.entrypoints.openai.api_server --gpu_memory_utilization=0.35",
        );
        assert_eq!(p.utilization_flag, Some(0.35));
    }

    #[test]
    fn text_that_is_not_a_listing() {
        assert!(!looks_like_ps("QLoRA on Llama 3.1 70B"));
        assert!(!looks_like_ps("2 sparks with fsdp"));
        assert!(!looks_like_ps("340 steps in, it OOMed"));
        assert!(looks_like_ps(include_str!(
            "../../tests/fixtures/ps-aux-spark-mixed.txt"
        )));
        assert_eq!(parse_ps("hello there"), Err(PsError::NoLines));
    }

    #[test]
    fn a_pid_with_a_leading_zero_or_past_the_kernels_limit_is_damaged() {
        let row = |pid: &str| {
            format!(
                "ollama  {pid}  0.5  2.0 4567890 2500000 ?     Ssl  08:00   0:10 /usr/local/bin/ollama serve"
            )
        };
        for damaged in ["00042", "4294967297", "99999999"] {
            assert!(looks_like_ps(&row(damaged)), "{damaged}");
            assert!(
                matches!(parse_ps(&row(damaged)), Err(PsError::BadPids(ref p, _)) if p == damaged),
                "{damaged}: {:?}",
                parse_ps(&row(damaged))
            );
        }
        assert_eq!(one(&row("4194304")).pid, 4_194_304);
        // Beside a good row, the damaged one is skipped, never stopped.
        let both = format!("{}\n{}", row("5151"), row("00042"));
        let pids: Vec<u64> = parse_ps(&both).unwrap().iter().map(|p| p.pid).collect();
        assert_eq!(pids, vec![5151]);
    }
}
