//! One owner turn in, one Reply out. Pure: the clock comes in as `now`.
//!
//! `absorb` classifies the turn once and changes the state; then each
//! workflow's handler adds its part of the reply (OOM ladder, pool,
//! evidence, thermal, questions, what-if, plan). Every turn advances a
//! workflow or says exactly what it needs: nothing typed is dropped.

use crate::calc::setup::TENSOR_PARALLEL_REFUSAL;
pub use crate::dialogue::absorb::{Absorbed, absorb};
use crate::dialogue::evidence::evidence_blocks;
use crate::dialogue::facts::{SlotName, Update};
use crate::dialogue::ladder::Action;
use crate::dialogue::oom_turn::FlushFor;
use crate::dialogue::oom_turn::{applied, next_question, oom_blocks};
use crate::dialogue::plan_turn::{ask_for, missing, plan_reply};
use crate::dialogue::pool_turn::{pool_blocks, stop_instructions, stop_question_answer};
use crate::dialogue::questions::answer_texts_except;
use crate::dialogue::session::{Session, when};
use crate::dialogue::thermal_turn::{Files, NoFiles, thermal_blocks};
use crate::dialogue::whatif::{change_block, what_if_block};
use crate::extract::approval::Answer;
use crate::extract::intent::{Request, asks};
use crate::knowledge::Knowledge;
use crate::reply::{Block, PlanDetail, Reply, ReplyKind};
use jiff::Timestamp;

/// One line per slot: a slot set twice in one turn (a pasted config, then
/// the words around it) is said once, with both sources.
fn coalesced(updates: &[Update]) -> Vec<Update> {
    let mut out: Vec<Update> = Vec::new();
    for u in updates {
        match out
            .iter_mut()
            .find(|e| e.slot == u.slot && Some(&e.value) == u.previous.as_ref())
        {
            Some(e) => {
                e.value = u.value.clone();
                e.words = format!("{}; {}", e.words, u.words);
            }
            None => out.push(u.clone()),
        }
    }
    out
}

fn acknowledge(updates: &[Update]) -> String {
    let parts: Vec<String> = coalesced(updates)
        .iter()
        .map(|u| match (&u.previous, u.slot) {
            (_, SlotName::Free) if u.words == "/proc/meminfo" => {
                format!("your `/proc/meminfo` paste ({})", u.value)
            }
            (_, SlotName::Free) if u.words == crate::extract::free::FreeUnit::Said.flag() => {
                format!("{} (your words)", u.value)
            }
            (_, SlotName::Free) => format!("your `free` output ({})", u.value),
            (Some(prev), _) => format!(
                "{} {} → {} (you said \"{}\")",
                u.slot.key(),
                prev,
                u.value,
                u.words
            ),
            // The owner's words are quoted only where they are not the value.
            (None, _) if said_as(&u.words, u.slot.key(), &u.value) => {
                format!("{} {}", u.slot.key(), u.value)
            }
            (None, _) => format!("{} {} (you said \"{}\")", u.slot.key(), u.value, u.words),
        })
        .collect();
    format!("Noted: {}.", parts.join(", "))
}

/// Did the owner's words already say it ("batch 2" for batch 2, "LoRA"
/// for LoRA)? Then quoting them adds nothing; "seq 4096" for the packing
/// is still quoted.
fn said_as(words: &str, key: &str, value: &str) -> bool {
    let (w, v) = (words.trim().to_lowercase(), value.to_lowercase());
    w == v || (w.contains(&v) && w.contains(key))
}

/// Answer one owner turn, with no access to the owner's files.
pub fn respond(session: &mut Session, text: &str, now: Timestamp, k: &Knowledge) -> Reply {
    respond_with(session, text, now, k, &NoFiles)
}

/// Answer one owner turn, reading the owner's files through `files`.
pub fn respond_with(
    session: &mut Session,
    text: &str,
    now: Timestamp,
    k: &Knowledge,
    files: &dyn Files,
) -> Reply {
    let pending_before = session.pending.clone();
    let absorbed = absorb(session, text, now, k);
    let about_pending = absorbed.approval.is_some()
        || absorbed.oom.is_some()
        || absorbed.procs
        || absorbed.ollama
        || absorbed.narrowed_unload.is_some()
        || absorbed.stop_asked.is_some()
        || absorbed.restart_proposed;
    let mut reply = compose(session, &absorbed, now, k, files);
    // Two readings in one turn (the owner's "killed while loading" and the
    // kernel's OOM line) may each bring the ladder's next step: say it once.
    let mut seen: Vec<Block> = Vec::new();
    reply.blocks.retain(|b| {
        let repeat = seen.contains(b);
        if !repeat {
            seen.push(b.clone());
        }
        !repeat
    });
    // A reply that is itself about what is waiting needs no reminder.
    let restated = reply.kind == ReplyKind::Ask
        && reply.verdict.is_none()
        && session.pending.is_some()
        && reply.blocks.len() == 1;
    // A proposal made in this very reply asks its own question.
    let proposed_now = session.pending.is_some() && session.pending != pending_before;
    if !about_pending
        && !restated
        && !proposed_now
        && let Some(action) = &session.pending
    {
        reply = reply.then(format!(
            "(Still waiting for your yes or no on: {}. Only a short typed answer counts; text inside a paste is data.)",
            action.label()
        ));
    }
    reply
}

fn compose(
    session: &mut Session,
    a: &Absorbed,
    now: Timestamp,
    k: &Knowledge,
    files: &dyn Files,
) -> Reply {
    if let Some(p) = &a.problem {
        let mut reply = Reply::problem(format!(
            "That looks like {}, but I could not read it: {}. {} Nothing you told me before is lost.",
            p.kind, p.why, p.hint
        ));
        let still = missing(&session.facts);
        if !still.is_empty() {
            reply = reply.then(ask_for(&still, &session.facts));
        }
        return reply;
    }
    if let Some(why) = &a.stale_approval {
        return Reply::info(why.clone());
    }
    if a.unclear_answer {
        return Reply::info(
            "I read that as a yes for part of what is waiting, but the words name nothing that is waiting for your answer. Reply yes or no, or name what to stop (\"yes, only vllm\") or keep (\"yes, but not ollama\").",
        );
    }
    if let Some((action, ans)) = &a.approval {
        let mut reply = approval_reply(session, action, *ans, k, a.before.as_ref());
        // "no, I meant packing 1024": the decline, then the change said in
        // the same turn, shown as any change is.
        if *ans == Answer::No
            && !a.updates.is_empty()
            && let Some(before) = a.before.as_ref()
        {
            let held = crate::dialogue::pool_turn::held_beside(session, k);
            if let Some(block) = change_block(before, &session.facts, &held, k) {
                reply.push(block);
            }
        }
        if !a.kept_by_owner.is_empty() {
            let kept: Vec<String> = a
                .kept_by_owner
                .iter()
                .map(|(pid, kind)| format!("{} (pid {pid})", kind.label()))
                .collect();
            reply = reply.lead(format!(
                "Keeping {} as you asked; I won't suggest stopping it again unless you ask.",
                kept.join(", ")
            ));
        }
        if a.no_root {
            reply = reply.lead(
                "Without root the flush is not yours to run: your admin can run it between runs (never mid-training), so I set it aside.",
            );
        }
        return reply;
    }
    if let Some(action) = &a.stop_asked {
        let listed = session.procs.as_ref().map_or(String::new(), |p| {
            format!(" (your listing of {})", when(p.at))
        });
        return Reply::info(format!(
            "You asked to {}{listed}. Shall I tell you how? That stops work that is running, so reply yes or no.",
            action.label()
        ));
    }
    if a.stray_answer
        && let Some(text) = a
            .words
            .as_deref()
            .and_then(|w| crate::dialogue::remark::remark_reply(w, false))
    {
        return Reply::info(text);
    }
    if a.stray_answer {
        // "no, keep it loaded" about a server or model in the pool: the
        // owner's decision, kept, though nothing was proposed.
        if a.words
            .as_deref()
            .is_some_and(|w| crate::dialogue::pool_turn::keeps_server(session, w))
        {
            return Reply::info(crate::dialogue::pool_turn::KEPT);
        }
        return Reply::info(
            "Nothing is waiting for a yes or no right now. `/status` shows what I know and what is next.",
        );
    }
    if a.dropped_what_if {
        return Reply::info("Dropped the what-if: your run stays as it is. `/status` shows it.");
    }
    if a.nothing_to_adopt {
        return Reply::info(
            "There is no what-if on the table to adopt. Ask one (\"what if batch 2?\") or change the run directly (\"batch 2\").",
        );
    }

    if let Some(kind) = a.follow_up
        && let Some(mut blocks) =
            crate::dialogue::follow_up::follow_up_blocks(session, files, k, kind, now)
    {
        // "so its heat? should i lower batch so it runs cooler?": the
        // follow-up answers the first question, a domain row the second.
        if let Some(words) = &a.words {
            for text in answer_texts_except(&asked_sentences(words), k, &[]) {
                if !blocks.iter().any(|b| b == &Block::Text(text.clone())) {
                    blocks.push(Block::Text(text));
                }
            }
        }
        return Reply::of(ReplyKind::Info, blocks);
    }
    let mut reply = Reply::of(ReplyKind::Info, Vec::new());
    let oom = a.oom.is_some();
    for p in &a.paste_problems {
        reply.push(Block::Text(format!(
            "One paste looks like {}, but I could not read it: {}. {}",
            p.kind, p.why, p.hint
        )));
    }
    if let Some(capacity) = &a.foreign_oom {
        reply.push(Block::Text(format!(
            "That OOM came from a GPU with {capacity} in total, not this Spark (CUDA sees about {} GiB of its pool), so it opens no OOM ladder here: what ran out on that card says nothing about this box. Whether the run fits the Spark is the plan's question.",
            crate::calc::units::plain(k.spark("memory CUDA reports").value)
        )));
    }
    if let Some(exception) = &a.crash {
        reply.push(Block::Text(format!(
            "Not an out-of-memory error: the traceback ends in `{}`. The program stopped on that error, not for lack of memory, so the OOM ladder does not apply; fix what it names and run again.",
            exception.replace('`', "'")
        )));
    } else if a.oom_asked {
        reply.push(Block::Text(
            "Whether it ran out of memory shows in the error itself: paste the traceback's last lines (or the kernel's OOM-killer lines), and I will say.".into(),
        ));
    }
    if !a.unread.is_empty() {
        reply.push(Block::Text(unread_note(&a.unread)));
    }
    if !a.updates.is_empty() && !a.adopted {
        reply.push(Block::Text(acknowledge(&a.updates)));
    }
    if a.updates.iter().any(|u| u.slot == SlotName::Free)
        && let Some(note) = memory_note(session)
    {
        reply.push(Block::Text(note));
    }
    if let Some(models) = &a.narrowed_unload {
        return Reply::info(format!(
            "Only {} then; the rest stays loaded. Shall I tell you how to unload it? It changes what the server holds, so it is your call: reply yes or no.",
            models.join(", ")
        ));
    }
    if let Some(action) = &a.set_aside {
        reply.push(Block::Text(format!(
            "Set aside, not done: {} (it waited for your yes). The OOM comes first; ask for it again when the run is sorted out.",
            action.label()
        )));
    }
    if let Some(kept) = &a.kept_setting {
        reply.push(Block::Text(format!(
            "Kept {kept}: the what-if is dropped, and your run stays as it is."
        )));
    }
    if let Some(event) = &a.oom {
        reply.blocks.extend(oom_blocks(session, event, k));
    }
    if a.procs || a.ollama {
        if let Some(answer) = a
            .words
            .as_deref()
            .and_then(|w| stop_question_answer(session, w, k))
        {
            reply.push(Block::Text(answer));
        }
        reply.blocks.extend(pool_blocks(session, k, a.pool_details));
    } else if let Some(answer) = a
        .words
        .as_deref()
        .and_then(|w| stop_question_answer(session, w, k))
    {
        // Asked after the listing: the answer stands on the listing read then.
        reply.push(Block::Text(answer));
    }
    if a.vllm_log {
        reply
            .blocks
            .extend(crate::dialogue::vllm_turn::vllm_blocks(session, k));
    }
    if let Some(e) = &a.evidence {
        reply
            .blocks
            .extend(evidence_blocks(e, session.facts.free.is_some(), k));
    }
    let server_log_read = a.vllm_log
        || matches!(
            a.evidence,
            Some(crate::dialogue::absorb::Evidence::OllamaLog(_))
        );
    if a.server_oom {
        reply.push(Block::Text(if server_log_read {
            SERVER_KNOBS.into()
        } else {
            SERVER_FAILED.into()
        }));
    }
    for why in &a.refused {
        reply.push(Block::Text(format!(
            "I did not take {why}; the run keeps what it had."
        )));
    }
    if a.tensor_parallel {
        reply.push(Block::Text(TENSOR_PARALLEL_REFUSAL.into()));
    }
    if a.model_versions && a.model_choices.len() == 1 {
        reply.push(Block::Text(format!(
            "The one my catalog has by that name is {0}. Is that your model? (\"yes\" takes {0}; if it is another release, paste its `config.json` or give its parameter count.) The run's other settings are kept.",
            a.model_choices[0]
        )));
    } else if a.model_versions {
        reply.push(Block::Text(format!(
            "My catalog has that name in more than one version: {}. Which one is it? (\"{}\" is enough.) The run's other settings are kept.",
            a.model_choices.join(", "),
            a.model_choices[0]
        )));
    } else if !a.model_choices.is_empty() {
        reply.push(Block::Text(format!(
            "You named {} as alternatives, so I have not set either as your run's model. Which one is it? (\"the {}\" is enough; \"what if …\" shows the other beside it.)",
            a.model_choices.join(" and "),
            a.model_choices[0]
                .split_whitespace()
                .next()
                .unwrap_or("first")
                .to_lowercase()
        )));
    }
    if a.model_choices.is_empty()
        && session.model_choices.len() >= 2
        && a.words.as_deref().is_some_and(|w| FIT_CUE.is_match(w))
    {
        reply.push(Block::List(choice_lines(session, k)));
    }
    if let Some(name) = &a.unknown_model {
        reply.push(Block::Text(format!(
            "\"{name}\" is not in my model catalog (`headroom models` lists it), so I cannot plan it from its name, and I will not guess its shapes. Paste its `config.json` (the file beside the safetensors on its Hugging Face page) or tell me its parameter count (\"params 34b\"); the run stays as it was until then."
        )));
    }
    // "what does the chunked loss buy me?": the run beside itself without
    // that setting; a what-if the same words made changes nothing, so it
    // is dropped rather than offered.
    let effect = a
        .words
        .as_deref()
        .filter(|_| a.updates.is_empty())
        .and_then(|w| {
            let held = crate::dialogue::pool_turn::held_beside(session, k);
            crate::dialogue::setting_effect::answer(w, &session.facts, &held, k).or_else(|| {
                // A setting the run lacks, when no what-if was made of it.
                a.what_if
                    .is_empty()
                    .then(|| {
                        crate::dialogue::setting_effect::answer_lacking(w, &session.facts, &held, k)
                    })
                    .flatten()
            })
        });
    // "why is your number not 40 GB?": the plan's peak beside that figure.
    let effect = effect.or_else(|| {
        a.words
            .as_deref()
            .filter(|_| a.updates.is_empty())
            .and_then(|w| {
                let held = crate::dialogue::pool_turn::held_beside(session, k);
                crate::dialogue::figure_question::answer(w, &session.facts, &held, k)
            })
    });
    // "will it even load?": the load-time peak needs no batch or packing.
    let effect = effect.or_else(|| {
        a.words
            .as_deref()
            .and_then(|w| crate::dialogue::load_question::answer(w, &session.facts, k))
    });
    if let Some(text) = &effect {
        reply.push(Block::Text(text.clone()));
        if !a.what_if.is_empty() {
            session.what_if = None;
        }
    }
    if !a.what_if.is_empty() && effect.is_none() {
        let held = crate::dialogue::pool_turn::held_beside(session, k);
        match what_if_block(&session.facts, &a.what_if, &held, k) {
            Some(b) => reply.push(b),
            None => {
                let still = missing(&session.facts);
                reply.push(Block::Text(format!(
                    "I kept that as a what-if (nothing changed). To plan it beside your run I first need the run itself. {}",
                    ask_for(&still, &session.facts)
                )));
            }
        }
        if let Some(note) = method_what_if_note(session, a, k) {
            reply.push(Block::Text(note));
        }
    }
    // A greeting gets what headroom does, not a shrug.
    if let Some(words) = &a.words
        && matches!(
            words
                .trim()
                .trim_end_matches(['!', '.', '?'])
                .to_ascii_lowercase()
                .as_str(),
            "hi" | "hello"
                | "hey"
                | "hi there"
                | "hello there"
                | "good morning"
                | "good evening"
                | "help"
        )
        && let Some(text) = crate::dialogue::questions::by_topic("capabilities", k)
    {
        reply.push(Block::Text(text));
    }
    // A server is what the words are about when it was the last topic, or
    // when they name one whose log or listing is in the conversation ("What
    // if we restart vLLM at 0.4?" after a plan turn; set 15, 07 T3).
    let names_known_server = a.words.as_deref().is_some_and(|w| {
        let lower = w.to_ascii_lowercase();
        (session.vllm_log.is_some() || session.procs.is_some()) && lower.contains("vllm")
            || session.ollama.is_some() && lower.contains("ollama")
            // "just set it to 0.85", "what fraction then?" with a vLLM log
            // in the conversation: its fraction.
            || session.vllm_log.is_some() && FRACTION_TALK.is_match(&lower)
    });
    let server_topic = names_known_server
        || matches!(
            session.topic,
            Some(crate::dialogue::session::Topic::Server | crate::dialogue::session::Topic::Pool)
        );
    let share = a
        .words
        .as_deref()
        .filter(|_| !a.restart_proposed)
        .and_then(|w| {
            crate::extract::share::share_question(w).or_else(|| {
                server_topic
                    .then(|| crate::extract::share::share_follow_up(w))
                    .flatten()
            })
        });
    // "What's using my memory?" above a `ps aux` is answered by reading
    // the paste, not by the stock explainer; a question the paste does not
    // answer ("power is stuck at 96W, is that a misconfig?") still is.
    let covered = if a.mixed {
        a.topics_pastes_answer()
    } else {
        Vec::new()
    };
    let mut answered_question = false;
    let mut domain_answered = false;
    // "why is the loss logits part so big?": that term's worksheet line.
    let term = a
        .words
        .as_deref()
        .filter(|w| effect.is_none() && asks(w) && a.updates.is_empty() && a.what_if.is_empty())
        .and_then(|w| {
            crate::dialogue::plan_turn::build_plan(&session.facts, k)
                .and_then(|(plan, _)| crate::dialogue::term_question::term_answer(w, &plan))
        });
    // "colocate 0.3 is how many GB?": the fraction against CUDA's pool.
    let term = term.or_else(|| {
        a.words
            .as_deref()
            .filter(|_| a.updates.is_empty() && a.what_if.is_empty())
            .and_then(|w| crate::dialogue::fraction_question::answer(w, k))
    });
    // "which one should I use?" with a what-if beside the run.
    let term = term.or_else(|| {
        a.words
            .as_deref()
            .filter(|_| a.updates.is_empty() && a.what_if.is_empty())
            .and_then(|w| crate::dialogue::which_question::which_answer(w, session, k))
    });
    if let Some(text) = &term {
        reply.push(Block::Text(text.clone()));
    }
    if let Some(words) = &a.words
        && share.is_none()
        && term.is_none()
        && (asks(words) || reply.blocks.is_empty() && a.updates.is_empty())
    {
        // The topic is read in the sentences that ask: "bf16, batch 2,
        // gradient_accumulation_steps 8" or "did the drop caches and
        // relaunched" name a topic without asking about it.
        let asked = if asks(words) {
            asked_sentences(words)
        } else {
            words.clone()
        };
        let blocks_before = reply.blocks.len();
        if let Some(why) = flush_cannot_help(session, &asked, k) {
            reply.push(Block::Text(why));
        }
        let mut last = std::mem::take(&mut session.last_answer);
        // A thermal reply (the sampler asked for, a verdict) is the topic
        // "what command?" is about, as an answer row would be.
        if session.topic == Some(crate::dialogue::session::Topic::Thermal) {
            last.push("thermal".into());
        }
        for (topic, text) in crate::dialogue::questions::answers_after(&asked, k, &covered, &last) {
            if !reply.blocks.iter().any(|b| b == &Block::Text(text.clone())) {
                reply.push(Block::Text(text));
            }
            session.last_answer.push(topic);
            domain_answered = true;
        }
        // "should I flush first?" after a server died for memory: the
        // flush before its relaunch, for the owner's yes.
        // "ok should I flush it then?" when the plan fits only once the page
        // cache is returned (set 15, 01 T5): the same, before the launch.
        let asked_flush = domain_answered
            && session.pending.is_none()
            && session.last_answer.iter().any(|t| t.starts_with("flush"));
        let offer = match flush_for(session) {
            _ if !asked_flush => None,
            FlushFor::Relaunch => Some(SERVER_FLUSH.to_string()),
            FlushFor::Launch => flush_before_launch(session, k),
            // A run that OOMed: the ladder proposes step 1 itself.
            FlushFor::Retry => None,
        };
        if let Some(text) = offer {
            session.pending = Some(Action::Rung(crate::extract::oom::Rung::Flush));
            reply.push(Block::Text(text));
        }
        // Only a question that got an answer stands in for the plan's
        // questions: "is that possible on this box?" gets them.
        answered_question = reply.blocks.len() > blocks_before;
    }
    // "Batch or seq first?": the ladder's order, with both figures.
    if let Some(words) = &a.words
        && crate::dialogue::order_question::asks_order(words)
    {
        reply.push(Block::Text(crate::dialogue::order_question::order_answer(
            session, k,
        )));
    }
    // gradient_accumulation_steps given as a setting: one line on why it
    // changes nothing (the whole answer when asked, above).
    if let Some(words) = &a.words
        && words.to_ascii_lowercase().contains("gradient_accumulation")
        && let Some(text) = crate::dialogue::questions::by_topic("grad_accum", k)
        && !reply.blocks.iter().any(|b| b == &Block::Text(text.clone()))
    {
        let batch = session
            .facts
            .batch
            .as_ref()
            .map_or(String::new(), |b| format!(" ({})", b.value));
        reply.push(Block::Text(format!(
            "`gradient_accumulation_steps` changes no memory: only one micro-batch's activations are alive at a time, so headroom plans the per-device batch{batch}. Ask \"why does gradient accumulation not count?\" for the sources."
        )));
    }
    if let Some(change) = a
        .words
        .as_deref()
        .and_then(crate::extract::rate_change::rate_change)
    {
        reply.push(Block::Text(crate::dialogue::slowdown_words::slowdown_note(
            &change, k,
        )));
    }
    if let Some(b) = &a.banner {
        reply.push(Block::Text(crate::dialogue::banner_note::banner_note(
            b,
            &session.facts,
        )));
    }
    if let Some(m) = &a.trainer_memory {
        reply.push(Block::Text(
            crate::dialogue::trainer_memory_note::trainer_memory_note(m, session, k),
        ));
    }
    // "would a bigger batch help with the slowdown?" after the check: the
    // answer, not the same report again.
    if a.thermal && !(a.thermal_again && domain_answered) {
        let blocks = thermal_blocks(session, files, k, a.thermal_details, a.sources_before);
        session.sampler_asked = !blocks.iter().any(|b| matches!(b, Block::Thermal(_)));
        reply.blocks.extend(blocks);
    }
    if a.no_free_now && session.facts.free.is_none() {
        reply.push(Block::Text(
            "Understood: without `free -g` I plan against an idle Spark's nominal budget and say so. If anything else is loaded (vLLM, Ollama, another job), that budget is too high; paste `free -g` when you can and I will redo the verdict with yours.".into(),
        ));
    }

    let summarised = summary_part(session, a, k, &mut reply);
    let wants_plan = a.changed_run()
        || a.solve.is_some()
        || a.adopted
        || matches!(
            a.request,
            Some(Request::Plan(_) | Request::NextStep | Request::Summary)
        );
    if wants_plan && !oom && !summarised {
        // A question answered in a turn that also named the run ("4 hours
        // into a qwen 7b lora run … should I drop caches?") is not a
        // request to plan it: what the plan lacks is not asked then.
        let fit_asked = a.words.as_deref().is_some_and(|w| FITS_ASKED.is_match(w));
        let ask_missing = !answered_question || fit_asked;
        plan_part(session, a, now, k, &mut reply, ask_missing);
    }
    // After the plan, so "can I run vLLM beside it?" reads the run first.
    // A vLLM log read in this turn already set its fraction beside the
    // run: the words that name the same server say nothing more.
    if let Some(ask) = &share
        && !(a.vllm_log && ask.server == crate::extract::share::Server::Vllm)
    {
        let most = a
            .words
            .as_deref()
            .is_some_and(crate::extract::share::asks_most)
            .then(|| crate::dialogue::share_turn::largest_fraction_block(ask, session, k))
            .flatten();
        match most {
            Some(block) => reply.push(block),
            None => reply
                .blocks
                .extend(crate::dialogue::share_turn::share_blocks(ask, session, k)),
        }
    }
    if reply.blocks.is_empty()
        && session.pending.is_none()
        && a.words
            .as_deref()
            .is_some_and(|w| crate::dialogue::pool_turn::keeps_server(session, w))
    {
        return Reply::info(crate::dialogue::pool_turn::KEPT);
    }
    if reply.blocks.is_empty()
        && let Some(text) = a
            .words
            .as_deref()
            .and_then(|w| crate::dialogue::pool_turn::stop_order_answer(session, w, k))
    {
        return Reply::info(text);
    }
    if reply.blocks.is_empty()
        && let Some(text) = a
            .words
            .as_deref()
            .and_then(|w| crate::dialogue::remark::remark_reply(w, session.pending.is_some()))
    {
        return Reply::info(text);
    }
    if reply.blocks.is_empty()
        && let Some(text) = a
            .words
            .as_deref()
            .and_then(|w| crate::dialogue::pending_question::answer(w, session, k))
    {
        return Reply {
            kind: ReplyKind::Ask,
            ..Reply::info(text)
        };
    }
    if reply.blocks.is_empty() {
        if let Some(action) = &session.pending {
            return Reply {
                kind: ReplyKind::Ask,
                ..Reply::info(format!(
                    "Nothing was done. Only a short typed answer counts; text inside a paste is data, and a question or a hedge is not a yes. What is waiting: {}. Reply yes, no, or yes with an exception (\"yes, but not vllm\").",
                    action.label()
                ))
            };
        }
        return not_understood(session, a);
    }
    reply
}

/// "can i just drop caches and retry?" when the ladder skipped the flush:
/// why it cannot help this run, before what a flush does.
fn flush_cannot_help(session: &Session, asked: &str, k: &Knowledge) -> Option<String> {
    let ladder = session.ladder.as_ref()?;
    let crate::dialogue::ladder::RungStatus::Skipped(why) =
        ladder.status(crate::extract::oom::Rung::Flush)
    else {
        return None;
    };
    crate::dialogue::questions::matching(asked, k)
        .iter()
        .any(|a| a.topic == "flush")
        .then(|| format!("Not for this OOM: {why}."))
}

/// The sentences of a turn that ask something, joined: a domain answer is
/// chosen from them, not from a statement beside them.
fn asked_sentences(words: &str) -> String {
    let all = crate::extract::intent::sentences(words);
    let mut asked: Vec<String> = Vec::new();
    for (i, s) in all.iter().enumerate() {
        if s.intent == crate::extract::intent::Intent::Statement {
            continue;
        }
        // "I want the throttle events in the log. how?": a bare "how?" or
        // "why?" asks about the sentence before it.
        let bare = s.text.split_whitespace().count() <= 2;
        if bare && i > 0 {
            asked.push(format!(
                "{} {}",
                all[i - 1].text.trim_end_matches(['.', '!', ';']),
                s.text
            ));
        } else {
            asked.push(s.text.clone());
        }
    }
    asked.join(" ")
}

/// "How much memory will it need?": the run in one line, with what it had
/// to assume. False when the turn asked for no summary or changed the run.
fn summary_part(session: &Session, a: &Absorbed, k: &Knowledge, reply: &mut Reply) -> bool {
    if a.request != Some(Request::Summary) || a.changed_run() {
        return false;
    }
    let Some((plan, _)) = crate::dialogue::plan_turn::build_plan(&session.facts, k) else {
        return false;
    };
    reply.push(Block::Summary(Box::new(crate::dialogue::whatif::summary(
        &plan,
    ))));
    let still = missing(&session.facts);
    if !still.is_empty() {
        let i = &plan.input;
        let assumed: Vec<String> = still
            .iter()
            .filter_map(|slot| match slot {
                SlotName::Pack => Some(format!("packing {}", i.pack)),
                SlotName::Batch => Some(format!("batch {}", i.batch)),
                SlotName::Dtype => Some(format!("dtype {}", i.dtype.key())),
                _ => None,
            })
            .collect();
        reply.push(Block::Text(format!(
            "That figure assumes {} until you tell me yours. {}",
            assumed.join(", "),
            ask_for(&still, &session.facts)
        )));
    }
    reply.verdict = Some(plan.judgement.verdict);
    true
}

/// The plan, a short "old → new" after a correction, or what it still needs.
fn plan_part(
    session: &mut Session,
    a: &Absorbed,
    now: Timestamp,
    k: &Knowledge,
    reply: &mut Reply,
    ask_missing: bool,
) {
    // The setting being solved for is the one thing not to ask for.
    let solving = a.solve.map(|what| match what {
        crate::calc::solve::SolveFor::Pack => SlotName::Pack,
        crate::calc::solve::SolveFor::Batch => SlotName::Batch,
    });
    let still: Vec<SlotName> = missing(&session.facts)
        .into_iter()
        .filter(|s| Some(*s) != solving)
        .collect();
    let asked_for_plan = a.solve.is_some()
        || matches!(
            a.request,
            Some(Request::Plan(_) | Request::NextStep | Request::Summary)
        );
    if !still.is_empty()
        && !asked_for_plan
        && (!ask_missing || !crate::dialogue::plan_turn::plan_begun(&session.facts))
    {
        // A setting said in passing ("train log (hf trainer)") or a `free`
        // paste alone: noted, and the questionnaire waits for a run.
        if a.updates.iter().any(|u| u.slot == SlotName::Free) {
            reply.push(Block::Text(START_A_RUN.into()));
        }
        return;
    }
    if !still.is_empty() {
        let lead = match a.solve {
            Some(what) => format!(
                "To find the {} that fits I first need the rest of the plan. ",
                what.noun()
            ),
            None => String::new(),
        };
        reply.push(Block::Text(format!(
            "{lead}{}",
            ask_for(&still, &session.facts)
        )));
        reply.kind = ReplyKind::Ask;
        return;
    }
    let asked = match a.request {
        Some(Request::Plan(detail)) => Some(detail),
        _ => None,
    };
    let short =
        a.solve.is_none() && asked.is_none() && session.last_plan.is_some() && a.before.is_some();
    // A what-if adopted that holds the run's own values changes nothing.
    if short
        && a.adopted
        && a.before
            .as_ref()
            .is_some_and(|b| crate::dialogue::whatif::changes(b, &session.facts).is_empty())
    {
        reply.push(Block::Text(
            "That is your run already: nothing changed.".into(),
        ));
        return;
    }
    if short
        && let Some(before) = &a.before
        && let Some(block) = change_block(
            before,
            &session.facts,
            &crate::dialogue::pool_turn::held_beside(session, k),
            k,
        )
    {
        let mut block = block;
        if a.adopted {
            reply.push(Block::Text("Adopted: the what-if is now your run.".into()));
        } else if let Block::PlanChange(change) = &mut block {
            // The "Noted:" line above already says it, with the owner's words.
            // A memory paste's line there is briefer than the budget change,
            // so that one is still said.
            change.already_noted =
                !a.updates.is_empty() && !a.updates.iter().any(|u| u.slot == SlotName::Free);
        }
        reply.push(block);
        if let Some(full) = plan_reply(session, now, None, PlanDetail::Brief, k) {
            // Record the new plan (verdict and facts) without reprinting it.
            reply.verdict = full.verdict;
            reply.kind = ReplyKind::Plan;
            if let Some(plan) = full.plan() {
                reply.record = Some(Box::new(plan.clone()));
            }
        }
        return;
    }
    let detail = asked.unwrap_or(PlanDetail::Brief);
    if a.adopted {
        reply.push(Block::Text("Adopted: the what-if is now your run.".into()));
    }
    if let Some(full) = plan_reply(session, now, a.solve, detail, k) {
        reply.blocks.extend(full.blocks);
        reply.verdict = full.verdict;
        reply.kind = ReplyKind::Plan;
    } else {
        reply.push(Block::Text(
            "That model is not in the catalog any more; name it again or give its parameter count."
                .into(),
        ));
    }
}

/// What a memory paste says beyond `available`: the page cache a flush
/// would return (buff/cache in `free`, Buffers + Cached in /proc/meminfo).
fn memory_note(session: &Session) -> Option<String> {
    use crate::calc::units::show_centi;
    let r = &session.facts.free.as_ref()?.value.reading;
    let cache = r.buff_cache_bytes?;
    let gb = |b: f64| show_centi((b / 1e7).floor() as u64);
    Some(format!(
        "From your paste: available {} GB is what the kernel can give (page cache it can reclaim included; the budget is this less the reserve); free right now, without reclaim, is {} GB; page cache (buff/cache) {} GB is what a flush would return (OOM ladder step 1: root, between runs only, and only with your yes). On GB10 `nvidia-smi` shows no memory and CUDA's free figure leaves the page cache out, so neither is the budget.",
        gb(r.available_bytes),
        gb(r.free_bytes?),
        gb(cache)
    ))
}

/// A what-if from QLoRA to bf16 LoRA is ladder step 3: say when it cannot help.
fn method_what_if_note(session: &Session, a: &Absorbed, k: &Knowledge) -> Option<String> {
    use crate::calc::setup::Method;
    use crate::extract::slots::Slot;
    let to_lora = a
        .what_if
        .iter()
        .any(|f| f.slot == Slot::Method(Method::Lora));
    let from_qlora = session
        .facts
        .method
        .as_ref()
        .is_some_and(|m| m.value == Method::Qlora);
    if !(to_lora && from_qlora) {
        return None;
    }
    let after = crate::dialogue::whatif::hypothetical(&session.facts, &a.what_if);
    let (plan, _) = crate::dialogue::plan_turn::build_plan(&after, k)?;
    (plan.estimate.total_centi_gb > plan.budget.centi_gb).then(|| {
        format!(
            "QLoRA → bf16 LoRA is step 3 of the OOM ladder, but here it cannot help: bf16 LoRA of this model needs {} GB, over the {} GB budget, because the base weights take 2 B per parameter instead of about 0.5. Your run stays QLoRA.",
            crate::calc::units::show_centi(plan.estimate.total_centi_gb),
            crate::calc::units::show_centi(plan.budget.centi_gb)
        )
    })
}

fn approval_reply(
    session: &Session,
    action: &Action,
    ans: Answer,
    k: &Knowledge,
    before: Option<&crate::dialogue::facts::Facts>,
) -> Reply {
    match (action, ans) {
        (Action::Rung(rung), Answer::Yes) => {
            let (text, commands) = applied(*rung, &session.facts, k, flush_for(session));
            let mut reply = Reply {
                commands,
                ..Reply::info(text)
            };
            // The job changed: the run before and after, both peaks and
            // verdicts, so the restart is judged against the new figure.
            if *rung != crate::extract::oom::Rung::Flush {
                let held = crate::dialogue::pool_turn::held_beside(session, k);
                match before.and_then(|b| change_block(b, &session.facts, &held, k)) {
                    Some(block) => reply.push(block),
                    None => {
                        if let Some(line) = crate::dialogue::oom_turn::changed_run_line(session, k)
                        {
                            reply = reply.then(line);
                        }
                    }
                }
            }
            reply
        }
        (Action::Rung(rung), Answer::No) => {
            let mut reply = Reply::info(format!(
                "Noted: you declined {}. I won't suggest it again unless you ask.",
                rung.label()
            ));
            let next = next_question(session, k);
            if !next.is_empty() {
                reply = reply.then(format!("What else can be done: {next}"));
            }
            reply
        }
        (
            Action::Stop(_) | Action::Unload(_) | Action::Refraction(..) | Action::StopService(_),
            Answer::Yes,
        ) => {
            let (text, commands) = stop_instructions(action, k);
            Reply {
                commands,
                ..Reply::info(text)
            }
        }
        (
            Action::Stop(_) | Action::Unload(_) | Action::Refraction(..) | Action::StopService(_),
            Answer::No,
        ) => Reply::info(format!(
            "Noted: you declined to {}; I won't suggest it again unless you ask. What else can be done: shrink the run until it fits beside them (shorter packing first, then a smaller batch: say \"what's the longest packing that fits?\"), or restart vLLM with a lower `--gpu-memory-utilization` when it suits you.",
            action.label()
        )),
    }
}

static FIT_CUE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    crate::extract::re(r"(?i)\b(?:fit\w*|memory|which one|both|compare|peak|room)\b")
});

/// Words that ask whether the run fits, beside a domain question.
static FRACTION_TALK: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    crate::extract::re(
        r"(?i)\b(?:fraction|utili[sz]ation|gpu[\s_-]?mem\w*)\b|\b(?:set|put|make|bump|raise|lower|drop)\s+it\s+(?:to|at|down to|up to)\s+0?\.\d+",
    )
});

static FITS_ASKED: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    crate::extract::re(
        r"(?i)\bfit\w*|\bwill (?:it|this|that|my run) (?:work|run|oom)\b|\bhow much (?:memory|ram)\b|\b(?:possible|doable|feasible|realistic)\b|\bcan (?:i|we|it|this box|the spark) (?:do|run|train|handle|manage)\b",
    )
});

/// Each candidate model planned with the run's other settings, one line each.
fn choice_lines(session: &Session, k: &Knowledge) -> Vec<String> {
    session
        .model_choices
        .iter()
        .map(|name| {
            let facts = crate::dialogue::whatif::hypothetical(
                &session.facts,
                &[crate::extract::slots::Found {
                    slot: crate::extract::slots::Slot::Model(name.clone()),
                    words: name.clone(),
                }],
            );
            match crate::dialogue::plan_turn::build_plan(&facts, k) {
                Some((plan, _)) => format!(
                    "{name}: peak {} GB against the {} GB budget ({:.1} %): {}",
                    crate::calc::units::show_centi(plan.estimate.total_centi_gb),
                    crate::calc::units::show_centi(plan.budget.centi_gb),
                    crate::calc::verdict::share_of_budget(
                        plan.estimate.total_centi_gb,
                        plan.budget.centi_gb.max(1)
                    ),
                    plan.judgement.verdict.label()
                ),
                None => format!("{name}: I need the rest of the run to plan it"),
            }
        })
        .collect()
}

/// What a flush now would come before: a dead server's relaunch, a run's
/// retry after its OOM, or a launch not yet made. The offer and the yes
/// read it the same way.
fn flush_for(session: &Session) -> FlushFor {
    if session.server_failed && session.topic == Some(crate::dialogue::session::Topic::Server) {
        FlushFor::Relaunch
    } else if session.ladder.is_none() {
        FlushFor::Launch
    } else {
        FlushFor::Retry
    }
}

/// The flush offered before a launch, when the run fits `available` but
/// not what is free right now.
fn flush_before_launch(session: &Session, k: &Knowledge) -> Option<String> {
    let (plan, _) = crate::dialogue::plan_turn::build_plan(&session.facts, k)?;
    let peak = plan.estimate.total_centi_gb;
    let free_now = plan.budget.free_now_centi_gb?;
    (crate::calc::budget::now(peak, &plan.budget) == Some(crate::calc::budget::Now::AfterFlush))
        .then(|| {
            format!(
                "Here it is worth it: your run's {} GB peak fits the {} GB budget, but not the {} GB that is free right now without reclaim once the reserve is kept, and a flush with nothing training returns the page cache before the launch. It changes system state, so it is your call: shall I give you the command? (yes/no)",
                crate::calc::units::show_centi(peak),
                crate::calc::units::show_centi(plan.budget.centi_gb),
                crate::calc::units::show_centi(free_now)
            )
        })
}

/// The flush offered before an inference server's relaunch.
const SERVER_FLUSH: &str = "Here it fits: the server died for memory, so flushing the page cache with the server stopped, before its relaunch, gives the pool back what reading the weights left cached. It changes system state, so it is your call: shall I give you the command? (yes/no)";

/// An inference server failed beside the run: its own knobs, not the
/// training ladder.
const SERVER_FAILED: &str = "That is the inference server failing, not your training run, so the OOM ladder for training does not apply. The server's own knobs decide what it asks of the pool: for vLLM `--gpu-memory-utilization` (a fraction of what CUDA reports, claimed whole at start) and `--max-model-len`; for Ollama `OLLAMA_NUM_PARALLEL` and `OLLAMA_CONTEXT_LENGTH` (its KV cache grows with both) and `OLLAMA_MAX_LOADED_MODELS`. Paste the server's log around the failure (`journalctl -u ollama`, or vLLM's startup lines) and I will give each knob's figure against your run.";

/// The same, when the server's own log is read in the turn: its figures
/// are above, so only the knobs and the order to turn them.
const SERVER_KNOBS: &str = "That is the inference server failing, not your training run, so the OOM ladder for training does not apply. Its own knobs decide what it asks of the pool, first the one that matches how it failed: a long prompt or many requests need KV cache and prefill room, so cap `--max-model-len` (and `--max-num-batched-tokens`) at what you use; memory outside the fraction (a driver error, the host freezing) needs a lower `--gpu-memory-utilization`, which on a Spark is a fraction of the whole pool, claimed at start. For Ollama the same roles are `OLLAMA_CONTEXT_LENGTH`, `OLLAMA_NUM_PARALLEL` and `OLLAMA_MAX_LOADED_MODELS`.";

/// How to begin a plan, in one line, where the questionnaire would be noise.
pub const START_A_RUN: &str = "To plan a run against it, tell me the run: model, method, batch and packing (\"QLoRA on Llama 3.1 70B, batch 1, packing 2048\"), or paste its trainer config.";

/// Pastes no reader knows: said by their first line, with what is read.
fn unread_note(first_lines: &[String]) -> String {
    let quoted: Vec<String> = first_lines.iter().map(|l| format!("\"{l}\"")).collect();
    format!(
        "I do not read the paste starting {}, so nothing in it changed your run. I read `free`, `/proc/meminfo`, nvidia-smi (table, `-q`, `--query-gpu` CSV), `ps aux`, `ollama ps`, OOM tracebacks and kernel OOM lines, training logs, vLLM and Ollama logs, `config.json` and trainer configs.",
        quoted.join(" and ")
    )
}

/// "done, it's gone", "killed it": the owner did what they approved last
/// (a stop, an unload, a restart): noted, and the reading that shows the
/// memory it gave back is asked for. The ladder's own steps report their
/// results through the ladder.
fn done_reply(session: &Session, said: &str) -> Option<String> {
    if session.pending.is_some() || !crate::extract::approval::says_done(said) {
        return None;
    }
    let last = session.decisions.last().filter(|d| d.approved)?;
    if matches!(last.action, crate::dialogue::ladder::Action::Rung(_)) {
        return None;
    }
    Some(format!(
        "Noted: you did it ({}). Paste a fresh `free -g` so the budget counts the memory it gave back; until then your plan stands on the figures from before.",
        last.action.label()
    ))
}

/// Words that matched nothing: say what was read and what was not, and
/// what would move things on.
fn not_understood(session: &Session, a: &Absorbed) -> Reply {
    let said = a.words.as_deref().unwrap_or("").trim();
    if let Some(text) = crate::dialogue::command_line::command_line_reply(said) {
        return Reply::info(text);
    }
    if let Some(text) = crate::dialogue::bare_setting::bare_setting_reply(
        said,
        &session.facts,
        &session.banner_batches,
    ) {
        return Reply::info(text);
    }
    if let Some(text) = done_reply(session, said) {
        return Reply::info(text);
    }
    // "no, leave it, I'll reboot later" with nothing waiting: their call,
    // noted, not a dead end.
    if session.pending.is_none() && crate::extract::approval::says_leave_it(said) {
        return Reply::info(
            "Noted: nothing stopped; that is your call, and nothing was waiting for a yes or no. Whatever those processes hold stays taken until they exit (a reboot frees it all); paste a fresh `free -g` once it has, and I will redo the budget.",
        );
    }
    let quoted: String = said.chars().take(120).collect();
    let reply = Reply::info(format!(
        "I read \"{quoted}\" but found no run setting, question I can answer, or OOM/thermal report in it."
    ));
    let still = missing(&session.facts);
    if !crate::dialogue::plan_turn::plan_begun(&session.facts) {
        return reply.then(
            "Ask what I can do, tell me a run to plan (\"QLoRA on Llama 3.1 70B, batch 1, packing 2048\"), or paste what the box printed (`free -g`, `ps aux`, an OOM traceback, the thermal sampler's log).",
        );
    }
    if still.is_empty() {
        reply.then(
            "Your run is complete: change any setting (\"batch 2\", \"packing 1024\"), ask \"what if …\", say \"full plan\", paste a fresh `free -g`, or ask what I can do. `/status` shows what I know.",
        )
    } else {
        reply
            .then(ask_for(&still, &session.facts))
            .then("Or ask what I can do.")
    }
}
