//! The owner's words: intent first, then slots. A statement changes the run;
//! a question or what-if leaves every answer it conflicts with alone and is
//! kept as a what-if until adopted; a short yes/no answers what is pending;
//! OOM reports and ladder progress in words move the ladder.

use crate::dialogue::absorb::{Absorbed, OomEvent, open_or_result, record_jump, step_ladder};
use crate::dialogue::facts::{Facts, Known, ModelChoice};
use crate::dialogue::ladder::{Action, Awaiting, Decision, RungStatus, record_result};
use crate::dialogue::oom_turn::changed_facts;
use crate::dialogue::session::{RunStart, Session};
use crate::dialogue::thermal_turn::{Source, mentions_thermal};
use crate::extract::approval::{Answer, Approval};
use crate::extract::intent::{Intent, Request, request, sentences, short_answer};
use crate::extract::oom::{Rung, oom_report, phase_answer, step_result, steps_taken};
use crate::extract::paths::files_named;
use crate::extract::slots::{Found, Slot, extract};
use crate::extract::when::{date_time_in, mentions_start};
use crate::knowledge::Knowledge;
use jiff::Timestamp;
use regex::Regex;
use std::sync::LazyLock;

static NO_FREE_NOW: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(?i)\b(can'?t|cannot|can not|unable to|no way to)\b.{0,30}\b(paste|run|get|give)\b.{0,30}\bfree\b|\b(?:don'?t|do not|didn'?t|haven'?t)\s+(?:have|got)\b.{0,25}\bfree\b|\bno\s+`?free`?(?:\s+-[gh])?\s+(?:output|paste|here)\b|\bbox is idle\b|\bnothing else (?:is )?running\b",
    )
});

static RELATIVE: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(?i)\b(halve|half|double|twice)\s+(?:the\s+)?(batch(?:\s*size)?|packing(?:\s*length)?|pack|seq(?:uence)?\s*len(?:gth)?|context(?:\s*length)?)\b",
    )
});

static UNLOAD_WORDS: LazyLock<Regex> =
    LazyLock::new(|| crate::extract::re(r"(?i)\b(?:unload|stop|evict|drop|kill|free)\b"));

/// Where the words that keep a model loaded begin: "but keep gpt-oss",
/// "except qwen3", and a negated unload ("can't unload gpt-oss", "don't
/// touch gpt-oss", "never gpt-oss"): what it names stays loaded.
static KEEP_CLAUSE: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(?i)\b(?:but\s+)?(?:keep|leave|not|except|but|never)\b|\b(?:can'?t|cannot|can not|don'?t|do not|won'?t|shouldn'?t|mustn'?t)\b",
    )
});

static KEEP_METHOD: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(?i)^\s*(?:(?:ok(?:ay)?|no|nah|nope|fine|alright|right)[,.!\s]+)*(?:keep|stay (?:with|on)|stick (?:with|to))\s+(?:the\s+)?(lora|qlora)\b",
    )
});
static KEEP_VALUE: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(?i)^\s*(?:(?:ok(?:ay)?|no|nah|fine|alright|right)[,.!\s]+)*(?:keep|stay (?:with|at)|stick (?:with|to)|leave it at)\s+(?:it\s+at\s+|at\s+)?(\d+)\b",
    )
});

/// The setting "keep N" keeps: an open what-if changes it, and N is the
/// run's own value of it.
fn kept_value(text: &str, session: &Session) -> Option<String> {
    let what_if = session.what_if.as_ref()?;
    let f = &session.facts;
    // "nah keep lora": the run's own method beside a what-if of another.
    if let Some(c) = KEEP_METHOD.captures(text)
        && what_if
            .value
            .iter()
            .any(|w| matches!(w.slot, Slot::Method(_)))
        && let Some(now) = f.method.as_ref()
        && now.value.label().eq_ignore_ascii_case(&c[1])
    {
        return Some(now.value.label().to_string());
    }
    let n: u64 = KEEP_VALUE.captures(text)?[1].parse().ok()?;
    what_if.value.iter().find_map(|w| {
        let (name, now) = match w.slot {
            Slot::Batch(_) => ("batch", f.batch.as_ref()?.value),
            Slot::Pack(_) => ("packing", f.pack.as_ref()?.value),
            Slot::LoraRank(_) => ("rank", f.rank.as_ref()?.value),
            _ => return None,
        };
        (now == n).then(|| format!("{name} {n}"))
    })
}

/// "ok so i take the 1024 then", "go with the 8": the value the open
/// what-if shows, chosen by its number.
fn takes_what_if_value(text: &str, session: &Session) -> bool {
    static TAKE: LazyLock<Regex> = LazyLock::new(|| {
        crate::extract::re(
            r"(?i)\b(?:i'?ll\s+|i\s+|let'?s\s+|we\s+)?(?:take|go with|use|pick|choose)\s+(?:the\s+)?(\d+)(?:\s+(?:one|then|instead))?\s*[.!]*\s*(?:then|please|thx|thanks)?[.!]*\s*$",
        )
    });
    let Some(n) = TAKE.captures(text).and_then(|c| c[1].parse::<u64>().ok()) else {
        return false;
    };
    session.what_if.as_ref().is_some_and(|w| {
        w.value
            .iter()
            .any(|f| matches!(f.slot, Slot::Batch(v) | Slot::Pack(v) | Slot::LoraRank(v) if v == n))
    })
}

/// "halve the batch", "double the packing": a change relative to the run's
/// own value, so it can only be read with the facts at hand.
fn relative(text: &str, facts: &Facts) -> Option<Found> {
    let c = RELATIVE.captures(text)?;
    let halve = c[1].to_ascii_lowercase().starts_with("hal");
    let batch = c[2].to_ascii_lowercase().starts_with("batch");
    let current = if batch {
        facts.batch.as_ref()?.value
    } else {
        facts.pack.as_ref()?.value
    };
    let new = if halve {
        (current / 2).max(1)
    } else {
        current.saturating_mul(2)
    };
    let kind = if batch { "batch" } else { "pack" };
    let slot = match crate::calc::setup::out_of_range(kind, new) {
        Some(why) => Slot::OutOfRange(why),
        None if batch => Slot::Batch(new),
        None => Slot::Pack(new),
    };
    Some(Found {
        slot,
        words: c[0].to_string(),
    })
}

/// Does this slot give a value different from what the run already has?
fn conflicts(facts: &Facts, found: &Found) -> bool {
    let mut probe = facts.clone();
    let had = |f: &Facts| {
        f.answered()
            .iter()
            .any(|(s, ..)| Some(*s) == slot_name(&found.slot))
    };
    had(facts) && probe.absorb(found, Timestamp::UNIX_EPOCH).is_some()
}

/// A parameter count in a question that is the run's own model's size
/// ("8b model, should be tiny?" of Llama 3.1 8B, "a 120b moe lora takes
/// ~68GB, does your number agree?" of gpt-oss 120B), within a tenth: it
/// asks about the run, and swapping the catalog model for a bare count of
/// the same size is no what-if.
fn restates_size(facts: &Facts, found: &Found, k: &Knowledge) -> bool {
    let (Slot::Params(p), Some(model)) = (&found.slot, &facts.model) else {
        return false;
    };
    !matches!(model.value, ModelChoice::Params(_))
        && crate::dialogue::plan_turn::model_spec(&model.value, k).is_some_and(|spec| {
            let (have, said) = (spec.params as f64, *p as f64);
            (have - said).abs() <= 0.1 * said
        })
}

fn slot_name(slot: &Slot) -> Option<crate::dialogue::facts::SlotName> {
    crate::dialogue::slot_table::slot_of(slot)
}

fn apply_approval(session: &mut Session, action: &Action, yes: bool, at: Timestamp) {
    session.decisions.push(Decision {
        action: action.clone(),
        approved: yes,
        at,
    });
    let Action::Rung(rung) = action else {
        return;
    };
    if yes && *rung != Rung::Flush {
        // The owner agreed to change the job; plan with the change from now on.
        session.facts = changed_facts(&session.facts, *rung, at);
    }
    if let Some(ladder) = session.ladder.as_mut() {
        if yes {
            ladder.set(*rung, RungStatus::Applied);
            ladder.awaiting = Awaiting::Result(*rung);
        } else {
            ladder.set(*rung, RungStatus::Declined);
            ladder.awaiting = Awaiting::Nothing;
        }
    }
}

/// Adopt the what-if on the table: its slots become the run's.
fn adopt(session: &mut Session, at: Timestamp, out: &mut Absorbed) {
    let Some(what_if) = session.what_if.take() else {
        out.nothing_to_adopt = true;
        return;
    };
    for found in &what_if.value {
        out.updates.extend(session.facts.absorb(found, at));
    }
    out.adopted = true;
}

/// Does this word name the process (its kind, its label or its pid)?
fn names(word: &str, pid: u64, kind: crate::readings::process::ProcessKind) -> bool {
    let w = word.to_ascii_lowercase();
    w == pid.to_string()
        || kind.key().contains(&w)
        || kind.label().to_ascii_lowercase().contains(&w)
}

/// "yes, but not vllm": stop the rest, keep what the words name; "yes,
/// stop the vllm one" (`keep_named` false): stop what they name, keep the
/// rest. Both halves are remembered as decisions.
fn partial_stop(
    session: &mut Session,
    named_words: &[String],
    keep_named: bool,
    at: Timestamp,
    out: &mut Absorbed,
) -> bool {
    let Some(Action::Stop(list)) = session.pending.clone() else {
        return false;
    };
    let named = |pid: u64, kind| named_words.iter().any(|w| names(w, pid, kind));
    if !list.iter().any(|(pid, kind)| named(*pid, *kind)) {
        return false;
    }
    let (kept, stopped): (Vec<_>, Vec<_>) = list
        .into_iter()
        .partition(|(pid, kind)| named(*pid, *kind) == keep_named);
    session.pending = None;
    session.decisions.push(Decision {
        action: Action::Stop(kept.clone()),
        approved: false,
        at,
    });
    out.kept_by_owner = kept;
    if stopped.is_empty() {
        out.approval = Some((Action::Stop(Vec::new()), Answer::No));
        return true;
    }
    let action = Action::Stop(stopped);
    session.decisions.push(Decision {
        action: action.clone(),
        approved: true,
        at,
    });
    out.approval = Some((action, Answer::Yes));
    true
}

/// A stop rests on a `ps` listing (an unload on `ollama ps`): pids get
/// reused, so a listing over an hour old, one dated in the future, or a
/// proposal from another session is no ground for a command.
pub(crate) fn stale(session: &Session, at: Timestamp) -> Option<String> {
    let action = session.pending.as_ref()?;
    // A ladder step rests on the run, not on a listing: it may be answered
    // after a restart (the seed's OOM-restart case).
    let evidence = match action {
        Action::Stop(_) => session.procs.as_ref().map(|p| (p.at, "`ps aux`")),
        Action::Unload(_) => session.ollama.as_ref().map(|p| (p.at, "`ollama ps`")),
        // A restart rests on the server's own log, not on pids.
        // A stop by name rests on the name, not on pids.
        Action::Rung(_) | Action::Refraction(..) | Action::StopService(_) => return None,
    };
    let from_elsewhere = session
        .pending_from
        .as_ref()
        .is_some_and(|(_, s)| *s != session.current);
    let listing = evidence.map(|(t, what)| (t, what, at.duration_since(t).as_secs()));
    let old = listing.filter(|(_, _, age)| !(0..=3600).contains(age));
    let listing_word = evidence.map_or("`ps aux`", |(_, w)| w);
    match (from_elsewhere, old) {
        (false, None) => None,
        (true, _) => Some(format!(
            "That yes or no would answer \"{}\", which another session proposed. I give no command from another session's listing: paste a fresh {listing_word} and I will check again.",
            action.label()
        )),
        (false, Some((t, what, age))) => Some(format!(
            "\"{}\" rests on the {what} listing from {} ({}). Process ids get reused, so I give no command from a listing that old: paste a fresh {what} and I will check again.",
            action.label(),
            crate::dialogue::session::when(t),
            if age < 0 {
                "dated in the future".to_string()
            } else {
                format!("{} min ago", age / 60)
            }
        )),
    }
}

fn answer_pending(
    session: &mut Session,
    approval: Approval,
    at: Timestamp,
    k: &Knowledge,
    out: &mut Absorbed,
) {
    if let Some(why) = stale(session, at) {
        session.pending = None;
        out.stale_approval = Some(why);
        return;
    }
    let ans = match &approval {
        Approval::No => Answer::No,
        Approval::Yes => Answer::Yes,
        Approval::YesExcept(except) => {
            if partial_stop(session, except, true, at, out) {
                return;
            }
            // "yes, but leave vllm running" when vLLM was never to be
            // stopped: the exception is already kept, the yes is for all
            // that waits. One naming nothing on the box is no decision.
            let listed = session.procs.as_ref().is_some_and(|p| {
                let lower = p.value.to_ascii_lowercase();
                except
                    .iter()
                    .any(|w| lower.contains(&w.to_ascii_lowercase()))
            });
            if !listed || !matches!(session.pending, Some(Action::Stop(_))) {
                out.unclear_answer = true;
                return;
            }
            Answer::Yes
        }
        Approval::YesOnly(only) => {
            if !partial_stop(session, only, false, at, out) {
                out.unclear_answer = true;
            }
            return;
        }
    };
    if let Some(action) = session.pending.take() {
        apply_approval(session, &action, ans == Answer::Yes, at);
        step_ladder(session, k);
        out.approval = Some((action, ans));
        return;
    }
    if let Some(ladder) = session.ladder.as_mut()
        && ladder.awaiting == Awaiting::DidFlush
    {
        if ans == Answer::Yes {
            ladder.set(
                Rung::Flush,
                RungStatus::OwnerDid("yes, flushed between runs".into()),
            );
        }
        ladder.awaiting = Awaiting::Nothing;
        step_ladder(session, k);
        out.oom = Some(OomEvent::DidFlush(ans == Answer::Yes));
        return;
    }
    if ans == Answer::Yes && session.what_if.is_some() {
        adopt(session, at, out);
        return;
    }
    if ans == Answer::No && session.what_if.take().is_some() {
        out.dropped_what_if = true;
        return;
    }
    // "llama 8b" → "is it Llama 3.1 8B?" → "yes": the one candidate.
    if ans == Answer::Yes && session.model_choices.len() == 1 {
        let pick = session.model_choices.remove(0);
        let found = Found {
            slot: Slot::Model(pick.clone()),
            words: format!("yes to {pick}"),
        };
        out.updates.extend(session.facts.absorb(&found, at));
        return;
    }
    out.stray_answer = true;
}

/// Ladder progress in words: a result, a step taken early, the phase.
fn ladder_words(session: &mut Session, text: &str, at: Timestamp, out: &mut Absorbed) -> bool {
    let objective = session.facts.objective_or_sft();
    let Some(ladder) = session.ladder.as_mut().filter(|l| l.active()) else {
        return false;
    };
    // A result that names a step other than the one awaited ("batch 1 still
    // OOMs" while the batch step waits for a yes, "the shorter packing also
    // dies" before it was proposed): the owner took that step, and this is
    // how it went.
    let awaited = match ladder.awaiting {
        Awaiting::Result(r) => Some(r),
        _ => None,
    };
    // Several steps said done ("flushed, then cut the packing and the
    // batch, still dies") are jumps, each recorded below.
    let taken = steps_taken(text);
    if let Some(result) = step_result(text)
        && let Some(rung) = crate::extract::oom::rungs_with_result(text)
            .into_iter()
            .find(|r| {
                Some(*r) != awaited
                    && crate::dialogue::ladder::belongs(*r, objective)
                    && matches!(
                        ladder.status(*r),
                        RungStatus::Open | RungStatus::Proposed | RungStatus::OwnerDid(_)
                    )
            })
        && taken.iter().all(|(r, _)| *r == rung)
    {
        ladder.set(rung, RungStatus::Result(result));
        ladder.awaiting = Awaiting::Nothing;
        ladder.resolved |= result == crate::extract::oom::StepResult::Fixed;
        if ladder.phase.is_none() {
            ladder.phase = phase_answer(text);
        }
        if session.pending == Some(Action::Rung(rung)) {
            session.pending = None;
        }
        out.oom = Some(OomEvent::Result(rung, result));
        return true;
    }
    if matches!(ladder.awaiting, Awaiting::Result(_))
        && let Some(result) = step_result(text).or_else(|| {
            oom_report(text)
                .filter(|_| !crate::extract::oom::supposed_oom(text))
                .map(|_| crate::extract::oom::StepResult::StillOom)
        })
        && let Some(rung) = record_result(ladder, result)
    {
        // "still dies at step 40" also tells the phase.
        if ladder.phase.is_none() {
            ladder.phase = phase_answer(text);
        }
        out.oom = Some(OomEvent::Result(rung, result));
        return true;
    }
    if ladder.phase.is_none()
        && let Some(phase) = phase_answer(text)
    {
        ladder.phase = Some(phase);
        out.oom = Some(OomEvent::PhaseSet);
        return true;
    }
    for (rung, said) in &taken {
        record_jump(session, *rung, said, at);
    }
    if !taken.is_empty() {
        out.oom = Some(OomEvent::Jumped(
            taken.into_iter().map(|(r, _)| r).collect(),
        ));
        return true;
    }
    false
}

/// The owner's words before a keep clause ("unload qwen3, but keep
/// gpt-oss"): only these name what to unload.
fn before_keep(lower: &str) -> &str {
    KEEP_CLAUSE
        .find(lower)
        .map_or(lower, |m| &lower[..m.start()])
}

/// Do these lowercase words name the Ollama model, by its full name or the
/// name before its tag (`gpt-oss` for `gpt-oss:120b`)?
fn names_model(lower: &str, model: &str) -> bool {
    let m = model.to_ascii_lowercase();
    let base = m.split(':').next().unwrap_or(&m);
    lower.contains(&m) || lower.contains(base)
}

/// Was a `config.json` pasted in this turn (the model set at this moment)?
fn config_pasted_now(session: &Session, at: Timestamp) -> bool {
    session.facts.model.as_ref().is_some_and(|m| {
        m.at == at && matches!(m.value, crate::dialogue::facts::ModelChoice::Config { .. })
    })
}

/// The config pasted in this turn, labelled with the name the words give.
fn name_the_config(session: &mut Session, name: &str, out: &mut Absorbed) {
    let Some(model) = session.facts.model.as_mut() else {
        return;
    };
    if let crate::dialogue::facts::ModelChoice::Config { label, .. } = &mut model.value {
        *label = format!("{name} (your pasted config.json)");
        for u in out.updates.iter_mut() {
            if u.slot == crate::dialogue::facts::SlotName::Model && u.previous.is_none() {
                u.value = label.clone();
                u.words = label.clone();
            }
        }
    }
}

/// Fold the owner's words into the session.
pub fn absorb_words(
    session: &mut Session,
    text: &str,
    at: Timestamp,
    k: &Knowledge,
    out: &mut Absorbed,
) {
    out.words = Some(text.to_string());
    // "ok, unload the gpt-oss one then" while an unload of several waits:
    // the listed model it names is the server's, and the unload narrows to
    // it (the owner's yes still comes first).
    if let Some(Action::Unload(models)) = &session.pending
        && UNLOAD_WORDS.is_match(text)
    {
        // "yes unload qwen3:8b, but keep gpt-oss": what follows a keep
        // word stays loaded, so only the words before it name the unload.
        let lower = text.to_ascii_lowercase();
        let lower = before_keep(&lower);
        let named: Vec<String> = models
            .iter()
            .filter(|m| names_model(lower, m))
            .cloned()
            .collect();
        if !named.is_empty() && named.len() < models.len() {
            session.pending = Some(Action::Unload(named.clone()));
            out.narrowed_unload = Some(named);
            return;
        }
        // "yes unload qwen3:8b, but keep gpt-oss" when qwen3:8b is what
        // waits: the yes, for exactly that.
        let opens_with_yes = lower
            .split(|c: char| !c.is_ascii_alphanumeric())
            .find(|w| !w.is_empty())
            .is_some_and(|w| crate::extract::approval::YES.contains(&w));
        if !out.mixed && opens_with_yes && named.len() == models.len() && !text.contains('?') {
            answer_pending(session, Approval::Yes, at, k, out);
            return;
        }
    }
    // "no, keep gpt-oss loaded" while an unload of several waits: the one
    // kept is out, the others still wait for a yes.
    if let Some(Action::Unload(models)) = &session.pending
        && let Some(keep) = KEEP_CLAUSE.find(&text.to_ascii_lowercase())
    {
        let kept_words = text.to_ascii_lowercase()[keep.start()..].to_string();
        let rest: Vec<String> = models
            .iter()
            .filter(|m| !names_model(&kept_words, m))
            .cloned()
            .collect();
        if !rest.is_empty() && rest.len() < models.len() {
            session.pending = Some(Action::Unload(rest.clone()));
            out.narrowed_unload = Some(rest);
            return;
        }
    }
    // "yes unload qwen3:8b, but keep gpt-oss" with nothing waiting: the
    // owner asks for that unload by the listed model's name. It is theirs
    // to do; the name is the server's model, not the run's.
    if session.pending.is_none() && !out.mixed && UNLOAD_WORDS.is_match(text) && !text.contains('?')
    {
        let lower = text.to_ascii_lowercase();
        let named: Vec<String> = crate::dialogue::pool_turn::ollama_models(session)
            .into_iter()
            .map(|m| m.name)
            .filter(|m| names_model(before_keep(&lower), m))
            .collect();
        if !named.is_empty() {
            let action = Action::Unload(named);
            apply_approval(session, &action, true, at);
            out.approval = Some((action, Answer::Yes));
            return;
        }
    }
    // "stop vllm" with nothing proposed, or after a "no": the owner asks for
    // the stop by name. It is proposed now, tied to this moment, and still
    // waits for a yes (a pid in a listing may be reused by then). While a
    // stop waits, "stop ollama then" asks for that stop (or the part of it
    // it names): it is proposed again as named, not taken as a hedge.
    if !out.mixed
        && let Some(action) = crate::dialogue::pool_turn::asked_stop(session, text, k)
            .or_else(|| crate::dialogue::pool_turn::asked_unload(session, text))
            .or_else(|| crate::dialogue::pool_turn::asked_service_stop(session, text, k))
        && match (&session.pending, &action) {
            (Some(Action::Stop(waiting)), Action::Stop(asked)) => {
                asked.iter().all(|p| waiting.contains(p))
            }
            _ => true,
        }
    {
        session.pending = Some(action.clone());
        out.stop_asked = Some(action);
        return;
    }
    // A yes beside a paste is no answer: only a short typed turn counts.
    let mut text = text;
    // "ok use that" right after a solve or a what-if, while a step also
    // waits: the words take what was just offered, not the step.
    if !out.mixed && session.what_if.is_some() && request(text) == Some(Request::Adopt) {
        out.request = Some(Request::Adopt);
        adopt(session, at, out);
        return;
    }
    // "go, wait no. im not root on this box": the flush needs root, so
    // without it the step is declined, and the rest of the turn is read.
    if !out.mixed
        && session.pending == Some(Action::Rung(crate::extract::oom::Rung::Flush))
        && crate::extract::approval::lacks_root(text)
    {
        out.no_root = true;
        answer_pending(session, Approval::No, at, k, out);
    }
    if !out.mixed
        && let Some(ans) = short_answer(text)
    {
        let waiting = session.pending.is_some()
            || session
                .ladder
                .as_ref()
                .is_some_and(|l| l.awaiting == Awaiting::DidFlush);
        match crate::extract::approval::after_opening_no(text) {
            // "no, I meant batch 4" with nothing waiting: a correction, not
            // an answer; read it whole.
            Some(_) if ans == Approval::No && !waiting => {}
            // "no. batch 4 is the minimum, what else?": the no answers what
            // waits, and what follows it is read as words of its own.
            Some(rest) if ans == Approval::No => {
                answer_pending(session, ans, at, k, out);
                text = rest;
            }
            _ => {
                answer_pending(session, ans, at, k, out);
                return;
            }
        }
    }
    // "yes lets try bf16 lora" while that step waits: its yes, in its words.
    if !out.mixed
        && let Some(Action::Rung(rung)) = session.pending
        && crate::dialogue::restated_yes::restates_step(text, rung, &session.facts, k, at)
    {
        answer_pending(session, Approval::Yes, at, k, out);
        return;
    }
    out.request = request(text);
    if out.request.is_none() && takes_what_if_value(text, session) {
        out.request = Some(Request::Adopt);
    }
    match out.request {
        // "ok, go with that" with no what-if on the table but a ladder step
        // waiting is that step's answer. A stop or unload of running work
        // takes a plain yes: "ok use that" after a solve found nothing is
        // no consent to unload a server.
        Some(Request::Adopt)
            if !out.mixed
                && session.what_if.is_none()
                && matches!(session.pending, Some(Action::Rung(_))) =>
        {
            answer_pending(session, Approval::Yes, at, k, out);
            return;
        }
        Some(Request::Adopt) => {
            adopt(session, at, out);
            return;
        }
        Some(Request::NextStep) if session.ladder.as_ref().is_some_and(|l| l.active()) => {
            // "still OOMs at step 903. what now": the result first.
            if !ladder_words(session, text, at, out) {
                out.oom = Some(OomEvent::Asked);
            }
            step_ladder(session, k);
            return;
        }
        _ => {}
    }

    // The OOM ladder: a new report, or progress on the open one. When a
    // pasted error in this turn already was the report, the words around it
    // ("it died at step 40, here's the error:") only add its phase.
    if out.oom.is_some() {
        if let Some(ladder) = session.ladder.as_mut()
            && ladder.phase.is_none()
        {
            ladder.phase = phase_answer(text);
        }
    } else {
        let ladder_open = session.ladder.as_ref().is_some_and(|l| l.active());
        let moved = ladder_open && ladder_words(session, text, at, out);
        if !moved && server_failed(text) {
            // "Ollama crashes when my training runs": the server failed.
            out.server_oom = true;
        } else if !moved
            && out.foreign_oom.is_none()
            && !crate::extract::oom::supposed_oom(text)
            && let Some(report) = oom_report(text)
        {
            open_or_result(session, &report, at, out);
        }
    }
    // "OOM at step 212 … already dropped caches before launching": the
    // report and a step already taken, in one turn.
    if matches!(out.oom, Some(OomEvent::Opened)) {
        // Each step is quoted by the clause that says it, not the report.
        for (rung, said) in steps_taken(text) {
            record_jump(session, rung, &said, at);
        }
    }

    // Slots, sentence by sentence: statements change the run; questions and
    // what-ifs change nothing they conflict with.
    let mut hypothetical = Vec::new();
    // While the run is still being described, a question like "would a LoRA
    // of Mistral 7B fit?" describes it; once the run is complete, every
    // setting in a question is hypothetical.
    let describing = !crate::dialogue::plan_turn::missing(&session.facts).is_empty();
    // Unsloth, TRL, axolotl and LLaMA-Factory run on transformers, and their
    // banners name it: the specific stack wins over plain "hf" in one turn.
    let about_anchor = crate::dialogue::questions::matching(text, k)
        .iter()
        .any(|a| a.topic == "anchors");
    let specific_stack = sentences(text)
        .iter()
        .filter_map(|s| crate::calc::runtime::find(&s.text, k))
        .any(|key| key != "hf");
    // Corrections can cross a sentence end ("batch 16... actually make it
    // 8"), so the words are made canonical before they are split.
    let canonical_text = crate::extract::owner_words::canonical(text);
    let mut banner_taken = false;
    for sentence in sentences(&canonical_text) {
        // A sentence about an inference server ("the model is InternVL2-8B,
        // after the server started …") names the server's model and
        // settings, not the run's.
        if about_server(&sentence.text) {
            if let Some((who, centi, words)) =
                crate::extract::held_words::held_in_words(&sentence.text)
            {
                session.held_said = Some(Known {
                    value: (who, centi),
                    words,
                    at,
                });
            }
            continue;
        }
        let canon = &sentence.text;
        let mut found_here = match crate::extract::owner_words::split_correction(canon) {
            // The settings after the correction replace the same ones before.
            Some((before, after)) => {
                let later = extract(&after, k);
                let mut all: Vec<Found> = extract(&before, k)
                    .into_iter()
                    .filter(|f| !later.iter().any(|l| same_kind(&l.slot, &f.slot)))
                    .collect();
                all.extend(later);
                all
            }
            None => extract(canon, k),
        };
        // "is lora worse for quality?", "does bf16 lose accuracy?": a
        // question about quality or speed names a value without asking
        // what it would take in memory.
        if sentence.intent != Intent::Statement && not_about_memory(&sentence.text) {
            found_here.retain(|f| matches!(f.slot, Slot::Solve(_) | Slot::TensorParallel));
        }
        // A huggingface.co link names a model, not the trainer stack.
        let hf_link = sentence
            .text
            .to_ascii_lowercase()
            .contains("huggingface.co/");
        if specific_stack || hf_link {
            found_here.retain(|f| !matches!(&f.slot, Slot::Framework(key) if key == "hf"));
        }
        // "Qwen2.5 14B or Llama 3.1 8B?": alternatives, not the run's model.
        let named = crate::extract::slots::find_models(canon, k);
        let versions = if named.is_empty() {
            crate::extract::slots::versions_named(canon, k)
        } else {
            Vec::new()
        };
        if named.len() >= 2 && ALTERNATIVES.is_match(canon) {
            found_here.retain(|f| !matches!(f.slot, Slot::Model(_) | Slot::UnknownModel(_)));
            session.model_choices = named.clone();
            out.model_choices = named;
        } else if !versions.is_empty() {
            // "a qwen 32b": the catalog has it in more than one version;
            // which one is asked, not guessed (nor called unknown).
            found_here.retain(|f| {
                !matches!(
                    f.slot,
                    Slot::Model(_) | Slot::UnknownModel(_) | Slot::Params(_)
                )
            });
            session.model_choices = versions.clone();
            out.model_choices = versions;
            out.model_versions = true;
        } else if !session.model_choices.is_empty()
            && named.is_empty()
            && let Some(pick) = pick_choice(canon, &session.model_choices)
        {
            // "ok I take the qwen": the candidate of that family.
            found_here.retain(|f| !matches!(f.slot, Slot::UnknownModel(_) | Slot::Params(_)));
            found_here.push(Found {
                slot: Slot::Model(pick.clone()),
                words: pick,
            });
            session.model_choices.clear();
        }
        // "keep 2 then" beside an open what-if of that setting: the run's
        // own value stays and the what-if goes.
        if let Some(kept) = kept_value(&sentence.text, session) {
            session.what_if = None;
            out.kept_setting = Some(kept);
        }
        // "my script actually sets 16", "what if 14 like unsloth picked?"
        // after a banner whose batches disagreed with the run: a bare
        // figure the banner printed is that batch.
        // Not in the banner's own turn: "why does it say 16 and then 14?"
        // quotes it.
        if !banner_taken
            && out.banner.is_none()
            && let Some(n) = banner_batch_in(&sentence.text, &session.banner_batches)
            && !found_here
                .iter()
                .any(|f| matches!(f.slot, Slot::Batch(_)) || f.words.contains(&n.to_string()))
        {
            // The first such figure in the turn is the owner's; a later one
            // ("… Unsloth dropped it to 14") tells what the trainer did.
            banner_taken = true;
            found_here.push(Found {
                slot: Slot::Batch(n),
                words: format!("{n}, a batch your trainer's banner printed"),
            });
        }
        // "double the batch to 8" names its value: the number wins.
        if let Some(r) = relative(&sentence.text, &session.facts)
            && !found_here.iter().any(|f| same_kind(&f.slot, &r.slot))
        {
            found_here.push(r);
        }
        for found in found_here {
            match &found.slot {
                Slot::Solve(what) => out.solve = Some(*what),
                // "a mistral-nemo 12b finetune, config.json below": the
                // pasted config is the model's shapes; the words only name it.
                Slot::Model(name) | Slot::UnknownModel(name) if config_pasted_now(session, at) => {
                    name_the_config(session, name, out)
                }
                Slot::TensorParallel => out.tensor_parallel = true,
                Slot::UnknownModel(name) => out.unknown_model = Some(name.clone()),
                Slot::OutOfRange(why) => out.refused.push(format!("\"{}\": {why}", found.words)),
                // "why does the seed say 27B LoRA fits at 1024?" asks about
                // an anchor's set-up, not a run to compare.
                _ if about_anchor && sentence.intent == Intent::Question => {}
                _ if sentence.intent == Intent::WhatIf => hypothetical.push(found),
                // "should I drop the batch to 1?" asks for advice: it is a
                // what-if even while the run is still being described.
                // It is answered with the run's own verdict.
                _ if sentence.intent == Intent::Question
                    && restates_size(&session.facts, &found, k) =>
                {
                    out.request
                        .get_or_insert(Request::Plan(crate::reply::PlanDetail::Brief));
                }
                // "this dpo config (axolotl), will it fit?": the stack the
                // run is on, said in passing, describes it.
                Slot::Framework(_)
                    if sentence.intent == Intent::Question
                        && !conflicts(&session.facts, &found) =>
                {
                    out.updates.extend(session.facts.absorb(&found, at))
                }
                _ if sentence.intent == Intent::Question
                    && (!describing
                        || conflicts(&session.facts, &found)
                        || ADVICE_QUESTION.is_match(&sentence.text)) =>
                {
                    hypothetical.push(found)
                }
                _ => out.updates.extend(session.facts.absorb(&found, at)),
            }
        }
    }
    // "pairs up to 1500 tokens": a preference run's longest row is its
    // sequence length; the packing is not asked for again.
    if session.facts.pack.is_none()
        && let crate::calc::objective::Objective::Preference {
            longest_row: Some(n),
            ..
        } = session.facts.objective_or_sft()
    {
        // Quoted from the owner's words that gave the pair lengths.
        let said = session
            .facts
            .objective
            .as_ref()
            .map_or_else(|| format!("pairs up to {n} tokens"), |o| o.words.clone());
        let found = Found {
            slot: Slot::Pack(n),
            words: said,
        };
        out.updates.extend(session.facts.absorb(&found, at));
    }
    if let Some(name) = &out.unknown_model {
        session.unknown_model = Some(name.clone());
    }
    // "and micro_batch_size: 2 together with it?": added to the open
    // what-if, whose other changes stay.
    if !hypothetical.is_empty()
        && COMBINED.is_match(text)
        && let Some(open) = &session.what_if
    {
        let mut merged: Vec<Found> = open
            .value
            .iter()
            .filter(|f| !hypothetical.iter().any(|h| same_kind(&f.slot, &h.slot)))
            .cloned()
            .collect();
        merged.extend(hypothetical);
        hypothetical = merged;
    }
    if !hypothetical.is_empty() {
        session.what_if = Some(Known {
            value: hypothetical.clone(),
            words: text.trim().to_string(),
            at,
        });
        out.what_if = hypothetical;
    }
    // "halved the batch" already changed the facts through the ladder.
    if session
        .ladder
        .as_ref()
        .is_some_and(|l| l.awaiting == Awaiting::Facts)
        && !out.updates.is_empty()
    {
        out.oom.get_or_insert(OomEvent::FactsGiven);
    }
    if out.oom.is_some() {
        step_ladder(session, k);
    }
    out.no_free_now = NO_FREE_NOW.is_match(text);
    thermal_words(session, text, at, out);
}

static COMBINED: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(?i)\b(?:together with (?:it|that|this)|with (?:it|that) too|on top(?: of (?:it|that))?|as well|in addition|plus that|both together|combined)\b|\b(?:too|also)\s*[?.!]*\s*$",
    )
});

static SERVER_TALK: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(?i)\b(?:vllm|ollama|llama[.-]?cpp|llama-server|sglang|tgi|server|serving|serves|served|inference)\b",
    )
});
static TRAINING_TALK: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(?i)\b(?:train\w*|fine-?tun\w*|finetun\w*|lora|qlora|sft|dpo|grpo|my run|the run|trainer|epochs?)\b",
    )
});

static QUALITY_OR_SPEED: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(?i)\b(?:any good|good at|better|worse|quality|accura\w*|converge\w*|faster|slower|speed|how fast|slow\w*|difference|differ|what does|what is|what's the|why|support\w*|learning rate|lose|loses|help)\b",
    )
});
static MEMORY_TALK: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(?i)\b(?:fit|fits|memory|oom|need|needs|budget|room|gb|gib|under|over|headroom|peak|what if|how about|suppose|can i|could i|should i|switch|use)\b",
    )
});

/// A change asked for the sake of speed ("should I drop the batch … or
/// switch to fp16 to get the speed back?"): its purpose is named.
static FOR_SPEED: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(?i)\b(?:to|for)\s+(?:get|gain|recover|regain|win|bring|make)?\s*(?:the\s+|my\s+|some\s+)?(?:speed|throughput|it/s|performance|tokens/s)\b|\bspeed\s+(?:it\s+|things\s+)?up\b|\bgo\s+faster\b|\b(?:to|so|for)\s+(?:it\s+)?(?:cut|reduce|lower|drop|fix|avoid|stop|beat|less(?:en)?)?\s*(?:the\s+|my\s+)?(?:heat|temperatures?|temps?|throttling|thermals?|slowdown)\b|\bruns?\s+cooler\b|\b(?:help|fix)\s+(?:with\s+)?(?:the\s+)?(?:heat|throttling|slowdown)\b",
    )
});
static MEMORY_CORE: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(r"(?i)\b(?:fit|fits|memory|oom|budget|room|gb|gib|headroom|peak)\b")
});

/// A question about quality, speed or meaning, not about memory.
fn not_about_memory(sentence: &str) -> bool {
    QUALITY_OR_SPEED.is_match(sentence) && !MEMORY_TALK.is_match(sentence)
        || FOR_SPEED.is_match(sentence) && !MEMORY_CORE.is_match(sentence)
}

fn same_kind(a: &Slot, b: &Slot) -> bool {
    std::mem::discriminant(a) == std::mem::discriminant(b)
}

static ADVICE_QUESTION: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(r"(?i)^\s*(?:so\s+|and\s+|but\s+)?(?:should|shall|must) (?:i|we)\b")
});

static ALTERNATIVES: LazyLock<Regex> =
    LazyLock::new(|| crate::extract::re(r"(?i)\b(?:or|vs\.?|versus|between|compare|compared)\b"));

/// The one candidate whose family the words name ("the qwen", "llama").
/// The candidate the words pick: the one whose name's longest start they
/// contain ("the qwen2.5 one" of Qwen2.5 32B and Qwen3 32B), when no other
/// matches as long. A size that is not the candidate's ("a qwen 32b" after
/// Qwen2.5 7B) picks nothing.
fn pick_choice(text: &str, choices: &[String]) -> Option<String> {
    let lower = text.to_ascii_lowercase();
    let squeezed: String = lower.chars().filter(|c| !c.is_whitespace()).collect();
    let sizes: Vec<String> = SIZE_SAID
        .captures_iter(&lower)
        .map(|c| format!("{}b", &c[1]))
        .collect();
    let scored: Vec<(usize, &String)> = choices
        .iter()
        .filter_map(|c| {
            let name = c.to_ascii_lowercase();
            let size = name.split_whitespace().last().unwrap_or("").to_string();
            if !sizes.is_empty() && !sizes.contains(&size) {
                return None;
            }
            let head: String = name.split_whitespace().take_while(|w| *w != size).collect();
            let family_len = head.chars().take_while(char::is_ascii_alphabetic).count();
            // The longest start of the name (without its size) said.
            let said = (family_len..=head.len())
                .rev()
                .find(|n| *n >= 3 && squeezed.contains(&head[..*n]))?;
            Some((said, c))
        })
        .collect();
    let best = scored.iter().map(|(n, _)| *n).max()?;
    let top: Vec<&String> = scored
        .iter()
        .filter(|(n, _)| *n == best)
        .map(|(_, c)| *c)
        .collect();
    (top.len() == 1).then(|| top[0].clone())
}

static SIZE_SAID: LazyLock<Regex> =
    LazyLock::new(|| crate::extract::re(r"(?i)\b(\d+(?:\.\d+)?)\s*b\b"));

static SERVER_FAILED: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(?i)\b(?:vllm|ollama|llama[.-]?cpp|llama-server|sglang|the (?:inference )?server)(?:'s)?\b(?:\s+(?:is|keeps|kept|got|gets|just|always|still|also|server|runner))*\s+(?:crash\w*|oom\w*|die\w*|fail\w*|killed|dies|refus\w*|runs? out of memory|out of memory|error\w*|hard[\s-]?reset\w*|reset|rebooted|froze|hung|locked up|went down)",
    )
});

/// A server named, then what happened to it further on in the sentence.
static SERVER_THEN_FAILURE: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(?i)\b(?:vllm|ollama|llama[.-]?cpp|llama-server|sglang)\b([^.?!]{0,100}?)\b(?:crash(?:ed|es)|oom(?:ed|s)|died|dies|failed|killed|hard[\s-]?reset|rebooted|froze|hung|locked up|went down|ran out of memory|out of memory)\b",
    )
});

/// What failed, then the server it happened in: "box rebooted itself
/// during a huge prompt to vllm".
static FAILURE_THEN_SERVER: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(?i)\b(?:crash(?:ed|es)|oom(?:ed|s)|died|dies|failed|hard[\s-]?reset|rebooted|froze|hung|locked up|went down|ran out of memory|out of memory)\b([^.?!]{0,80}?)\b(?:to|on|in|inside|under|with|from|by)\s+(?:the\s+)?(?:vllm|ollama|llama[.-]?cpp|llama-server|sglang)\b",
    )
});

/// Does the owner say an inference server failed (not the training)?
/// "vLLM on my Spark (head node …) hard-reset during a 128K prompt" too,
/// unless the words between name the training ("vllm is up but my
/// trainer died").
pub(crate) fn server_failed(text: &str) -> bool {
    SERVER_FAILED.is_match(text)
        || SERVER_THEN_FAILURE
            .captures_iter(text)
            .chain(FAILURE_THEN_SERVER.captures_iter(text))
            .any(|c| !TRAINING_TALK.is_match(&c[1]) && !c[1].to_ascii_lowercase().contains(" but "))
}

/// The first bare figure of the sentence that a banner printed as the
/// per-device batch ("my script actually sets 16, … dropped it to 14").
fn banner_batch_in(sentence: &str, banner: &[u64]) -> Option<u64> {
    static FIGURE: LazyLock<Regex> = LazyLock::new(|| crate::extract::re(r"\b(\d{1,4})\b"));
    if banner.is_empty() {
        return None;
    }
    FIGURE
        .captures_iter(sentence)
        .filter_map(|c| c[1].parse::<u64>().ok())
        .next()
        .filter(|n| banner.contains(n))
}

/// "someone just loaded gpt-oss 120b in it", "my colleague started a 70B":
/// a model another person loaded, or one loaded into a server, is theirs.
static LOADED_BY_OTHER: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(?i)\b(?:someone|somebody|some ?one|a colleague|my colleague|a co-?worker|my co-?worker|my (?:boss|teammate|team ?mate|friend|partner|kid|son|daughter)|another user|he|she|(?:my |our |the )?(?:teammates|team ?mates|colleagues|co-?workers|friends|other users|others|team)|they)\b[^.?!]{0,30}?\b(?:loaded|loads|load|pulled|started|launched|spun up|brought up|is running|runs|ran|is serving|serves|put|hit|hits|query|queries|call|calls|request|requests|use|uses)\b|\bloaded\b[^.?!]{0,40}?\b(?:in|into|on)\s+(?:it|ollama|vllm|the server|the box|there)\b",
    )
});

/// Is this sentence about an inference server and not about the run?
fn about_server(sentence: &str) -> bool {
    // "there is no training on the box, only vllm": training said absent
    // is no training talk.
    let sentence = NO_TRAINING.replace_all(sentence, "");
    SERVER_TALK.is_match(&sentence) && !TRAINING_TALK.is_match(&sentence)
        || LOADED_BY_OTHER.is_match(&sentence) && !TRAINING_TALK.is_match(&sentence)
}

static NO_TRAINING: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(?i)\b(?:no|not|nothing|without|isn't|aren't|zero)\s+(?:\w+\s+)?(?:training|trainer|train\w*|fine-?tun\w*)(?:\s+(?:job|run|running))?\b",
    )
});

static LOG_TZ: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(?i)\b(?:log|logs|container|it)\b[^.?!]{0,30}\butc\b[^.?!]{0,40}?\b(?:we are|we're|sampler|box|local|i am|i'm|here)\b[^.?!]{0,20}?\butc\s*([+-]\d{1,2})(?::?(\d{2}))?",
    )
});

/// "the log is UTC, we are at UTC+1" → (+3600 s, the words).
fn log_tz_in(text: &str) -> Option<(f64, String)> {
    let c = LOG_TZ.captures(text)?;
    let h: f64 = c[1].parse().ok()?;
    let m: f64 = c.get(2).map_or(Some(0.0), |m| m.as_str().parse().ok())?;
    let sign = if c[1].starts_with('-') { -1.0 } else { 1.0 };
    (h.abs() <= 14.0 && m < 60.0).then(|| (sign * (h.abs() * 3600.0 + m * 60.0), c[0].to_string()))
}

/// Paths, a start time, or a thermal question in the owner's words.
fn thermal_words(session: &mut Session, text: &str, at: Timestamp, out: &mut Absorbed) {
    let named: Vec<String> = if out.pasted_data {
        Vec::new()
    } else {
        files_named(text)
            .into_iter()
            .filter(|p| out.read_pastes == 0 || p.contains('/'))
            .collect()
    };
    for path in named {
        session.data_sources.push(Known {
            value: Source::File(path.clone()),
            words: path,
            at,
        });
        out.thermal = true;
    }
    let awaiting_start = !session.data_sources.is_empty() && session.run_start.is_none();
    if (mentions_start(text) || awaiting_start)
        && let Some((stamp, words)) = date_time_in(
            text,
            i32::from(jiff::tz::TimeZone::UTC.to_datetime(at).year()),
        )
        && let Some(t) = crate::extract::thermal_csv::parse_time(&stamp)
    {
        session.run_start = Some(Known {
            value: RunStart::At(t),
            words,
            at,
        });
        out.thermal = true;
    } else if (mentions_start(text) || awaiting_start)
        && let Some((secs, words)) = crate::extract::when::time_of_day_in(text)
    {
        session.run_start = Some(Known {
            value: RunStart::TimeOfDay(secs),
            words,
            at,
        });
        out.thermal = true;
    }
    if let Some((offset, words)) = log_tz_in(text) {
        session.log_tz = Some(Known {
            value: offset,
            words,
            at,
        });
        out.thermal = true;
    }
    if mentions_thermal(text) && out.oom.is_none() {
        // Only words about heat, on data already checked: a question the
        // answers cover needs the same report no second time.
        out.thermal_again = !out.thermal && !session.data_sources.is_empty();
        out.thermal = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn training_said_absent_leaves_a_sentence_about_the_server() {
        for t in [
            "there is no training on the box right now, only vllm, the model takes about 74 GiB.",
            "nothing is training, vllm holds 40 GiB",
        ] {
            assert!(about_server(t), "{t}");
        }
        assert!(!about_server("vllm beside my training run"));
    }

    #[test]
    fn a_change_asked_for_heat_is_not_about_memory() {
        for q in [
            "should I switch to fp16 to cut the heat?",
            "would a bigger batch help with the slowdown?",
            "should i use batch 2 so it runs cooler?",
            "drop to 2048 packing to reduce throttling?",
        ] {
            assert!(not_about_memory(q), "{q}");
        }
        assert!(!not_about_memory(
            "would fp16 fit in memory with less heat?"
        ));
    }

    #[test]
    fn a_change_asked_for_speed_is_not_about_memory() {
        for q in [
            "should I drop the batch from 8 to 4 or switch to fp16 to get the speed back?",
            "would bf16 instead of fp32 speed it up?",
            "should i use batch 16 for throughput?",
        ] {
            assert!(not_about_memory(q), "{q}");
        }
        for q in [
            "should I drop the batch to 4 so it fits?",
            "would batch 16 still fit in memory?",
        ] {
            assert!(!not_about_memory(q), "{q}");
        }
    }

    #[test]
    fn a_server_that_failed_is_not_the_training() {
        assert!(server_failed(
            "Ollama is crash every time when my training is running"
        ));
        assert!(server_failed("vllm keeps OOMing when the trainer starts"));
        assert!(!server_failed("my training OOMs while vllm runs"));
        assert!(server_failed(
            "vLLM on my Spark (head node of a tp=2 pair, DeepSeek V4 Flash) hard-reset during a 128K-token prompt"
        ));
        assert!(!server_failed("vllm is up but my trainer died"));
        assert!(!server_failed(
            "vllm was serving while the lora run crashed"
        ));
    }

    #[test]
    fn a_sentence_about_a_server_is_not_about_the_run() {
        assert!(about_server(
            "the model is https://huggingface.co/OpenGVLab/InternVL2-8B, after server started, the gpu memory usage is low"
        ));
        assert!(about_server(
            "ollama is serving llama3.1:8b with num_ctx 8192"
        ));
        assert!(about_server(
            "someone just loaded gpt-oss 120b in it, like 65gb. still ok?"
        ));
        assert!(about_server(
            "my colleague started llama 3.3 70b on the box"
        ));
        assert!(about_server("he pulled qwen2.5 32b into ollama"));
        assert!(about_server(
            "But my teammates sometimes hit gpt-oss:120b from their laptops"
        ));
        assert!(about_server("the team queries llama 3.1 70b all day"));
        assert!(about_server("colleagues use qwen3 32b on it"));
        assert!(!about_server("I loaded qwen 7b and it OOMs"));
        assert!(!about_server("I train qwen 7b with lora while vllm runs"));
        assert!(!about_server("qwen 7b lora, batch 4"));
    }

    #[test]
    fn the_logs_utc_offset_in_words() {
        assert_eq!(
            log_tz_in("the log is UTC, we are at UTC+1").map(|t| t.0),
            Some(3600.0)
        );
        assert_eq!(
            log_tz_in("the container logs in UTC and the box is on UTC-05:00").map(|t| t.0),
            Some(-18000.0)
        );
        assert_eq!(log_tz_in("LoRA on Qwen2.5 7B"), None);
    }

    fn known(value: u64) -> Option<Known<u64>> {
        Some(Known {
            value,
            words: String::new(),
            at: jiff::Timestamp::UNIX_EPOCH,
        })
    }

    #[test]
    fn halving_and_doubling_read_against_the_runs_own_values() {
        let facts = Facts {
            batch: known(4),
            pack: known(2048),
            ..Facts::default()
        };
        let halved = relative("what if I halve the batch size?", &facts).unwrap();
        assert_eq!(halved.slot, Slot::Batch(2));
        let doubled = relative("and double the packing", &facts).unwrap();
        assert_eq!(doubled.slot, Slot::Pack(4096));
        // Nothing to halve yet: no guess.
        assert!(relative("halve the batch", &Facts::default()).is_none());
        let one = Facts {
            batch: known(1),
            ..Facts::default()
        };
        assert_eq!(
            relative("halve the batch", &one).unwrap().slot,
            Slot::Batch(1)
        );
    }
}
