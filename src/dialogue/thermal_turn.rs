//! The thermal workflow in the dialogue: the owner's files (typed as paths)
//! or pastes, the run's start time when the log carries none, and the
//! verdict with its evidence and chart.
//!
//! Files are reopened every time the analysis runs (a log keeps growing);
//! the dialogue stays pure by reading through the `Files` the edge gives it.

use crate::calc::thermal::analyze;
use crate::dialogue::facts::Known;
use crate::dialogue::session::Session;
use crate::extract::thermal_csv::{ThermalSample, parse_time, read_thermal};
use crate::extract::train_log::{TrainLog, read_train_log};
use crate::knowledge::Knowledge;
use crate::render::chart::{Glyphs, chart};
use crate::render::thermal_md::thermal_markdown;
use regex::Regex;
use std::io::{BufReader, Read};
use std::sync::LazyLock;

/// How the dialogue reads the owner's files; the edge supplies it.
pub trait Files {
    fn open(&self, path: &str) -> Option<Box<dyn Read>>;
}

/// For callers with no file access (tests of the pure engine).
pub struct NoFiles;

impl Files for NoFiles {
    fn open(&self, _: &str) -> Option<Box<dyn Read>> {
        None
    }
}

/// Where thermal or training data came from.
#[derive(Debug, Clone, PartialEq)]
pub enum Source {
    Paste(String),
    File(String),
}

static PATH: LazyLock<Regex> = LazyLock::new(|| crate::extract::re(r"(?:^|\s)([~\w./+-]+)"));
const EXTENSIONS: [&str; 4] = [".csv", ".log", ".txt", ".out"];
static START: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(?i)\bstart\w*\D{0,30}?(\d{4}[-/]\d{2}[-/]\d{2}[ T]\d{1,2}:\d{2}(?::\d{2})?)",
    )
});
static THERMAL_WORDS: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(?i)\b(throttl\w*|thermal\w*|temperature|slow(?:ed|s|ing)? down|slowdown|got slower|hot)\b",
    )
});

/// File paths the owner typed.
pub fn paths_in(text: &str) -> Vec<String> {
    if text.lines().count() > 3 {
        return Vec::new(); // a paste, not a path
    }
    PATH.captures_iter(text)
        .map(|c| c[1].trim_end_matches(['.', ',']).to_string())
        .filter(|t| {
            let named = EXTENSIONS.iter().any(|e| t.ends_with(e));
            let pathy = t.contains('/') && t.chars().any(|c| c.is_ascii_alphabetic());
            (named || pathy) && !t.starts_with("http")
        })
        .collect()
}

/// "the run started at 2026-11-29 10:00" as seconds.
pub fn start_in(text: &str) -> Option<(f64, String)> {
    let c = START.captures(text)?;
    let raw = c[1].to_string();
    let with_seconds = if raw.matches(':').count() == 1 {
        format!("{raw}:00")
    } else {
        raw.clone()
    };
    parse_time(&with_seconds).map(|t| (t, raw))
}

pub fn mentions_thermal(text: &str) -> bool {
    THERMAL_WORDS.is_match(text)
}

pub fn looks_like_thermal_paste(text: &str) -> bool {
    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    first.contains("temperature.gpu") || first.contains("power.draw") || {
        let rows = text
            .lines()
            .filter(|l| {
                let b = l.trim().as_bytes();
                b.len() > 20 && b[4] == b'/' && b[7] == b'/' && l.contains(',')
            })
            .count();
        rows >= 2
    }
}

pub fn looks_like_train_paste(text: &str) -> bool {
    text.lines().count() >= 2
        && (text.contains("it/s]")
            || text.contains("s/it]")
            || text.contains("{'loss'")
            || text.contains("Step "))
}

fn read_source(source: &Source, files: &dyn Files) -> Option<Box<dyn Read>> {
    match source {
        Source::Paste(text) => Some(Box::new(std::io::Cursor::new(text.clone().into_bytes()))),
        Source::File(path) => files.open(path),
    }
}

fn thermal_of(source: &Source, files: &dyn Files) -> Option<Vec<ThermalSample>> {
    let samples = read_thermal(BufReader::new(read_source(source, files)?)).ok()?;
    samples
        .iter()
        .any(|s| s.temp_c.is_some() || s.power_w.is_some())
        .then_some(samples)
}

fn train_of(source: &Source, files: &dyn Files, start: Option<f64>) -> Option<TrainLog> {
    read_train_log(read_source(source, files)?, start).ok()
}

/// Sort the owner's sources into thermal samples and a training log, reading
/// each afresh; also return the files that could not be read.
fn gather(
    session: &Session,
    files: &dyn Files,
) -> (Option<Vec<ThermalSample>>, Option<TrainLog>, Vec<String>) {
    let start = session.run_start.as_ref().map(|s| s.value);
    let mut thermal = None;
    let mut train = None;
    let mut unreadable = Vec::new();
    for known in session.data_sources.iter().rev() {
        let source = &known.value;
        if thermal.is_none()
            && let Some(t) = thermal_of(source, files)
        {
            thermal = Some(t);
            continue;
        }
        if train.is_none()
            && let Some(l) = train_of(source, files, start)
        {
            train = Some(l);
            continue;
        }
        if let Source::File(path) = source
            && files.open(path).is_none()
        {
            unreadable.push(path.clone());
        }
    }
    (thermal, train, unreadable)
}

/// The thermal reply, or what is still needed for it.
pub fn thermal_reply(session: &Session, files: &dyn Files, k: &Knowledge) -> String {
    let (thermal, train, unreadable) = gather(session, files);
    let mut md = String::new();
    for path in &unreadable {
        md.push_str(&format!("I could not read `{path}` (no such file, or not readable by me). Give the full path, or paste its contents.\n\n"));
    }
    let Some(thermal) = thermal else {
        if let Some(log) = &train {
            md.push_str(&format!(
                "I have the training log ({} step samples). ",
                log.samples.len()
            ));
        }
        md.push_str("To tell whether a slowdown is thermal throttling I need temperature and power sampled alongside the run. Start the sampler next to it (`/sampler` prints the script):\n\n```\nbash assets/thermal-sample.sh 30 thermal.log\n```\n\nThen give me the path to `thermal.log` (and the training log), or paste them.");
        return md;
    };
    if let Some(log) = &train
        && !log.anchored
        && session.run_start.is_none()
    {
        md.push_str("Your training log carries no absolute time, so I cannot line it up with the thermal samples yet. When did the run start? (for example: \"the run started at 2026-11-29 10:00:00\")\n\n");
    }
    let analysis = analyze(&thermal, train.as_ref(), k);
    md.push_str(&thermal_markdown(&analysis, k));
    if analysis.insufficient.is_empty() {
        let train_samples = train.as_ref().map_or(&[][..], |t| &t.samples[..]);
        md.push_str(&format!(
            "\n```\n{}\n```",
            chart(&thermal, train_samples, &analysis, 72, Glyphs::Unicode)
        ));
    }
    md
}

/// Record the owner's data and start time; returns whether the turn was
/// about the thermal workflow.
pub fn absorb_thermal(session: &mut Session, text: &str, at: jiff::Timestamp) -> bool {
    let mut touched = false;
    if looks_like_thermal_paste(text) || looks_like_train_paste(text) {
        session.data_sources.push(Known {
            value: Source::Paste(text.to_string()),
            words: "your paste".into(),
            at,
        });
        return true;
    }
    for path in paths_in(text) {
        session.data_sources.push(Known {
            value: Source::File(path.clone()),
            words: path,
            at,
        });
        touched = true;
    }
    if let Some((t, raw)) = start_in(text) {
        session.run_start = Some(Known {
            value: t,
            words: raw,
            at,
        });
        touched = true;
    }
    touched || mentions_thermal(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_starts_and_words() {
        assert_eq!(
            paths_in("here: ~/runs/thermal.log"),
            vec!["~/runs/thermal.log"]
        );
        assert_eq!(
            paths_in("train.log and thermal.csv"),
            vec!["train.log", "thermal.csv"]
        );
        assert_eq!(
            paths_in("runs/a/thermal.csv, ok"),
            vec!["runs/a/thermal.csv"]
        );
        assert!(paths_in("it is at 10/1000 steps").is_empty());
        assert!(paths_in("batch 2, packing 1024").is_empty());
        assert_eq!(
            start_in("the run started at 2026-11-29 10:00").map(|s| s.1),
            Some("2026-11-29 10:00".into())
        );
        assert!(mentions_thermal("my run slowed down two hours in"));
        assert!(!mentions_thermal("QLoRA on Llama 3.1 70B"));
    }
}
