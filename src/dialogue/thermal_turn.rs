//! The thermal workflow in the dialogue: the owner's files (typed as paths)
//! or pastes, the run's start time when the log carries none, and the
//! verdict with its evidence and chart.
//!
//! Files are reopened every time the analysis runs (a log keeps growing);
//! the dialogue stays pure by reading through the `Files` the edge gives it.

use crate::calc::thermal::analyze;
use crate::dialogue::session::Session;
use crate::extract::thermal_csv::{ThermalSample, read_thermal};
use crate::extract::train_log::{TrainLog, read_train_log_with};
use crate::knowledge::Knowledge;
use crate::reply::{Block, ThermalView};
use regex::Regex;
use std::io::{BufReader, Read};
use std::sync::LazyLock;

/// How the dialogue reads the owner's files; the edge supplies it.
pub trait Files {
    /// Open a file read-only, or say why it cannot be read.
    fn open(&self, path: &str) -> Result<Box<dyn Read>, String>;
}

/// For callers with no file access (tests of the pure engine).
pub struct NoFiles;

impl Files for NoFiles {
    fn open(&self, _: &str) -> Result<Box<dyn Read>, String> {
        Err("this session has no access to files".into())
    }
}

/// Where thermal or training data came from.
#[derive(Debug, Clone, PartialEq)]
pub enum Source {
    Paste(String),
    File(String),
}

static THERMAL_WORDS: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(?i)\b(throttl\w*|thermal\w*|temperature|slow(?:ed|s|ing)? down|slowdown|got slower|hot)\b",
    )
});

pub fn mentions_thermal(text: &str) -> bool {
    THERMAL_WORDS.is_match(text)
}

fn read_source(source: &Source, files: &dyn Files) -> Option<Box<dyn Read>> {
    match source {
        Source::Paste(text) => Some(Box::new(std::io::Cursor::new(text.clone().into_bytes()))),
        Source::File(path) => files.open(path).ok(),
    }
}

fn thermal_of(source: &Source, files: &dyn Files) -> Option<Vec<ThermalSample>> {
    let samples = read_thermal(BufReader::new(read_source(source, files)?)).ok()?;
    samples
        .iter()
        .any(|s| s.temp_c.is_some() || s.power_w.is_some())
        .then_some(samples)
}

/// How to place a log in time: the run's start, the log's UTC offset, and
/// the tokens per step (batch × packing from the plan) for logs that print
/// only tokens per second.
struct Placement {
    start: Option<f64>,
    tz: Option<f64>,
    tokens: Option<f64>,
}

fn train_of(source: &Source, files: &dyn Files, p: &Placement) -> Option<TrainLog> {
    read_train_log_with(read_source(source, files)?, p.start, p.tz, p.tokens).ok()
}

/// An owner's file that could not be used: its path, why, and its place in
/// the order the owner named sources.
type Unreadable = (String, String, usize);

type Gathered = (
    Option<Vec<ThermalSample>>,
    Option<TrainLog>,
    Vec<Unreadable>,
);

/// Sort the owner's sources into thermal samples and a training log, reading
/// each afresh; also return the files that could not be read.
/// `sources_before`: how many sources were named before this turn. One of
/// those that opens but is not read now was used or explained then, or a
/// newer file of its kind replaced it: it is not reported again.
/// How many of the latest named files and pastes are read for a thermal answer.
const NEWEST_SOURCES: usize = 6;

fn gather(session: &Session, files: &dyn Files, sources_before: usize) -> Gathered {
    let f = &session.facts;
    // The samples first (the latest source that is samples): a start said
    // as a time of day takes its day from them.
    // Only the newest few are candidates: an older log or CSV was replaced
    // by the ones named since, and re-reading every paste of a long
    // session on each turn made turns slower as the session grew.
    let sources: Vec<&Source> = session
        .data_sources
        .iter()
        .rev()
        .take(NEWEST_SOURCES)
        .map(|k| &k.value)
        .collect();
    let (thermal_at, thermal) = sources
        .iter()
        .enumerate()
        .find_map(|(i, s)| thermal_of(s, files).map(|t| (Some(i), Some(t))))
        .unwrap_or((None, None));
    let first_sample = thermal.as_ref().and_then(|t| t.first()).map(|s| s.t);
    let placement = Placement {
        start: session
            .run_start
            .as_ref()
            .and_then(|s| s.value.placed(first_sample)),
        tz: session.log_tz.as_ref().map(|t| t.value),
        tokens: f
            .batch
            .as_ref()
            .zip(f.pack.as_ref())
            .map(|(b, p)| (b.value * p.value) as f64),
    };
    let mut train = None;
    let mut unreadable = Vec::new();
    // `sources` runs newest first; `order` is each one's place in naming order.
    let order = |i: usize| session.data_sources.len() - 1 - i;
    for (i, source) in sources.into_iter().enumerate() {
        if Some(i) == thermal_at {
            continue;
        }
        if train.is_none()
            && let Some(l) = train_of(source, files, &placement)
        {
            train = Some(l);
            continue;
        }
        if let Source::File(path) = source {
            match files.open(path) {
                Err(why) => unreadable.push((path.clone(), why, order(i))),
                Ok(_) if order(i) < sources_before => {}
                Ok(_) => unreadable.push((
                    path.clone(),
                    "it is readable, but is neither thermal samples nor a training log I know"
                        .into(),
                    order(i),
                )),
            }
        }
    }
    (thermal, train, unreadable)
}

/// The thermal part of a reply, or what is still needed for it.
/// `full`: the evidence too, not only the verdict and the slowdown. A file
/// named in this turn (source `sources_before` on) that cannot be used is
/// explained; one named in an earlier turn was explained then, and is only
/// listed.
pub fn thermal_blocks(
    session: &Session,
    files: &dyn Files,
    k: &Knowledge,
    full: bool,
    sources_before: usize,
) -> Vec<Block> {
    let (thermal, train, unreadable) = gather(session, files, sources_before);
    let mut out = Vec::new();
    let mut earlier = Vec::new();
    for (path, why, order) in &unreadable {
        if *order < sources_before {
            // Its first clause only ("no such file", "it is a FIFO (named
            // pipe), not a file"): what to do was said when it was named,
            // or it was read then and is gone now.
            let short = why.split([':', ';']).next().unwrap_or(why);
            earlier.push(format!("`{path}` ({short})"));
            continue;
        }
        out.push(Block::Text(format!(
            "I could not read `{path}`: {why}. Check the path on the Spark (headroom reads files on the machine it runs on), or paste the file's contents."
        )));
    }
    if !earlier.is_empty() {
        out.push(Block::Text(format!(
            "Named before, not readable now: {}.",
            earlier.join(", ")
        )));
    }
    if let Some(s) = &session.run_start {
        let first_sample = thermal.as_ref().and_then(|t| t.first()).map(|s| s.t);
        let when = match (s.value, s.value.placed(first_sample)) {
            (crate::dialogue::session::RunStart::TimeOfDay(_), Some(t)) => {
                format!("{} (the day nearest the samples)", clock_text(t))
            }
            (_, Some(t)) => clock_text(t),
            (_, None) => s.words.clone(),
        };
        out.push(Block::Text(format!(
            "Run start: {when} (you said \"{}\").",
            s.words
        )));
    }
    let Some(thermal) = thermal else {
        if let Some(log) = &train {
            out.push(Block::Text(format!(
                "I have the training log ({}).",
                step_samples(log.samples.len())
            )));
        }
        if session.sampler_asked {
            out.push(Block::Text(format!(
                "Still no temperature or power samples, so I cannot say thermal or not: a clock figure, a hot room or a slow step alone cannot decide it. What settles it is the sampler beside the run (`{}`), then its log and the training log.",
                k.command("thermal").command
            )));
            return out;
        }
        out.push(Block::Text(
            "To tell whether a slowdown is thermal throttling I need temperature and power sampled alongside the run. Start the sampler next to it (`/sampler` prints the script), then give me the path to its log (and the training log's), or paste them:".into(),
        ));
        out.push(Block::Code(k.command("thermal").command.clone()));
        return out;
    };
    let mut train = train;
    if let Some(log) = &train
        && !log.anchored
        && session.run_start.is_none()
    {
        out.push(Block::Text(format!(
            "Your training log ({}) carries no absolute time, so I cannot line it up with the thermal samples yet. When did the run start? (for example: \"it started at 09:02 on 2026-11-28\"). Until then, the thermal samples alone:",
            step_samples(log.samples.len())
        )));
        // The samples can still be judged on their own meanwhile.
        train = None;
    }
    // A log whose clock is whole (or quarter) hours off the samples' is
    // lined up on the load ramp, and said; the owner's offset overrides.
    if session.log_tz.is_none()
        && let Some(log) = train.take()
    {
        let (log, shift) = crate::calc::thermal::line_up::lined_up(&thermal, log);
        out.extend(shift.map(|s| Block::Text(s.why)));
        train = Some(log);
    }
    let train = train.map(|l| crate::calc::thermal::line_up::dated(&thermal, l));
    let analysis = analyze(&thermal, train.as_ref(), k);
    if let Some(note) = contention(session, &analysis) {
        out.push(Block::Text(note));
    }
    if let Some(hint) = train
        .as_ref()
        .and_then(|t| crate::calc::thermal::hour_shift_hint(t, &analysis))
    {
        out.push(Block::Text(hint));
    }
    out.push(Block::Thermal(Box::new(ThermalView {
        analysis,
        thermal,
        train: train.map(|t| t.samples).unwrap_or_default(),
        full,
    })));
    out
}

/// The analysis of the data the owner gave, when there is enough to run it.
pub fn current_analysis(
    session: &Session,
    files: &dyn Files,
    k: &Knowledge,
) -> Option<crate::calc::thermal::Analysis> {
    let (thermal, train, _) = gather(session, files, session.data_sources.len());
    let thermal = thermal?;
    let train = train
        .filter(|l| l.anchored || session.run_start.is_some())
        .map(|log| match session.log_tz {
            None => crate::calc::thermal::line_up::lined_up(&thermal, log).0,
            Some(_) => crate::calc::thermal::line_up::dated(&thermal, log),
        });
    Some(analyze(&thermal, train.as_ref(), k))
}

/// "so?" in a thermal conversation before any verdict: what the data so
/// far cannot say, and the one thing that would settle it.
pub fn pending_follow_up(session: &Session, files: &dyn Files) -> String {
    let (thermal, train, _) = gather(session, files, session.data_sources.len());
    match (thermal, train) {
        (None, _) => "So: nothing yet says whether the slowdown is thermal. A snapshot shows one moment (its slowdown counters are totals since the driver loaded), so it cannot say when the clocks dropped or whether that matches your steps. What settles it: temperature, power and clocks sampled every 30 s beside the run (`bash assets/thermal-sample.sh 30 thermal.log`), then that log and the training log together.".into(),
        (Some(_), None) => "So: I have the samples but no training log to line them up with, so I cannot tell whether your steps slowed when the clocks did. Give me the training log (a path or a paste).".into(),
        (Some(_), Some(_)) => "So: the training log carries no clock of its own, so I cannot line its steps up with the samples yet. Tell me when the run started (\"started 09:02\").".into(),
    }
}

/// A slowdown that is not thermal, with a server in the pool the owner
/// pasted: contention is the lead to check first.
fn contention(session: &Session, a: &crate::calc::thermal::Analysis) -> Option<String> {
    use crate::calc::thermal::ThermalVerdict;
    let s = a.slowdown.as_ref()?;
    if a.matches_thermal_event == Some(true) || a.verdict == ThermalVerdict::LowPowerState {
        return None;
    }
    let mut sharing: Vec<String> = Vec::new();
    if let Some(p) = &session.procs
        && let Ok(list) = crate::extract::ps::parse_ps(&p.value)
    {
        use crate::readings::process::ProcessKind;
        sharing.extend(
            list.iter()
                .filter(|x| {
                    matches!(
                        x.kind,
                        ProcessKind::Vllm
                            | ProcessKind::OllamaServer
                            | ProcessKind::OllamaRunner
                            | ProcessKind::LlamaCpp
                    )
                })
                .map(|x| format!("{} (pid {})", x.kind.label(), x.pid)),
        );
    }
    if let Some(o) = &session.ollama
        && let Ok(models) = crate::extract::ollama_ps::parse_ollama_ps(&o.value)
    {
        sharing.extend(
            models
                .iter()
                .map(|m| format!("Ollama's `{}` ({})", m.name, m.size_text)),
        );
    }
    (!sharing.is_empty()).then(|| {
        format!(
            "Contention is the first lead: the slowdown at {} matches no thermal event, and your pasted listing shows {} on the same pool. A server that loaded a model or grew its cache then evicts the trainer's pages without an error on either side. Was it busy at that time? Its own log (or `ollama ps` taken then) will say.",
            clock_text(s.onset),
            sharing.join(", ")
        )
    })
}

/// "2026-11-28 09:02:00" for a wall-clock time in seconds.
fn clock_text(t: f64) -> String {
    jiff::Timestamp::from_second(t as i64)
        .map(|ts| ts.strftime("%Y-%m-%d %H:%M:%S").to_string())
        .unwrap_or_else(|_| format!("{t} s"))
}

/// "1 step sample", "2 step samples".
fn step_samples(n: usize) -> String {
    if n == 1 {
        "1 step sample".into()
    } else {
        format!("{n} step samples")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thermal_words() {
        assert!(mentions_thermal("my run slowed down two hours in"));
        assert!(!mentions_thermal("QLoRA on Llama 3.1 70B"));
    }
}
