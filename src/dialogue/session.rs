//! The dialogue's whole state: the owner's answers and what has been done.

use crate::calc::verdict::Verdict;
use crate::dialogue::facts::{Facts, Known};
use crate::dialogue::ladder::{Action, Decision, Ladder};
use jiff::Timestamp;

/// A plan that was answered, kept as a record of work done (never as the
/// source of a new verdict: plans are always recomputed from the answers).
#[derive(Debug, Clone, PartialEq)]
pub struct PlanRecord {
    pub at: Timestamp,
    pub title: String,
    pub verdict: Verdict,
    pub total_centi_gb: u64,
    pub budget_centi_gb: u64,
}

/// What the last answer was about: a follow-up ("is that bad?", "how do I
/// stop it?") is answered against it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Topic {
    Plan,
    Thermal,
    Pool,
    Oom,
    /// A `free` or `/proc/meminfo` reading.
    Memory,
    /// nvidia-smi output: the table, `-q` or the compute apps.
    Gpu,
    /// An inference server's own log (vLLM, Ollama).
    Server,
    /// A paste headroom could not read.
    Unread,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Session {
    /// The workflow the last turn was about.
    pub topic: Option<Topic>,
    /// The last thermal check's verdict and when it was given.
    pub last_thermal: Option<(Timestamp, crate::calc::thermal::ThermalVerdict)>,
    pub facts: Facts,
    pub last_plan: Option<PlanRecord>,
    /// The OOM ladder, when an OOM was reported.
    pub ladder: Option<Ladder>,
    /// An action waiting for the owner's yes or no.
    pub pending: Option<Action>,
    /// When, and in which session, the pending action was proposed: a yes
    /// applies only to it, in that session, while its evidence is fresh.
    pub pending_from: Option<(Timestamp, String)>,
    /// The session whose turns are being absorbed (live, or in replay).
    pub current: String,
    /// Every yes and no the owner gave, remembered.
    pub decisions: Vec<Decision>,
    /// The last pasted process listing, raw (re-read whenever it matters).
    pub procs: Option<Known<String>>,
    /// The last pasted `ollama ps`, raw.
    pub ollama: Option<Known<String>>,
    /// The last pasted vLLM log's memory figures.
    pub vllm_log: Option<Known<crate::extract::vllm_log::VllmLog>>,
    /// A what-if shown beside the run, waiting to be adopted or dropped.
    pub what_if: Option<Known<Vec<crate::extract::slots::Found>>>,
    /// A model the owner named that the catalog lacks, until its
    /// config.json or parameter count arrives.
    pub unknown_model: Option<String>,
    /// Two or more models named as alternatives ("Qwen2.5 14B or Llama 3.1
    /// 8B?"): none is the run's until the owner picks ("the qwen").
    pub model_choices: Vec<String>,
    /// Thermal samples and training logs: pastes, or files reopened each time.
    pub data_sources: Vec<Known<crate::dialogue::thermal_turn::Source>>,
    /// When the run started, for logs that carry no absolute time.
    pub run_start: Option<Known<RunStart>>,
    /// The sampler's UTC offset, seconds, for a log stamped in UTC.
    pub log_tz: Option<Known<f64>>,
    /// The per-device batches the last pasted trainer banner printed: a
    /// bare figure among them, said next, is that batch.
    pub banner_batches: Vec<u64>,
    /// Memory another process holds, as the owner said it ("someone loaded
    /// gpt-oss 120b in it, like 65gb"): (who, hundredths of a GB).
    pub held_said: Option<Known<(String, u64)>>,
    /// An inference server was killed or failed for memory in this
    /// conversation: a flush before its relaunch is the ladder's step 1.
    pub server_failed: bool,
    /// The sampler was asked for and no samples have come since: the
    /// next thermal question gets one line, not the same request again.
    pub sampler_asked: bool,
    /// The topic of the last domain answer given (knowledge/questions.md),
    /// for a follow-up that names no subject ("is it harmful?").
    pub last_answer: Vec<String>,
}

impl Session {
    /// Was this action already declined? Then it is not proposed again
    /// unless the owner asks.
    pub fn declined(&self, action: &Action) -> Option<&Decision> {
        self.decisions
            .iter()
            .rev()
            .find(|d| covers(&d.action, action))
            .filter(|d| !d.approved)
    }
}

/// Whether a decision on `decided` answers `asked` too. A stop is about the
/// servers, not their pids: a vLLM restarted under a new pid is the one the
/// owner kept.
fn covers(decided: &Action, asked: &Action) -> bool {
    match (decided, asked) {
        (Action::Stop(kept), Action::Stop(now)) => {
            decided == asked
                || !now.is_empty()
                    && now
                        .iter()
                        .all(|(_, kind)| kept.iter().any(|(_, k)| k == kind))
        }
        _ => decided == asked,
    }
}

/// "Done: headroom plan for … on …: fits (51.14 GB of 119.48 GB)." or that
/// no plan was made yet.
pub fn done_line(last_plan: Option<&PlanRecord>) -> String {
    match last_plan {
        Some(p) => format!(
            "Done: headroom plan for {} on {}: {} ({} GB of {} GB).",
            p.title,
            when(p.at),
            p.verdict.label(),
            crate::calc::units::show_centi(p.total_centi_gb),
            crate::calc::units::show_centi(p.budget_centi_gb)
        ),
        None => "Done: no plan yet.".into(),
    }
}

/// "2026-11-29 10:00 UTC".
pub fn when(at: Timestamp) -> String {
    at.strftime("%Y-%m-%d %H:%M UTC").to_string()
}

/// "3 h ago", "2 days ago", "just now"; a time after now (a wrong clock, an
/// edited record) is said to be one, never "just now".
pub fn age(at: Timestamp, now: Timestamp) -> String {
    let secs = now.as_second() - at.as_second();
    match secs {
        s if s < -60 => format!("dated {}, after now", when(at)),
        s if s < 60 => "just now".into(),
        s if s < 3600 => format!("{} min ago", s / 60),
        s if s < 2 * 86400 => format!("{} h ago", s / 3600),
        s => format!("{} days ago", s / 86400),
    }
}

pub fn hours_between(at: Timestamp, now: Timestamp) -> f64 {
    (now.as_second() - at.as_second()) as f64 / 3600.0
}

/// When the owner said the run started.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RunStart {
    /// A date and a time ("09:02 on 2026-11-28"), seconds as wall clock.
    At(f64),
    /// A time of day alone ("started at 22:40 last night"), seconds after
    /// midnight: the day is the one that puts it nearest the samples.
    TimeOfDay(f64),
}

impl RunStart {
    /// The start on a day, once the samples' first time is known.
    pub fn placed(self, first_sample: Option<f64>) -> Option<f64> {
        match self {
            RunStart::At(t) => Some(t),
            RunStart::TimeOfDay(secs) => {
                let first = first_sample?;
                let midnight = first - first.rem_euclid(86_400.0);
                [-86_400.0, 0.0, 86_400.0]
                    .into_iter()
                    .map(|d| midnight + d + secs)
                    .min_by(|a, b| (a - first).abs().total_cmp(&(b - first).abs()))
            }
        }
    }
}
