//! Folding one owner turn into the session: the text is classified once by
//! the reader registry, then each reading changes the state its workflow
//! owns. Pure and shared with the replay at start, so the state after a
//! restart is exactly the state before it.

use crate::calc::solve::SolveFor;
use crate::dialogue::facts::{Facts, FreePaste, Known, Update};
use crate::dialogue::ladder::{
    Action, Awaiting, Ladder, RunShape, RungStatus, advance, record_result,
};
use crate::dialogue::oom_turn::changed_facts;
use crate::dialogue::pool_turn::{pool_report, stop_action, unload_action};
use crate::dialogue::session::{Session, Topic};
use crate::dialogue::words::absorb_words;
use crate::extract::approval::Answer;
use crate::extract::free::from_meminfo;
use crate::extract::intent::Request;
use crate::extract::oom::{Rung, StepResult};
use crate::extract::reading::{ReadProblem, Reading, classify};
use crate::extract::segment::{Source as SegmentSource, as_printed, laid_out, printed, segments};
use crate::extract::slots::Found;
use crate::knowledge::Knowledge;
use jiff::Timestamp;

/// What happened on the OOM ladder this turn.
#[derive(Debug, Clone, PartialEq)]
pub enum OomEvent {
    Opened,
    PhaseSet,
    Result(Rung, StepResult),
    Jumped(Vec<Rung>),
    /// The owner answered whether they flushed before jumping ahead.
    DidFlush(bool),
    /// The owner gave facts the ladder was waiting for.
    FactsGiven,
    /// The owner asked what to do next; the pending step is restated.
    Asked,
    /// More of the same OOM pasted while its ladder is open (the kernel's
    /// OOM-killer lines after a traceback): its figures are read.
    MoreEvidence,
}

/// Evidence pasted for the owner's information: read and explained, it
/// changes no answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Evidence {
    SmiTable(crate::extract::nvidia_smi::SmiTable),
    ComputeApps(Vec<crate::extract::nvidia_smi::SmiProcess>),
    OllamaLog(crate::extract::ollama_log::OllamaLog),
    SmiQuery(crate::extract::smi_query::SmiQuery),
    SmiCsv(crate::extract::smi_csv::SmiCsv),
}

/// Below this total capacity an OOM's device is not a Spark: CUDA reports
/// about 119.7–121.7 GiB of the GB10's pool, so 100 GiB leaves room for
/// firmware differences and none for a discrete card.
const FOREIGN_CAPACITY_BYTES: f64 = 100.0 * 1_073_741_824.0;

/// A turn, as headroom understood it: what changed and what was asked.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Absorbed {
    pub updates: Vec<Update>,
    /// How many of the owner's data sources were named before this turn:
    /// the rest are this turn's.
    pub sources_before: usize,
    /// The facts before this turn changed them, for "old → new".
    pub before: Option<Facts>,
    /// A paste that could not be read: what was wrong and what to paste.
    pub problem: Option<ReadProblem>,
    /// The owner asked for the longest packing or largest batch.
    pub solve: Option<SolveFor>,
    /// The owner asked for tensor parallelism, which is refused.
    pub tensor_parallel: bool,
    /// The owner answered a pending action.
    pub approval: Option<(Action, Answer)>,
    /// Slots the owner asked about without choosing them: a what-if.
    pub what_if: Vec<Found>,
    /// The what-if the owner adopted this turn.
    pub adopted: bool,
    /// "ok do that" with nothing to adopt.
    pub nothing_to_adopt: bool,
    /// Thermal samples or a training log were pasted in this turn: a path
    /// in the words around them names where they came from, not a file to
    /// read as well.
    pub pasted_data: bool,
    /// Pastes a reader read in this turn: a bare file name in the words
    /// around them ("here is the config.json:") names a paste, not a file.
    pub read_pastes: usize,
    /// "no" to the what-if on the table: the run stays as it is.
    pub dropped_what_if: bool,
    /// "unload the gpt-oss one" while an unload of several waits: the
    /// models it keeps.
    pub narrowed_unload: Option<Vec<String>>,
    /// "keep 2 then" while a what-if of batch 4 is open: the run's own
    /// value kept, in words, and the what-if dropped.
    pub kept_setting: Option<String>,
    /// A proposal that waited for a yes, set aside by an OOM report.
    pub set_aside: Option<Action>,
    /// The thermal check is named by words alone, on data already checked.
    pub thermal_again: bool,
    /// A trainer's start banner read in this turn (beside the run).
    pub banner: Option<crate::extract::trainer_banner::Banner>,
    /// The owner's words in this turn say an inference server failed.
    pub server_turn: bool,
    /// A stop the owner asked for by name ("stop vllm"), now waiting.
    pub stop_asked: Option<Action>,
    /// Processes the owner kept out of a stop ("yes, but not vllm").
    pub kept_by_owner: Vec<(u64, crate::readings::process::ProcessKind)>,
    /// A "yes, but …" whose exception names nothing that is pending.
    pub unclear_answer: bool,
    /// The owner said they have no root while the flush waited: declined,
    /// and the flush is their admin's to run.
    pub no_root: bool,
    /// An OOM pasted from another machine: its device's total capacity as
    /// printed ("15.71 GiB"); it opens no ladder here.
    pub foreign_oom: Option<String>,
    /// A yes or no to an action whose moment has passed (another session,
    /// or a listing over an hour old): why no command follows.
    pub stale_approval: Option<String>,
    /// Values no plan can use, each with why; the run keeps its old value.
    pub refused: Vec<String>,
    /// A model the owner named that the catalog does not have.
    pub unknown_model: Option<String>,
    /// Models named as alternatives this turn: the owner is asked which.
    pub model_choices: Vec<String>,
    /// The choices are the versions of one short name ("a qwen 32b").
    pub model_versions: bool,
    pub oom: Option<OomEvent>,
    /// A process listing was pasted.
    pub procs: bool,
    /// `ollama ps` was pasted.
    pub ollama: bool,
    /// A vLLM log was pasted.
    pub vllm_log: bool,
    /// The peak memory a pasted training log reports about its own run.
    pub trainer_memory: Option<crate::extract::trainer_memory::TrainerMemory>,
    pub evidence: Option<Evidence>,
    /// A "yes"/"no" arrived with nothing waiting for one.
    pub stray_answer: bool,
    /// The turn was about the thermal workflow (data, start time, a question).
    pub thermal: bool,
    /// "details" right after a thermal answer: its evidence, not the plan's.
    pub thermal_details: bool,
    /// "details" right after a pool answer: each process's reasoning.
    pub pool_details: bool,
    /// "is that bad?", "how do I stop it?": about the last answer.
    pub follow_up: Option<crate::extract::intent::FollowUp>,
    /// "how do I restart it at 0.4?": a restart at the owner's fraction is
    /// now waiting for their yes.
    pub restart_proposed: bool,
    pub request: Option<Request>,
    /// The owner's words, when the turn was words (questions are answered
    /// from them).
    pub words: Option<String>,
    /// The owner said they cannot paste `free` now.
    pub no_free_now: bool,
    /// The turn was words and pastes together (a yes inside it is no answer).
    pub mixed: bool,
    /// The owner said an inference server failed (not the training run).
    pub server_oom: bool,
    /// Pastes no reader knows, by their first line: said so, nothing taken.
    pub unread: Vec<String>,
    /// The last exception of a pasted traceback that is not an OOM: what
    /// the crash was instead.
    pub crash: Option<String>,
    /// "is it out of memory again?" with nothing pasted that says.
    pub oom_asked: bool,
    /// Pastes in a mixed turn that looked like a kind but could not be read;
    /// the rest of the turn is still read.
    pub paste_problems: Vec<ReadProblem>,
}

impl Absorbed {
    /// Did a paste in this turn give a reading?
    /// The knowledge topics a paste read in this turn answers better than
    /// the stock explainer: "what's using my memory?" over a `ps aux` is
    /// answered by the listing.
    pub fn topics_pastes_answer(&self) -> Vec<&'static str> {
        let mut covered = Vec::new();
        let free = self
            .updates
            .iter()
            .any(|u| u.slot == crate::dialogue::facts::SlotName::Free);
        // A listing that names who holds memory answers "what's using it?".
        let holders = match &self.evidence {
            Some(Evidence::SmiTable(t)) => !t.processes.is_empty(),
            Some(Evidence::ComputeApps(rows)) => !rows.is_empty(),
            _ => false,
        };
        if self.procs || self.ollama || free || holders {
            covered.push("low_available");
        }
        if self.thermal {
            covered.push("thermal_sampling");
        }
        covered
    }

    pub fn read_a_paste(&self) -> bool {
        self.procs
            || self.ollama
            || self.vllm_log
            || self.evidence.is_some()
            || self.oom.is_some()
            || self.trainer_memory.is_some()
            || self.banner.is_some()
            || self.thermal
            || self
                .updates
                .iter()
                .any(|u| u.slot == crate::dialogue::facts::SlotName::Free)
    }

    /// Nothing in the turn was understood: no setting, request, report,
    /// answer or reading.
    fn found_nothing(&self) -> bool {
        self.updates.is_empty()
            && self.request.is_none()
            && self.oom.is_none()
            && self.what_if.is_empty()
            && !self.thermal
            && self.approval.is_none()
            && self.unknown_model.is_none()
            && self.model_choices.is_empty()
            && self.solve.is_none()
            && self.refused.is_empty()
            && self.trainer_memory.is_none()
            && self.evidence.is_none()
            && !self.procs
            && !self.ollama
            && !self.vllm_log
            && !self.stray_answer
            && !self.tensor_parallel
            && !self.server_oom
    }

    /// Did the turn change the run the plan is for?
    pub fn changed_run(&self) -> bool {
        !self.updates.is_empty() || self.adopted
    }
}

pub fn run_shape(session: &Session, k: &Knowledge) -> RunShape {
    let f = &session.facts;
    // A mid-step OOM is judged on the step's peak: when loading binds the
    // plan, a smaller batch still lowers the step that failed. (A mid-load
    // OOM keeps the ladder's order: step 2 is proposed, with its caveat.)
    let mid_step = session
        .ladder
        .as_ref()
        .is_some_and(|l| l.phase == Some(crate::extract::oom::Phase::MidStep));
    let peak = |facts: &crate::dialogue::facts::Facts| {
        crate::dialogue::plan_turn::build_plan(facts, k).map(|(p, _)| {
            if mid_step {
                p.estimate.step_centi_gb
            } else {
                p.estimate.total_centi_gb
            }
        })
    };
    let moment = if mid_step { "training step" } else { "run" };
    let weights_over = crate::dialogue::plan_turn::build_plan(f, k).and_then(|(p, _)| {
        let weights = p
            .estimate
            .terms
            .iter()
            .find(|t| t.key == "weights")?
            .centi_gb;
        (weights >= p.budget.centi_gb).then_some((weights, p.budget.centi_gb))
    });
    let bf16_lora = if f
        .method
        .as_ref()
        .is_some_and(|m| m.value == crate::calc::setup::Method::Qlora)
    {
        crate::dialogue::plan_turn::build_plan(
            &changed_facts(f, Rung::Method, Timestamp::UNIX_EPOCH),
            k,
        )
        .map(|(p, _)| (p.estimate.total_centi_gb, p.budget.centi_gb))
    } else {
        None
    };
    let objective = f.objective_or_sft();
    let weights_centi = match objective {
        crate::calc::objective::Objective::Rl { .. } => {
            crate::dialogue::plan_turn::build_plan(f, k).and_then(|(p, _)| {
                p.estimate
                    .terms
                    .iter()
                    .find(|t| t.key == "weights")
                    .map(|t| t.centi_gb)
            })
        }
        _ => None,
    };
    let lengths = crate::dialogue::plan_turn::missing(f)
        .iter()
        .all(|s| *s != crate::dialogue::facts::SlotName::Pack);
    RunShape {
        bf16_lora,
        method: f.method.as_ref().map(|m| m.value),
        batch: f.batch.as_ref().map(|b| b.value),
        pack: f.pack.as_ref().map(|p| p.value),
        complete: f.model.is_some() && f.method.is_some() && f.batch.is_some() && lengths,
        objective,
        weights_centi,
        cuda_gib: k.spark("memory CUDA reports").value,
        now_centi: peak(f),
        moment,
        weights_over,
        after_centi: Rung::ALL.map(|r| {
            (r != Rung::Flush)
                .then(|| peak(&changed_facts(f, r, Timestamp::UNIX_EPOCH)))
                .flatten()
        }),
    }
}

/// Let the ladder decide what it waits for next; a newly proposed rung
/// becomes the pending action.
pub fn step_ladder(session: &mut Session, k: &Knowledge) {
    let shape = run_shape(session, k);
    let Some(ladder) = session.ladder.as_mut() else {
        return;
    };
    if let Some(rung) = advance(ladder, shape) {
        session.pending = Some(Action::Rung(rung));
    }
}

/// Fold one owner turn into the session: each segment by its own reader,
/// the pastes first so the words that ask about them find them read.
pub fn absorb(session: &mut Session, text: &str, at: Timestamp, k: &Knowledge) -> Absorbed {
    let before = session.pending.clone();
    let sources_before = session.data_sources.len();
    let mut out = absorb_turn(session, text, at, k);
    out.sources_before = sources_before;
    // A newly proposed action is tied to this moment and this session; so
    // is the same stop proposed again from a listing pasted now (its
    // evidence is this turn's, whoever proposed it before).
    let fresh_listing = out.procs || out.ollama;
    match &session.pending {
        None => session.pending_from = None,
        Some(now) if before.as_ref() != Some(now) || fresh_listing => {
            session.pending_from = Some((at, session.current.clone()));
        }
        Some(_) => {}
    }
    out
}

fn absorb_turn(session: &mut Session, text: &str, at: Timestamp, k: &Knowledge) -> Absorbed {
    let mut out = Absorbed {
        before: Some(session.facts.clone()),
        ..Absorbed::default()
    };
    let segs = segments(text);
    for seg in segs.iter().filter(|s| s.source == SegmentSource::Paste) {
        note_crash(&seg.text, &mut out);
    }
    if segs.len() == 1 {
        let shown = as_printed(text);
        match classify(&shown) {
            // Lines a program printed that no reader knows are data, never
            // the owner's words: nothing in them may set the run.
            Ok(Reading::Words)
                if printed(text)
                    || laid_out(text)
                    || segs[0].source == SegmentSource::Paste
                        && crate::extract::trainer_config::configures_a_server(text) =>
            {
                unread(text, &mut out)
            }
            // A path inside lines a program printed is never a file to open.
            Ok(Reading::Paths(_))
                if segs[0].source == SegmentSource::Paste && text.trim().lines().count() >= 2 =>
            {
                unread(text, &mut out)
            }
            Ok(Reading::Words) => {
                let words = crate::extract::segment::without_config_comments(&shown);
                absorb_reading(session, Reading::Words, &words, at, k, &mut out)
            }
            Ok(reading) => absorb_reading(session, reading, &shown, at, k, &mut out),
            Err(problem) => {
                out.problem = Some(problem);
                session.topic = Some(Topic::Unread);
                return out;
            }
        }
    } else {
        // "vLLM … hard-reset, journal line below": an OOM pasted under words
        // that say a server failed is the server's, not the training's.
        let said: Vec<&str> = segs
            .iter()
            .filter(|s| s.source == SegmentSource::Prose)
            .map(|s| s.text.as_str())
            .collect();
        out.server_turn = crate::dialogue::words::server_failed(&said.join("\n"));
        let mut prose: Vec<&str> = Vec::new();
        for seg in &segs {
            match seg.source {
                SegmentSource::Prose => prose.push(&seg.text),
                SegmentSource::Paste => {
                    let shown = as_printed(&seg.text);
                    match classify(&shown) {
                        // A path inside a paste is never a file to open.
                        Ok(Reading::Words | Reading::Paths(_)) => unread(&seg.text, &mut out),
                        Ok(reading) => {
                            out.read_pastes += 1;
                            absorb_reading(session, reading, &shown, at, k, &mut out)
                        }
                        Err(problem) => out.paste_problems.push(problem),
                    }
                }
            }
        }
        out.mixed = true;
        if !prose.is_empty() {
            absorb_words(session, &prose.join("\n"), at, k, &mut out);
            // The listing came before the words that completed the run: its
            // stop or unload is weighed again against the run now known.
            if (out.procs || out.ollama) && session.pending.is_none() {
                propose_stops(session, k);
            }
        }
    }
    out.oom_asked = out
        .words
        .as_deref()
        .is_some_and(crate::extract::oom::asked_oom)
        && out.oom.is_none();
    finish(session, out, k)
}

/// A pasted traceback that ends in another error than an OOM: what the
/// crash was instead, whichever reader took the lines around it.
fn note_crash(text: &str, out: &mut Absorbed) {
    if out.crash.is_none()
        && let Some(exception) = crate::extract::traceback::last_exception(text)
        && crate::extract::oom::oom_report(&exception).is_none()
        // A chained traceback with an OOM in it is the OOM's.
        && !crate::extract::oom::looks_like_oom_paste(text)
    {
        out.crash = Some(exception);
    }
}

/// A paste no reader knows: said so, and its memory report (torchtune's
/// "Memory stats") still read.
fn unread(text: &str, out: &mut Absorbed) {
    if let Some(m) = crate::extract::trainer_memory::trainer_memory(text) {
        out.trainer_memory = Some(m);
        return;
    }
    out.unread.push(first_line(text));
}

/// A paste named by its first line, cut to 80 characters.
fn first_line(text: &str) -> String {
    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    first.trim().chars().take(80).collect()
}

/// One reading changes the state its workflow owns.
fn absorb_reading(
    session: &mut Session,
    reading: Reading,
    text: &str,
    at: Timestamp,
    k: &Knowledge,
    out: &mut Absorbed,
) {
    match reading {
        Reading::Free(reading) => {
            out.updates.push(session.facts.absorb_free(
                FreePaste {
                    raw: text.to_string(),
                    reading,
                },
                at,
            ));
            after_memory_paste(session, k);
        }
        Reading::Meminfo(m) => {
            out.updates.push(session.facts.absorb_free(
                FreePaste {
                    raw: text.to_string(),
                    reading: from_meminfo(&m),
                },
                at,
            ));
            after_memory_paste(session, k);
        }
        Reading::Procs(_) => {
            session.procs = Some(Known {
                value: text.to_string(),
                words: "your pasted process listing".into(),
                at,
            });
            out.procs = true;
            propose_stops(session, k);
        }
        Reading::OllamaPs(_) => {
            session.ollama = Some(Known {
                value: text.to_string(),
                words: "your pasted `ollama ps`".into(),
                at,
            });
            out.ollama = true;
            propose_stops(session, k);
        }
        Reading::SmiQuery(q) => out.evidence = Some(Evidence::SmiQuery(q)),
        Reading::SmiCsv(c) => out.evidence = Some(Evidence::SmiCsv(c)),
        Reading::OllamaLog(log) => {
            out.evidence = Some(Evidence::OllamaLog(log));
        }
        Reading::VllmLog(log) => {
            session.vllm_log = Some(Known {
                value: log,
                words: "your pasted vLLM log".into(),
                at,
            });
            out.vllm_log = true;
        }
        Reading::SmiTable(t) => out.evidence = Some(Evidence::SmiTable(t)),
        Reading::ComputeApps(p) => out.evidence = Some(Evidence::ComputeApps(p)),
        Reading::OomPaste(_) if out.server_turn => out.server_oom = true,
        // An OOM on a card far smaller than a Spark's pool ("15.71 GiB total
        // capacity") happened on another machine: evidence, not this box's.
        Reading::OomPaste(report)
            if report
                .figures
                .as_ref()
                .and_then(|f| f.capacity.as_ref())
                .is_some_and(|c| c.bytes < FOREIGN_CAPACITY_BYTES) =>
        {
            out.foreign_oom = report
                .figures
                .as_ref()
                .and_then(|f| f.capacity.as_ref())
                .map(|c| c.text.clone());
        }
        Reading::OomPaste(report) => {
            open_or_result(session, &report, at, out);
            step_ladder(session, k);
        }
        Reading::Banner(b) => {
            session.banner_batches = b.per_device_batch.clone();
            out.banner = Some(b);
        }
        Reading::ThermalCsv | Reading::TrainLog => {
            out.trainer_memory = crate::extract::trainer_memory::trainer_memory(text);
            out.banner = crate::extract::trainer_banner::banner(text);
            session.data_sources.push(Known {
                value: crate::dialogue::thermal_turn::Source::Paste(text.to_string()),
                words: "your paste".into(),
                at,
            });
            out.thermal = true;
            out.pasted_data = true;
        }
        Reading::Paths(paths) => {
            for path in paths {
                session.data_sources.push(Known {
                    value: crate::dialogue::thermal_turn::Source::File(path.clone()),
                    words: path,
                    at,
                });
            }
            out.thermal = true;
        }
        Reading::ConfigJson(arch) => {
            let label = session
                .unknown_model
                .take()
                .map_or("your pasted config.json".to_string(), |n| {
                    format!("{n} (your pasted config.json)")
                });
            out.updates
                .extend(session.facts.absorb_config(*arch, label, at));
        }
        Reading::TrainerConfig(cfg) => {
            for found in crate::dialogue::trainer::slots_of(&cfg, k) {
                // A model id the catalog does not know is said, as it is
                // for one typed in words, never dropped.
                if let crate::extract::slots::Slot::UnknownModel(name) = &found.slot {
                    out.unknown_model = Some(name.clone());
                    session.unknown_model = Some(name.clone());
                }
                out.updates.extend(session.facts.absorb(&found, at));
            }
        }
        Reading::Words => {
            // torchtune's "Memory stats" block alone reads as words.
            out.trainer_memory = crate::extract::trainer_memory::trainer_memory(text);
            absorb_words(session, text, at, k, out)
        }
    }
}

/// What every turn does after its segments are read: the topic and the
/// follow-up.
fn finish(session: &mut Session, mut out: Absorbed, k: &Knowledge) -> Absorbed {
    // Several lines of words in which nothing was found were printed by
    // something: said unread, not "found nothing in your words".
    if let Some(words) = &out.words
        && words.lines().filter(|l| !l.trim().is_empty()).count() >= 2
        && out.found_nothing()
    {
        out.unread.push(first_line(words));
    }
    if out.updates.is_empty() && !out.adopted && out.approval.is_none() {
        out.before = None;
    }
    if out.request == Some(Request::Plan(crate::reply::PlanDetail::Full)) {
        details_of_topic(session, &mut out);
    }
    if out.updates.is_empty()
        && out.oom.is_none()
        && !out.thermal
        && let Some(words) = &out.words
    {
        out.follow_up = crate::extract::intent::follow_up(words);
        // "how do I restart it at 0.4?" about the vLLM server just read:
        // the restart at their fraction, proposed for their yes.
        if let Some(f) = crate::extract::share::restart_at(words)
            && session.vllm_log.is_some()
            && session.pending.is_none()
        {
            let served = session
                .vllm_log
                .as_ref()
                .and_then(|l| l.value.served_model.clone());
            session.pending = Some(Action::Refraction(f, served));
            out.follow_up = Some(crate::extract::intent::FollowUp::Advice);
            out.restart_proposed = true;
        }
        // "What would you change?" after a vLLM log that leaves the run no
        // room: a restart at a lower fraction, for the owner's yes.
        if out.follow_up == Some(crate::extract::intent::FollowUp::Advice)
            && matches!(
                session.topic,
                Some(Topic::Server | Topic::Plan | Topic::Memory)
            )
            && session.pending.is_none()
            && let Some(f) = crate::dialogue::vllm_turn::refraction(session, k)
        {
            let served = session
                .vllm_log
                .as_ref()
                .and_then(|l| l.value.served_model.clone());
            session.pending = Some(Action::Refraction(f, served));
        }
    }
    if let Some(topic) = topic_of(&out) {
        session.topic = Some(topic);
    }
    session.server_failed |= out.server_oom;
    out
}

/// "details" (read as "full plan") right after a thermal or pool answer
/// asks for that answer's evidence, not the plan's worksheet.
fn details_of_topic(session: &Session, out: &mut Absorbed) {
    match session.topic {
        Some(Topic::Thermal) => {
            out.thermal = true;
            out.thermal_details = true;
        }
        Some(Topic::Pool) if session.procs.is_some() || session.ollama.is_some() => {
            out.procs = session.procs.is_some();
            out.ollama = session.ollama.is_some();
            out.pool_details = true;
        }
        _ => return,
    }
    out.request = None;
}

/// The workflow a turn was about, when it was about one.
fn topic_of(a: &Absorbed) -> Option<Topic> {
    let only_memory = !a.updates.is_empty()
        && a.updates
            .iter()
            .all(|u| u.slot == crate::dialogue::facts::SlotName::Free);
    // A server killed for memory (dmesg's oom-killer invoked by a vLLM
    // worker) is the server's topic: "what do I change?" is about its knobs.
    if a.server_oom && a.oom.is_none() {
        Some(Topic::Server)
    } else if a.oom.is_some() {
        Some(Topic::Oom)
    } else if a.thermal {
        Some(Topic::Thermal)
    } else if a.procs || a.ollama {
        Some(Topic::Pool)
    } else if a.vllm_log
        || matches!(a.evidence, Some(Evidence::OllamaLog(_)))
        || a.words
            .as_deref()
            .and_then(crate::extract::share::share_question)
            .is_some()
    {
        // "can I keep vllm at 0.5 while I train?" makes the server the topic
        // of what follows ("what's the most I could give it?").
        Some(Topic::Server)
    } else if a.evidence.is_some() {
        Some(Topic::Gpu)
    } else if only_memory {
        Some(Topic::Memory)
    } else if a.changed_run()
        || a.solve.is_some()
        || matches!(a.request, Some(Request::Plan(_) | Request::Summary))
    {
        Some(Topic::Plan)
    } else if !a.unread.is_empty() || !a.paste_problems.is_empty() {
        Some(Topic::Unread)
    } else {
        None
    }
}

/// A fresh memory paste may be the evidence a finished ladder asked for.
fn after_memory_paste(session: &mut Session, k: &Knowledge) {
    if session.ladder.as_ref().is_some_and(Ladder::active) {
        step_ladder(session, k);
    }
}

/// After a pool paste: propose the stops the report recommends, unless the
/// owner already declined them.
fn propose_stops(session: &mut Session, k: &Knowledge) {
    // A stop or unload waiting for an answer rests on the listing before
    // this one: the new listing replaces it (a pid gone from it may be
    // reused by another process by now).
    if matches!(session.pending, Some(Action::Stop(_) | Action::Unload(_))) {
        session.pending = None;
    }
    let stop = pool_report(session, k).and_then(|r| stop_action(&r));
    if let Some(action) = stop.or_else(|| unload_action(session, k))
        && session.declined(&action).is_none()
    {
        session.pending = Some(action);
    }
}

/// An OOM report opens the ladder, or is the result of the step in flight.
pub fn open_or_result(
    session: &mut Session,
    report: &crate::extract::oom::OomReport,
    at: Timestamp,
    out: &mut Absorbed,
) {
    let waiting_result = session
        .ladder
        .as_ref()
        .is_some_and(|l| l.active() && matches!(l.awaiting, Awaiting::Result(_)));
    if waiting_result {
        let ladder = session.ladder.as_mut().expect("checked above");
        if let Some(rung) = record_result(ladder, StepResult::StillOom) {
            out.oom = Some(OomEvent::Result(rung, StepResult::StillOom));
        }
    } else if let Some(ladder) = session.ladder.as_mut().filter(|l| l.active()) {
        // A new report while the ladder is open adds what it says.
        if ladder.phase.is_none() && report.phase.is_some() {
            ladder.phase = report.phase;
            out.oom = Some(OomEvent::PhaseSet);
        } else if let Some(figures) = report.figures.clone()
            && ladder.figures.as_ref() != Some(&figures)
        {
            ladder.figures = Some(figures);
            out.oom = Some(OomEvent::MoreEvidence);
        } else {
            out.oom = Some(OomEvent::Asked);
        }
    } else {
        session.ladder = Some(Ladder::open(report, at));
        // A stop, unload or restart that waited for a yes is set aside,
        // and said so: the OOM's step 1 is the question now.
        if let Some(action) = session.pending.take()
            && !matches!(action, Action::Rung(_))
        {
            out.set_aside = Some(action);
        }
        out.oom = Some(OomEvent::Opened);
    }
}

/// The owner's own account of a step they took before headroom proposed it.
pub fn record_jump(session: &mut Session, rung: Rung, words: &str, at: Timestamp) {
    // "I precomputed the dataset" on a supervised run names no rung of it.
    if !crate::dialogue::ladder::belongs(rung, session.facts.objective_or_sft()) {
        return;
    }
    let Some(ladder) = session.ladder.as_mut() else {
        return;
    };
    ladder.set(rung, RungStatus::OwnerDid(words.trim().to_string()));
    // "Halved" with no number: the change is known, so plan with it.
    if words.to_ascii_lowercase().contains("halv") && matches!(rung, Rung::Batch | Rung::Packing) {
        session.facts = changed_facts(&session.facts, rung, at);
    }
    if let Some(Action::Rung(p)) = &session.pending
        && *p == rung
    {
        session.pending = None;
        if let Some(ladder) = session.ladder.as_mut() {
            ladder.awaiting = Awaiting::Nothing;
        }
    }
}
