//! The shared-pool workflow in the dialogue: a pasted process listing or
//! `ollama ps`, each judged by its cap against the run's need, and a stop or
//! unload proposed only for the owner's yes.

use crate::calc::budget::{from_free, nominal};
use crate::calc::pool::{PoolReport, Recommendation};
use crate::calc::units::show_centi;
use crate::calc::verdict::{Verdict, judge, share_of_budget};
use crate::dialogue::ladder::{Action, Service};
use crate::dialogue::plan_turn::build_plan;
use crate::dialogue::session::{Session, when};
use crate::extract::ollama_ps::{OllamaModel, parse_ollama_ps};
use crate::extract::ps::{ProcessKind, parse_ps};
use crate::knowledge::Knowledge;
use crate::reply::{Block, PoolView};

/// The run's binding peak and where it comes from ("your run needs X GB").
pub(crate) fn need(session: &Session, k: &Knowledge) -> Option<(u64, String)> {
    let (plan, _) = build_plan(&session.facts, k)?;
    let i = &plan.input;
    Some((
        plan.estimate.total_centi_gb,
        format!(
            "the plan's binding peak for {} {}, {}, batch {}, pack {}, {}, checkpointing {}: the settings you gave plus the defaults the plan states",
            i.model.display,
            i.method.label(),
            i.dtype.key(),
            i.batch,
            i.pack,
            i.optimizer.key(),
            if i.grad_checkpointing { "on" } else { "off" }
        ),
    ))
}

/// The pool report for the listing the owner pasted, re-read from its raw
/// text, against the current plan's need.
pub fn pool_report(session: &Session, k: &Knowledge) -> Option<PoolReport> {
    let raw = &session.procs.as_ref()?.value;
    let processes = parse_ps(raw).ok()?;
    let need = need(session, k).map(|(centi, _)| centi as f64 * 1e7);
    // What the listing's other processes hold now comes off the budget the
    // caps and the run share, as in the verdict.
    let beside: u64 = held_beside_vllm(session, k).iter().map(|(_, c)| *c).sum();
    Some(PoolReport {
        damaged_pids: crate::extract::ps::damaged_pids(raw),
        ..crate::calc::pool::assess_beside(&processes, need, beside, k)
    })
}

pub fn ollama_models(session: &Session) -> Vec<OllamaModel> {
    session
        .ollama
        .as_ref()
        .and_then(|o| parse_ollama_ps(&o.value).ok())
        .unwrap_or_default()
}

/// The stops (or unloads) the pool calls for, as one action to approve.
/// Whether the listing holds a vLLM server: its engine processes then stop
/// with it, so they are never a stop of their own.
fn lists_vllm_server(report: &PoolReport) -> bool {
    report
        .processes
        .iter()
        .any(|v| v.process.kind == ProcessKind::Vllm)
}

pub fn stop_action(report: &PoolReport) -> Option<Action> {
    let has_server = lists_vllm_server(report);
    let list: Vec<(u64, ProcessKind)> = report
        .processes
        .iter()
        .filter(|v| v.recommendation == Recommendation::Stop)
        // Stopping the server stops its engine: one stop, not two.
        .filter(|v| !(has_server && v.process.kind == ProcessKind::VllmEngine))
        .map(|v| (v.process.pid, v.process.kind))
        .collect();
    (!list.is_empty()).then_some(Action::Stop(list))
}

/// What the servers the owner pasted hold, when no `free` paste counts
/// them already: each loaded Ollama model (`ollama ps`, GB = 10^9) and a
/// vLLM log's whole fraction (it claims it at start).
pub fn held_beside(session: &Session, k: &Knowledge) -> Vec<(String, u64)> {
    held_beside_except(session, k, &[])
}

/// What is held beside the run once the listed processes `stopped` are gone.
pub fn held_beside_except(session: &Session, k: &Knowledge, stopped: &[u64]) -> Vec<(String, u64)> {
    held(session, k, stopped, true)
}

/// What is held beside a vLLM server and the run: the same, less vLLM's
/// own claim (the share answer counts that claim itself).
pub fn held_beside_vllm(session: &Session, k: &Knowledge) -> Vec<(String, u64)> {
    held(session, k, &[], false)
}

fn held(session: &Session, k: &Knowledge, stopped: &[u64], with_vllm: bool) -> Vec<(String, u64)> {
    // What the owner said is loaded counts unless a `free` pasted since
    // already shows it.
    let said = session
        .held_said
        .as_ref()
        .filter(|h| session.facts.free.as_ref().is_none_or(|f| f.at < h.at))
        .map(|h| h.value.clone());
    if session.facts.free.is_some() {
        return said.into_iter().collect();
    }
    let mut held: Vec<(String, u64)> = ollama_models(session)
        .into_iter()
        .map(|m| {
            (
                format!("`{}` in Ollama", m.name),
                m.size_bytes.div_ceil(10_000_000),
            )
        })
        .collect();
    // A vLLM that refused to start holds nothing: its fraction is what it
    // wanted, not what it took.
    let running_log = session
        .vllm_log
        .as_ref()
        .filter(|l| l.value.refused.is_none())
        .and_then(|l| l.value.claimed_fraction());
    // Without vLLM: its claim is the share answer's own term.
    if with_vllm && let Some(f) = running_log {
        held.push((
            format!("vLLM's {} fraction", crate::calc::units::plain(f)),
            crate::calc::vllm_share::share(f, None, k).claim_centi_gb,
        ));
    } else if with_vllm && session.vllm_log.is_none() {
        // A vLLM server in the listing claimed its whole fraction at start
        // (its engine process is the same claim).
        for f in listed_vllm_fractions(session, k) {
            held.push((
                format!(
                    "vLLM's {} fraction (your listing)",
                    crate::calc::units::plain(f)
                ),
                crate::calc::vllm_share::share(f, None, k).claim_centi_gb,
            ));
        }
    }
    held.extend(listed_resident(
        session,
        !held.is_empty() && session.ollama.is_some(),
        stopped,
    ));
    held.extend(said);
    held
}

/// What the listed processes outside vLLM's claim hold now: each one's RSS,
/// when it is at least 1 GB (smaller ones are inside the OS reserve). An
/// uncapped server can grow past it; this is the least it takes. Ollama's
/// runners are left out when `ollama ps` already counted their models.
fn listed_resident(session: &Session, ollama_counted: bool, stopped: &[u64]) -> Vec<(String, u64)> {
    use crate::extract::ps::parse_ps;
    let Some(procs) = session.procs.as_ref().and_then(|p| parse_ps(&p.value).ok()) else {
        return Vec::new();
    };
    let mut seen = std::collections::BTreeSet::new();
    procs
        .into_iter()
        .filter(|p| !matches!(p.kind, ProcessKind::Vllm | ProcessKind::VllmEngine))
        .filter(|p| !(ollama_counted && p.kind == ProcessKind::OllamaRunner))
        .filter(|p| !stopped.contains(&p.pid))
        // A pid listed twice is flagged elsewhere, never counted twice.
        .filter(|p| seen.insert(p.pid))
        .filter_map(|p| {
            let centi = (p.rss_kib? * 1024).div_ceil(10_000_000);
            (centi >= 100).then(|| {
                (
                    format!(
                        "{} (pid {}), resident now (your listing)",
                        p.kind.label(),
                        p.pid
                    ),
                    centi,
                )
            })
        })
        .collect()
}

/// Each listed vLLM server's fraction: its flag, or vLLM's default.
pub fn listed_vllm_fractions(session: &Session, k: &Knowledge) -> Vec<f64> {
    use crate::extract::ps::{ProcessKind, parse_ps};
    let default = k.spark("vLLM default gpu-memory-utilization").value;
    session
        .procs
        .as_ref()
        .and_then(|p| parse_ps(&p.value).ok())
        .map(|ps| {
            ps.into_iter()
                .filter(|p| p.kind == ProcessKind::Vllm)
                .map(|p| p.utilization_flag.unwrap_or(default))
                .collect()
        })
        .unwrap_or_default()
}

/// The unload to propose when the run does not fit beside Ollama's models.
pub fn unload_action(session: &Session, k: &Knowledge) -> Option<Action> {
    let models = ollama_models(session);
    if models.is_empty() {
        return None;
    }
    let held: u64 = models.iter().map(|m| m.size_bytes).sum();
    let (need, _) = need(session, k)?;
    let left = match &session.facts.free {
        Some(f) => from_free(&f.value.reading, k).centi_gb,
        None => nominal(k)
            .centi_gb
            .saturating_sub(held.div_ceil(10_000_000)),
    };
    (need > left).then(|| Action::Unload(models.into_iter().map(|m| m.name).collect()))
}

/// Ollama's loaded models against the run: what is left beside them.
fn ollama_blocks(session: &Session, k: &Knowledge) -> Vec<Block> {
    let models = ollama_models(session);
    let mut out = Vec::new();
    if models.is_empty() {
        out.push(Block::Text("`ollama ps` lists no loaded model: the Ollama server holds little on its own, and loads a model only when a request comes.".into()));
        return out;
    }
    let held: u64 = models.iter().map(|m| m.size_bytes).sum();
    out.push(Block::List(
        models
            .iter()
            .map(|m| {
                format!(
                    "`{}` holds {} ({} bytes as Ollama prints GB = 10^9), on {}, until {}{}",
                    m.name,
                    m.size_text,
                    m.size_bytes,
                    m.processor,
                    m.until,
                    if m.held_forever() {
                        ": held Forever, it never unloads by itself"
                    } else {
                        ""
                    }
                )
            })
            .collect(),
    ));
    let held_centi = held.div_ceil(10_000_000);
    let (budget, basis) = match &session.facts.free {
        Some(f) => (
            from_free(&f.value.reading, k),
            format!(
                "your pasted `free` ({}), which already counts what Ollama holds if it was loaded then",
                when(f.at)
            ),
        ),
        None => (
            nominal(k),
            "an idle Spark's nominal budget (no `free -g` yet)".into(),
        ),
    };
    let left = if session.facts.free.is_some() {
        budget.centi_gb
    } else {
        budget.centi_gb.saturating_sub(held_centi)
    };
    let Some((need, source)) = need(session, k) else {
        out.push(Block::Text(format!(
            "Ollama holds {} GB of the pool. Describe the run (model, method, batch, packing) and I will say whether it fits beside them.",
            show_centi(held_centi)
        )));
        return out;
    };
    let arithmetic = if session.facts.free.is_some() {
        format!("budget {} GB from {basis}", show_centi(left))
    } else {
        format!(
            "{} GB budget from {basis} − {} GB Ollama holds = {} GB",
            show_centi(budget.centi_gb),
            show_centi(held_centi),
            show_centi(left)
        )
    };
    if need <= left {
        // Judged as the plan judges a run against a `free -g` taken with
        // Ollama's models loaded: above the tight line is tight, not a fit.
        let fit = if judge(need, left, k).verdict == Verdict::Tight {
            let tight = k.spark("tight above");
            format!(
                "It fits beside them, but tight: {} GB is {:.1} % of the {} GB left, margin +{} GB; tight above {:.0} % ({})",
                show_centi(need),
                share_of_budget(need, left),
                show_centi(left),
                show_centi(left - need),
                tight.value * 100.0,
                tight.cite
            )
        } else {
            format!("It fits beside them, margin {} GB", show_centi(left - need))
        };
        out.push(Block::Text(format!(
            "Your run needs {} GB ({source}); beside Ollama: {arithmetic}. {fit}. Keep in mind Ollama loads another model on the next request for one that is not loaded.",
            show_centi(need),
        )));
    } else {
        let names: Vec<String> = models.iter().map(|m| m.name.clone()).collect();
        out.push(Block::Text(format!(
            "Your run needs {} GB ({source}); beside Ollama: {arithmetic}. They do not fit together: {} GB short. Unloading the model frees what it holds and keeps the server (it loads the model again on the next request); stopping the server is only needed if something keeps reloading it.",
            show_centi(need),
            show_centi(need - left)
        )));
        let action = Action::Unload(names);
        if session.pending.as_ref() == Some(&action) {
            out.push(Block::Text(format!(
                "Shall I tell you how to {}? It changes what is running, so it is your call: reply yes or no.",
                action.label()
            )));
        }
    }
    out
}

/// The pool part of a reply: the process listing's report, and Ollama's
/// models when `ollama ps` was pasted.
pub fn pool_blocks(session: &Session, k: &Knowledge, full: bool) -> Vec<Block> {
    let mut out = Vec::new();
    if let Some(report) = pool_report(session, k) {
        let need_source = need(session, k).map_or("unknown".into(), |(_, s)| s);
        let stop = stop_action(&report);
        out.push(Block::Pool(Box::new(PoolView {
            report,
            need_source,
            full,
        })));
        match (&session.pending, stop) {
            (Some(action @ Action::Stop(_)), _) => out.push(Block::Text(format!(
                "Shall I tell you how to {}? That stops work that is running, so it is your call: reply yes or no.",
                action.label()
            ))),
            (_, Some(action)) => {
                if let Some(d) = session.declined(&action) {
                    out.push(Block::Text(format!(
                        "You declined to {} on {}; I won't suggest it again unless you ask. Without it: shrink the run (shorter packing, then a smaller batch) until it fits beside them, or restart vLLM with a lower `--gpu-memory-utilization`.",
                        action.label(),
                        when(d.at)
                    )));
                }
            }
            _ => {}
        }
    }
    if session.ollama.is_some() {
        out.extend(ollama_blocks(session, k));
    }
    out
}

/// "stop vllm", "ok, kill it after all", "changed my mind, shut down the
/// server": the owner asks for a stop in words, not as an answer.
static STOP_REQUEST: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    crate::extract::re(
        r"(?i)^\s*(?:(?:ok(?:ay)?|actually|fine|alright|right|so|then|hmm+|well|i(?:'ve| have)? changed my mind|changed my mind|on second thought)[,.!]?\s*)*(?:please\s+|go ahead and\s+|let'?s\s+|i want to\s+|i'?d like to\s+)?(?:stop|kill|shut\s+down|terminate)\s+(?:the\s+|that\s+|this\s+|my\s+)?(vllm|ollama|llama[.-]?cpp|llama-server|server|servers|it|them)\b(?:\s+(?:server|servers|process|processes|then|after\s+all|anyway|please|now|too))*\s*[.!]*\s*$",
    )
});

/// The stop the owner asked for by name, of the listed servers the words
/// name (every listed server for "it", "them" or "the server"), even one
/// declined before: asking again is how a "no" is lifted.
pub fn asked_stop(session: &Session, words: &str, k: &Knowledge) -> Option<Action> {
    let c = STOP_REQUEST.captures(words.trim())?;
    let named = c[1].to_ascii_lowercase();
    let report = pool_report(session, k)?;
    let family = |kind: ProcessKind| match kind {
        ProcessKind::Vllm | ProcessKind::VllmEngine => "vllm",
        ProcessKind::OllamaServer | ProcessKind::OllamaRunner => "ollama",
        _ => "llama",
    };
    let has_server = lists_vllm_server(&report);
    let list: Vec<(u64, ProcessKind)> = report
        .processes
        .iter()
        .filter(|v| v.recommendation != Recommendation::NotJudged)
        .filter(|v| !matches!(v.process.kind, ProcessKind::Trainer | ProcessKind::Unknown))
        .filter(|v| !(has_server && v.process.kind == ProcessKind::VllmEngine))
        .filter(|v| {
            matches!(named.as_str(), "server" | "servers" | "it" | "them")
                || named.starts_with(family(v.process.kind))
        })
        .map(|v| (v.process.pid, v.process.kind))
        .collect();
    (!list.is_empty()).then_some(Action::Stop(list))
}

/// "cool, unload them anyway", "unload granite3.3:2b": an unload of Ollama's
/// loaded models asked by the owner, proposed for a yes like a stop.
static UNLOAD_REQUEST: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    crate::extract::re(
        r"(?i)^\s*(?:(?:ok(?:ay)?|cool|fine|alright|right|so|then|well|actually|great)[,.!]?\s*)*(?:please\s+|go ahead and\s+|let'?s\s+|just\s+|i want to\s+|(?:can|could|would|will)\s+(?:you|i|we)\s+(?:please\s+|just\s+)?)?unload\s+(them|it|all|everything|both|the models?|ollama(?:'s models)?|(?:the\s+)?[\w.:/-]+(?:\s+(?:one|model))?)(?:\s+(?:anyway|then|too|now|please|after all|all|both|for me))*\s*[.!?]*(?:\s+[^?]*[.!])?\s*$",
    )
});

/// The unload the owner asked for, of the models `ollama ps` listed.
pub fn asked_unload(session: &Session, words: &str) -> Option<Action> {
    let c = UNLOAD_REQUEST.captures(words.trim())?;
    let named = c[1].to_ascii_lowercase();
    let all = matches!(
        named.as_str(),
        "them" | "it" | "all" | "everything" | "both" | "the models" | "the model"
    ) || named.starts_with("ollama");
    // "the 35b one" names the listed model with a `35b` in its name.
    let part = named
        .trim_start_matches("the ")
        .trim_end_matches(" one")
        .trim_end_matches(" model")
        .to_string();
    let in_name = |name: &str| {
        let name = name.to_ascii_lowercase();
        name.starts_with(&named)
            || name
                .split(|c: char| "/:._-".contains(c))
                .any(|piece| piece == part)
    };
    let models: Vec<String> = ollama_models(session)
        .into_iter()
        .map(|m| m.name)
        .filter(|name| all || in_name(name))
        .collect();
    (!models.is_empty()).then_some(Action::Unload(models))
}

/// A stop asked in the owner's words, in any mood: "stop ollama anyway",
/// "could I stop the reasoning one (container name vllm) while I train?".
static STOP_VERB: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    crate::extract::re(
        r"(?i)\b(?:stop|kill|shut\s*down|shut\s+(?:it|\w+)\s+down|take\s+(?:it\s+|\w+\s+)?down|turn\s+(?:it\s+)?off|pause)\b",
    )
});
/// Words that keep the server: "without stopping", "don't stop", "rather not".
static KEEP_WORDS: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    crate::extract::re(
        r"(?i)\b(?:don'?t|do not|never|without|rather not|not|no need to|instead of|can'?t|cannot)\s+(?:\w+\s+)?(?:stop|kill|shut|take|turn|pause)",
    )
});
/// The container the words name: "container name vllm", "the vllm-coder
/// container", "docker stop vllm".
static CONTAINER: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    crate::extract::re(
        r"(?i)\bcontainer\s+(?:name(?:d)?|called|id)\s*[:=]?\s*[`'\x22]?([A-Za-z0-9][\w.-]*)|\bdocker\s+(?:stop|kill)\s+([A-Za-z0-9][\w.-]*)|\bthe\s+[`'\x22]?([A-Za-z0-9][\w.-]*)[`'\x22]?\s+container\b",
    )
});
static OLLAMA: std::sync::LazyLock<regex::Regex> =
    std::sync::LazyLock::new(|| crate::extract::re(r"(?i)\bollama\b"));

/// A server the owner asks to stop by name when no listing gives its pid:
/// a container they name, or the Ollama service. Still a proposal: the
/// owner's yes comes first.
pub fn asked_service_stop(session: &Session, words: &str, k: &Knowledge) -> Option<Action> {
    // "do I have to stop ollama?" asks whether, not for the stop.
    if !STOP_VERB.is_match(words) || KEEP_WORDS.is_match(words) || STOP_QUESTION.is_match(words) {
        return None;
    }
    if let Some(c) = CONTAINER.captures(words) {
        let name = c.get(1).or(c.get(2)).or(c.get(3))?.as_str();
        if !matches!(
            name.to_ascii_lowercase().as_str(),
            "a" | "the" | "one" | "it"
        ) {
            return Some(Action::StopService(Service::Container(name.to_string())));
        }
    }
    // Ollama with a listed pid is `asked_stop`'s; without one, its service.
    let listed = pool_report(session, k).is_some_and(|r| {
        r.processes.iter().any(|v| {
            matches!(
                v.process.kind,
                ProcessKind::OllamaServer | ProcessKind::OllamaRunner
            )
        })
    });
    (OLLAMA.is_match(words) && !listed).then_some(Action::StopService(Service::Ollama))
}

/// "Do I have to stop vllm first?", "should I kill ollama?": a question
/// whose answer is the pool's verdict on that server.
static STOP_QUESTION: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    crate::extract::re(
        r"(?i)\b(?:do|must|should|shall|need|would)\s+(?:i|we)\s+(?:have\s+to\s+|need\s+to\s+|got\s+to\s+)?(?:stop|kill|shut\s+down|turn\s+off|pause|unload)\b|\b(?:have|need)\s+to\s+(?:stop|kill|shut\s+down)\b|\b(?:i|we)\s+(?:must|should|gotta)\s+(?:stop|kill|shut\s+down|turn\s+off|unload)\b",
    )
});

/// The answer, first, to a stop question asked beside (or after) a listing:
/// yes or no for the server it names (every server when it names none),
/// with the pool's reason.
pub fn stop_question_answer(session: &Session, words: &str, k: &Knowledge) -> Option<String> {
    if !STOP_QUESTION.is_match(words) {
        return None;
    }
    let Some(report) = pool_report(session, k) else {
        return stop_question_unlisted(session, words, k);
    };
    let lower = words.to_ascii_lowercase();
    let servers: Vec<_> = report
        .processes
        .iter()
        .filter(|v| {
            !matches!(
                v.process.kind,
                ProcessKind::Trainer | ProcessKind::Unknown | ProcessKind::VllmEngine
            )
        })
        .collect();
    let named: Vec<_> = servers
        .iter()
        .filter(|v| {
            let family = match v.process.kind {
                ProcessKind::Vllm | ProcessKind::VllmEngine => "vllm",
                ProcessKind::OllamaServer | ProcessKind::OllamaRunner => "ollama",
                _ => "llama",
            };
            lower.contains(family)
        })
        .copied()
        .collect();
    let asked = if named.is_empty() { servers } else { named };
    if asked.is_empty() {
        return None;
    }
    let lines: Vec<String> = asked
        .iter()
        .map(|v| {
            format!(
                "{} (pid {}): {}",
                v.process.kind.label(),
                v.process.pid,
                v.reason
            )
        })
        .collect();
    let any_stop = asked
        .iter()
        .any(|v| v.recommendation == Recommendation::Stop);
    Some(if any_stop {
        format!(
            "Yes, for this run: {}. I stop nothing myself: the stop waits for your yes.",
            lines.join("; ")
        )
    } else {
        format!("No, it can keep running: {}.", lines.join("; "))
    })
}

/// "so I must stop vllm?" with no listing pasted: the run alone says
/// whether any stop could be enough; what the server holds needs its
/// command line.
fn stop_question_unlisted(session: &Session, words: &str, k: &Knowledge) -> Option<String> {
    let lower = words.to_ascii_lowercase();
    let server = [
        ("vllm", "vLLM"),
        ("ollama", "Ollama"),
        ("llama.cpp", "llama.cpp"),
        ("sglang", "SGLang"),
    ]
    .into_iter()
    .find(|(key, _)| lower.contains(key))?
    .1;
    let (plan, _) = crate::dialogue::plan_turn::build_plan(&session.facts, k)?;
    let (peak, budget) = (
        crate::calc::units::show_centi(plan.estimate.total_centi_gb),
        crate::calc::units::show_centi(plan.budget.centi_gb),
    );
    if plan.judgement.verdict == crate::calc::verdict::Verdict::DoesNotFit {
        let options = match crate::dialogue::follow_up::alternatives_text(&plan) {
            none if none.is_empty() => "shorter packing first, then a smaller batch".to_string(),
            smaller => smaller,
        };
        return Some(format!(
            "No: stopping {server} would not be enough. Your run alone needs {peak} GB of the {budget} GB budget, so {server} can keep serving and the run has to be made smaller whatever it does ({options}). Each change is yours to make; say \"what if …\" to see one."
        ));
    }
    Some(format!(
        "Not if they fit together: your run alone needs {peak} GB of the {budget} GB budget, and what {server} holds I cannot see without its command line. Paste `ps aux | grep -E 'vllm|ollama' | grep -v grep` (its flags carry its fraction) and I will say whether it can stay. Nothing is stopped unless you say so."
    ))
}

static KEEPS: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    crate::extract::re(
        r"(?i)^\s*(?:no[,.!]?\s*)?(?:(?:i'?ll\s+|we'?ll\s+|let'?s\s+|just\s+)?(?:keep|leave)\s+(?:it|them|that|this|those|the\s+\w+|ollama|vllm|the\s+server|the\s+model)(?:\s+(?:loaded|running|up|on|alone|as\s+is|where\s+it\s+is))?|don'?t\s+(?:stop|unload|kill)\s+(?:it|them|\w+))\b",
    )
});

/// "No, keep it loaded", "leave it running": the owner keeps a server or
/// model in the pool, whether or not a stop was proposed.
pub fn keeps_server(session: &Session, words: &str) -> bool {
    (session.procs.is_some() || session.ollama.is_some()) && KEEPS.is_match(words)
}

pub const KEPT: &str = "Noted: it stays as it is. I keep what it holds in the pool's accounting and will not propose stopping or unloading it unless you ask.";

static WHICH_FIRST: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    crate::extract::re(
        r"(?i)^\s*(?:so\s+|ok\s+|and\s+)?(?:which|what)(?:\s+one)?\s+(?:first|to stop first|should i stop first|goes first|matters most)\b|\bwhich (?:one )?(?:first|should (?:i|go) first)\b",
    )
});

/// "Which first?" while a stop of several processes waits: the one that
/// holds the most of the pool first, each with what it holds; still a
/// proposal for the owner's yes.
pub fn stop_order_answer(session: &Session, words: &str, k: &Knowledge) -> Option<String> {
    if !WHICH_FIRST.is_match(words) {
        return None;
    }
    let Some(Action::Stop(list)) = &session.pending else {
        return None;
    };
    let report = pool_report(session, k)?;
    let mut held: Vec<(u64, String)> = report
        .processes
        .iter()
        .filter(|v| list.iter().any(|(pid, _)| *pid == v.process.pid))
        .map(|v| {
            let centi = v
                .cap_centi_gb
                .or(v.process.rss_kib.map(|kib| kib * 1024 / 10_000_000))
                .unwrap_or(0);
            let what = match v.cap_centi_gb {
                Some(c) => format!("claims up to {} GB ({})", show_centi(c), v.why),
                None => format!(
                    "holds {} GB resident now, with no cap of its own",
                    show_centi(centi)
                ),
            };
            (
                centi,
                format!("{} (pid {}): {what}", v.process.kind.label(), v.process.pid),
            )
        })
        .collect();
    if held.is_empty() {
        return None;
    }
    held.sort_by_key(|h| std::cmp::Reverse(h.0));
    let lines: Vec<String> = held.into_iter().map(|(_, l)| l).collect();
    Some(format!(
        "The one that holds the most of the pool first: {}. Nothing is stopped yet: reply yes, no, or yes with an exception (\"yes, but leave vllm running\").",
        lines.join("; then ")
    ))
}

/// What to run for each approved stop or unload, from knowledge/commands.md.
pub fn stop_instructions(action: &Action, k: &Knowledge) -> (String, Vec<String>) {
    let mut md = String::from("Approved. Here is how (headroom runs nothing itself):\n\n");
    let mut commands = Vec::new();
    match action {
        Action::Stop(list) => {
            for (pid, kind) in list {
                let command = if *kind == ProcessKind::OllamaServer {
                    k.command("stop-ollama").command.clone()
                } else {
                    k.command("stop-pid")
                        .command
                        .replace("PID", &pid.to_string())
                };
                md.push_str(&format!("- {} (pid {pid}): `{command}`\n", kind.label()));
                commands.push(command);
            }
        }
        Action::Unload(models) => {
            for m in models {
                let command = k.command("unload-ollama-model").command.replace("MODEL", m);
                md.push_str(&format!(
                    "- `{m}`: `{command}` (unloads it; the Ollama server keeps running)\n"
                ));
                commands.push(command);
            }
        }
        Action::Refraction(f, model) => {
            let command = format!(
                "vllm serve {} <your other flags> --gpu-memory-utilization {}",
                model.as_deref().unwrap_or("<your model>"),
                crate::calc::units::plain(*f)
            );
            md.push_str(&format!(
                "- stop the server where it runs (Ctrl-C in its terminal, or `kill` its pid from `ps aux`), then start it with the same command and the new fraction: `{command}`\n"
            ));
            commands.push(command);
        }
        Action::StopService(service) => {
            let (stop, start) = match service {
                Service::Ollama => (
                    k.command("stop-ollama").command.clone(),
                    k.command("start-ollama").command.clone(),
                ),
                Service::Container(name) => (
                    k.command("stop-container").command.replace("NAME", name),
                    k.command("start-container").command.replace("NAME", name),
                ),
            };
            md.push_str(&format!(
                "- now: `{stop}`\n- after your run, to bring it back as it was: `{start}`\n"
            ));
            commands.push(stop);
            commands.push(start);
        }
        Action::Rung(_) => {}
    }
    md.push_str(
        "\nThen paste a fresh `free -g` and I will redo the budget with the memory they held.",
    );
    (md, commands)
}
