//! "Is that bad?" and "how do I stop it?" after an answer: the last
//! answer's topic, judged or turned into advice, never reprinted.

use crate::calc::thermal::{Analysis, ThermalVerdict};
use crate::calc::units::{show_centi, show_centi_delta};
use crate::calc::verdict::Verdict;
use crate::dialogue::session::{Session, Topic};
use crate::dialogue::thermal_turn::{Files, current_analysis};
use crate::extract::intent::FollowUp;
use crate::knowledge::Knowledge;
use crate::reply::Block;

/// The answer to a follow-up on the last topic, or `None` when there is no
/// topic it can be about (the caller then says what it needs).
pub fn follow_up_blocks(
    session: &Session,
    files: &dyn Files,
    k: &Knowledge,
    kind: FollowUp,
    now: jiff::Timestamp,
) -> Option<Vec<Block>> {
    let fresh = crate::dialogue::plan_turn::stale_free(&session.facts, now, k).is_none();
    let Some(topic) = session.topic else {
        let still = crate::dialogue::plan_turn::missing(&session.facts);
        let next = if still.is_empty() {
            "Say \"plan\" for the verdict on your run.".to_string()
        } else {
            crate::dialogue::plan_turn::ask_for(&still, &session.facts)
        };
        return Some(vec![Block::Text(format!(
            "There is no answer or reading before this for that to be about yet. {next}"
        ))]);
    };
    if kind == FollowUp::Together
        && let Some(blocks) = together(session, k)
    {
        return Some(blocks);
    }
    // A restart at a lower fraction was just proposed for this advice.
    if kind == FollowUp::Advice
        && let Some(crate::dialogue::ladder::Action::Refraction(f, _)) = &session.pending
    {
        return Some(vec![Block::Text(
            crate::dialogue::vllm_turn::refraction_proposal(*f, session, k),
        )]);
    }
    if topic == Topic::Oom {
        let answer = match kind {
            FollowUp::Victim => crate::dialogue::oom_follow_up::victim(session),
            FollowUp::Judge => crate::dialogue::oom_follow_up::judge(session, k),
            _ => None,
        };
        if let Some(text) = answer {
            return Some(vec![Block::Text(text)]);
        }
    }
    let specific = match topic {
        Topic::Thermal => Some(vec![Block::Text(
            match current_analysis(session, files, k) {
                Some(a) => thermal(&a, kind, k),
                None => crate::dialogue::thermal_turn::pending_follow_up(session, files),
            },
        )]),
        // "Is that bad?" right after a what-if is about the what-if.
        Topic::Plan | Topic::Memory => {
            let facts = match &session.what_if {
                Some(w) => crate::dialogue::whatif::hypothetical(&session.facts, &w.value),
                None => session.facts.clone(),
            };
            crate::dialogue::plan_turn::pooled_plan(session, &facts, k).map(|(plan, _)| {
                let text = plan_follow_up(&plan, kind, fresh);
                vec![Block::Text(if session.what_if.is_some() {
                    format!("The what-if (your run is unchanged until you adopt it): {text}")
                } else {
                    text
                })]
            })
        }
        // "so? is that bad?" after an nvidia-smi paste that came with the
        // run and its memory: the verdict is what it is about.
        Topic::Gpu => Some(vec![Block::Text(
            crate::dialogue::plan_turn::pooled_plan(session, &session.facts, k).map_or_else(
                || gpu_meaning(session, k),
                |(plan, _)| plan_follow_up(&plan, kind, fresh),
            ),
        )]),
        // "good enough to start the training now?" after a server's log:
        // the run's go or no-go, in the pool that log describes.
        // "so?" after a server's log or launch: the same verdict.
        Topic::Server if matches!(kind, FollowUp::Launch | FollowUp::Judge) => {
            crate::dialogue::plan_turn::pooled_plan(session, &session.facts, k)
                .map(|(plan, _)| vec![Block::Text(plan_follow_up(&plan, kind, fresh))])
        }
        // "what do I change first?" after a server failed: its first knob,
        // with the figure its own log or config gave.
        Topic::Server if kind == FollowUp::Advice => {
            Some(vec![Block::Text(match session.vllm_log.as_ref() {
                Some(l) => server_first_knob(&l.value, k),
                None => crate::dialogue::server_bounds::fraction_bounds(session, k),
            })])
        }
        Topic::Server => None,
        Topic::Unread => Some(vec![Block::Text(format!(
            "I could not read that paste, so I cannot say what it means for your run. {}",
            next_step(session, topic, k)
        ))]),
        // "is that bad?" after a listing: the run's verdict beside what the
        // listing holds, and what the stops waiting for a yes would change.
        Topic::Pool if matches!(kind, FollowUp::Judge | FollowUp::Launch) => {
            crate::dialogue::plan_turn::pooled_plan(session, &session.facts, k).map(|(plan, _)| {
                let mut text = plan_follow_up(&plan, kind, fresh);
                if let Some(after) = after_stops(session, k) {
                    text.push(' ');
                    text.push_str(&after);
                }
                vec![Block::Text(text)]
            })
        }
        Topic::Oom | Topic::Pool => oom_or_pool(session, topic, k),
    };
    // Every follow-up gets the reading's meaning for the run or the next
    // step: never "found nothing".
    Some(specific.unwrap_or_else(|| vec![Block::Text(next_step(session, topic, k))]))
}

/// The vLLM knob to turn first, with what the server's log or config said.
fn server_first_knob(log: &crate::extract::vllm_log::VllmLog, k: &Knowledge) -> String {
    let fraction = log.utilization.map_or(String::new(), |f| {
        let claim = crate::calc::vllm_share::share(f, None, k).claim_centi_gb;
        format!(
            " Then, if it still fails, a lower `--gpu-memory-utilization` than {}: it claims {} × 121.69 GiB = {} GB of the pool at start, and what it allocates outside that fraction has to fit in the rest.",
            crate::calc::units::plain(f),
            crate::calc::units::plain(f),
            show_centi(claim)
        )
    });
    match log.max_model_len {
        Some(len) => format!(
            "First `--max-model-len`: your server allows {len} tokens per sequence, so one long prompt can ask for KV cache and prefill memory far past what your requests need; set it to the longest prompt that works for you (and `--max-num-batched-tokens` with it).{fraction}"
        ),
        None => format!(
            "First `--max-model-len` (and `--max-num-batched-tokens`): cap the sequence at the longest prompt you need, so one request cannot ask for more KV cache and prefill memory than the pool has.{fraction}"
        ),
    }
}

/// The verdict once the stops waiting for a yes are done.
fn after_stops(session: &Session, k: &Knowledge) -> Option<String> {
    let Some(crate::dialogue::ladder::Action::Stop(list)) = &session.pending else {
        return None;
    };
    let pids: Vec<u64> = list.iter().map(|(pid, _)| *pid).collect();
    let (plan, _) = crate::dialogue::plan_turn::build_plan(&session.facts, k)?;
    let held = crate::dialogue::pool_turn::held_beside_except(session, k, &pids);
    let plan = crate::dialogue::plan_turn::in_pool(plan, &held, k);
    Some(format!(
        "With the stop that waits for your yes ({}) done, the budget is {} GB: {}, margin {} GB.",
        session.pending.as_ref()?.label(),
        show_centi(plan.budget.centi_gb),
        plan.judgement.verdict.label(),
        show_centi_delta(plan.judgement.margin_centi_gb)
    ))
}

fn oom_or_pool(session: &Session, topic: Topic, k: &Knowledge) -> Option<Vec<Block>> {
    match topic {
        Topic::Oom => {
            let next = crate::dialogue::oom_turn::next_question(session, k);
            let ladder = session.ladder.as_ref()?;
            let mut text = crate::dialogue::oom_turn::ladder_status(ladder);
            if !next.is_empty() {
                text.push_str(&format!("\nNext: {next}"));
            }
            Some(vec![Block::Text(text)])
        }
        Topic::Pool => session.pending.as_ref().map(|action| {
            vec![Block::Text(format!(
                "What I recommend, and what waits for your yes or no: {}. Reply yes or no; nothing is stopped until you do it yourself.",
                action.label()
            ))]
        }),
        _ => None,
    }
}

/// "Can both run at once?" about the server or listing just read.
fn together(session: &Session, k: &Knowledge) -> Option<Vec<Block>> {
    use crate::extract::share::{Server, ShareAsk};
    match session.topic? {
        Topic::Server if session.vllm_log.is_some() => {
            Some(crate::dialogue::share_turn::share_blocks(
                &ShareAsk {
                    server: Server::Vllm,
                    fraction: None,
                    stays: false,
                },
                session,
                k,
            ))
        }
        // "can both run at once?" after a listing with one vLLM: its
        // fraction (the flag, or the default) beside the run, and the
        // largest that would leave the run its peak, not the table again.
        Topic::Pool if crate::dialogue::pool_turn::listed_vllm_fractions(session, k).len() == 1 => {
            Some(crate::dialogue::share_turn::share_blocks(
                &ShareAsk {
                    server: Server::Vllm,
                    fraction: None,
                    stays: false,
                },
                session,
                k,
            ))
        }
        Topic::Pool if session.procs.is_some() || session.ollama.is_some() => {
            Some(crate::dialogue::pool_turn::pool_blocks(session, k, false))
        }
        _ => None,
    }
}

/// What the memory a run may use is, from the last memory paste.
fn memory_line(session: &Session, k: &Knowledge) -> Option<String> {
    let paste = &session.facts.free.as_ref()?.value;
    let b = crate::calc::budget::from_free(&paste.reading, k);
    Some(format!(
        "Your box can give a run {} GB now: {}.",
        show_centi(b.centi_gb),
        b.explanation
    ))
}

/// nvidia-smi on GB10 shows no memory: what the paste can and cannot say.
fn gpu_meaning(session: &Session, k: &Knowledge) -> String {
    let head = "nvidia-smi cannot tell you what a run has on a DGX Spark: the GPU has no memory of its own (GB10 shares the one pool, so its memory cells say \"Not Supported\" or [N/A]), and page cache never shows there.";
    match memory_line(session, k) {
        // next_step with the Memory topic would say the memory line again.
        Some(line) => format!("{head} {line} {}", next_step(session, Topic::Gpu, k)),
        None => format!(
            "{head} What counts is `free -g`'s `available`: run `free -g` and paste its three lines; `ps aux` shows who holds the pool."
        ),
    }
}

/// The reading explained against the run, or what the run still needs.
fn next_step(session: &Session, topic: Topic, k: &Knowledge) -> String {
    let still = crate::dialogue::plan_turn::missing(&session.facts);
    let memory = if topic == Topic::Memory {
        memory_line(session, k).map(|l| format!("{l} "))
    } else {
        None
    }
    .unwrap_or_default();
    if !still.is_empty() {
        let need = crate::dialogue::plan_turn::ask_for(&still, &session.facts);
        return format!("{memory}Whether your run fits in it is the next question. {need}");
    }
    format!(
        "{memory}Your run is complete: say \"plan\" for the verdict, \"what if …\" to try a change, or paste `ps aux` to see who shares the pool."
    )
}

/// How much a slowdown costs: an hour of training at the slower step time
/// does the work of `60 × before / after` minutes at the old one.
fn cost(a: &Analysis) -> Option<String> {
    let s = a.slowdown.as_ref()?;
    let pct = (s.after_s_per_step / s.baseline_s_per_step - 1.0) * 100.0;
    Some(format!(
        "step time {:.2} → {:.2} s/step (+{pct:.1} %), so each hour now does the work of {:.1} minutes at the old pace",
        s.baseline_s_per_step,
        s.after_s_per_step,
        60.0 * s.baseline_s_per_step / s.after_s_per_step
    ))
}

fn thermal(a: &Analysis, kind: FollowUp, k: &Knowledge) -> String {
    let resample = "To check a change, sample again beside the run (`bash assets/thermal-sample.sh 30 thermal.log`) and give me both files: the same power at a lower temperature, with no thermal flag, means it worked.";
    match (a.verdict, kind) {
        (
            ThermalVerdict::ThermalThrottling,
            FollowUp::Judge | FollowUp::Victim | FollowUp::Together | FollowUp::Launch,
        ) => match cost(a) {
            Some(c) if a.matches_thermal_event == Some(true) => format!(
                "Yes, it costs you time: the GPU slows itself for heat, and your run with it ({c}). It does not harm the run's result, and it will not stop it."
            ),
            _ => "The GPU throttled for heat, but the training log shows no sustained slowdown lined up with it, so the run has not paid for it yet.".into(),
        },
        (ThermalVerdict::ThermalThrottling, FollowUp::Advice) => format!(
            "This is heat, so the levers are the ones that take heat away: the air around the box and the room it is in. No training setting is a thermal fix, and I change nothing on the box. {resample}"
        ),
        (ThermalVerdict::PowerCapOnly, _) => format!(
            "Nothing to fix: power sits near 100 W, the platform's sustained cap ({}), not a fault. Do not re-tune batch size or precision for it.{}",
            k.rule("platform power plateau").cite,
            cost(a)
                .map(|c| format!(" The slowdown in your log ({c}) has another cause: say \"details\" for the leads."))
                .unwrap_or_default()
        ),
        (ThermalVerdict::LowPowerState, FollowUp::Advice) => format!(
            "A full AC power cycle: shut down, unplug the power brick from the wall and the Spark for 60 s, reconnect ({}). A fan or a cooler room will not clear it. Then sample again beside the run (`bash assets/thermal-sample.sh 30 thermal.log`): power back near 100 W and the clock above {:.0} MHz under load means it worked.",
            k.rule("low-power state clock").cite,
            k.rule("low-power state clock").value
        ),
        (ThermalVerdict::LowPowerState, _) => format!(
            "Not heat: the GPU is stuck in a low-power state (busy at about {:.0} W or less, the clock ≤ {:.0} MHz{}), the power-delivery fault reported on GB10, and it does slow the run. Cooling will not clear it; a full AC power cycle does (say \"what do I do\" for the steps).",
            k.rule("low-power state power").value,
            k.rule("low-power state clock").value,
            a.events
                .first()
                .and_then(|e| e.temp_max_c)
                .map(|t| format!(", at {t:.0} °C at most"))
                .unwrap_or_default()
        ),
        (ThermalVerdict::NoThermalEvent, _) => match cost(a) {
            Some(c) => format!(
                "The slowdown is real ({c}) but not thermal, so cooling will not help. Check what else was happening then: a server or job that started on the pool (paste `ps aux` taken near the slowdown), evaluation or checkpoint steps, data loading. Say \"details\" for the evidence."
            ),
            None => "Nothing to fix: no thermal event and no sustained slowdown in what you gave me.".into(),
        },
        (ThermalVerdict::InsufficientData, _) => format!(
            "I cannot judge it yet: {}.",
            a.insufficient
                .iter()
                .map(|i| i.trim_end_matches('.'))
                .collect::<Vec<_>>()
                .join("; ")
        ),
    }
}

/// With a fresh memory paste: whether it fits in what is free right now,
/// or only once the page cache is returned (the plan's own three-way
/// reading). A stale or future-dated paste says nothing about right now.
fn fits_now_words(plan: &crate::calc::plan::Plan) -> String {
    use crate::calc::budget::Now;
    let peak = plan.estimate.total_centi_gb;
    let (Some(now), Some(free)) = (
        crate::calc::budget::now(peak, &plan.budget),
        plan.budget.free_now_centi_gb,
    ) else {
        return String::new();
    };
    // Each term shown: the free column, the reserve, what is left for a run
    // (the reading said "free right now … 9.44 GB"; 5.44 GB alone read as a
    // different figure).
    let reserve = plan.budget.reserve_centi_gb;
    // Nothing left after the reserve: the free figure itself is not kept.
    let terms = if free == 0 {
        format!(
            "less than the {} GB reserve is free right now, so 0.00 GB",
            show_centi(reserve)
        )
    } else {
        format!(
            "{} GB free right now less the {} GB reserve = {} GB",
            show_centi(free + reserve),
            show_centi(reserve),
            show_centi(free)
        )
    };
    match now {
        Now::FitsNow => {
            format!(" It fits right now too: {terms} for the run, so no flush is needed.")
        }
        Now::AfterFlush => format!(
            " But only after the page cache is returned: {terms} for the run, under the {} GB peak. A flush between runs (OOM ladder step 1, root, your call) gives it back; ask me for the command when you want it.",
            show_centi(peak)
        ),
        Now::DoesNotFit => String::new(),
    }
}

/// The plan's first two smaller settings with their peaks and verdicts:
/// "packing 4096 → 2048: 152.44 GB (does not fit); …".
pub(crate) fn alternatives_text(plan: &crate::calc::plan::Plan) -> String {
    plan.alternatives
        .iter()
        .take(2)
        .map(|a| {
            format!(
                "{}: {} GB ({})",
                a.change,
                show_centi(a.total_centi_gb),
                a.verdict.label()
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

fn plan_follow_up(plan: &crate::calc::plan::Plan, kind: FollowUp, fresh: bool) -> String {
    let (peak, budget) = (plan.estimate.total_centi_gb, plan.budget.centi_gb);
    let margin = show_centi_delta(plan.judgement.margin_centi_gb);
    // The run by name, so a verdict given turns later says which run.
    let run = format!("{} {}", plan.input.model.display, plan.input.method.label());
    let alternatives = || alternatives_text(plan);
    let to_fit = || crate::calc::plan::to_fit(plan).unwrap_or_default();
    match (plan.judgement.verdict, kind) {
        (Verdict::Fits, FollowUp::Launch) => format!(
            "For memory, yes: {run}'s peak {} GB is {:.1} % of the {} GB budget, margin {margin} GB. Starting it is yours to do; headroom starts nothing. If anything may have started on the box since{}, paste a fresh `free -g` first.",
            show_centi(peak),
            crate::calc::verdict::share_of_budget(peak, budget.max(1)),
            show_centi(budget),
            if plan.budget.basis == crate::calc::budget::BudgetBasis::Nominal {
                " (this verdict is on an idle Spark's budget, not yours)"
            } else {
                ""
            }
        ),
        (Verdict::Fits, FollowUp::Judge | FollowUp::Victim | FollowUp::Together) => format!(
            "It fits, so nothing is wrong for memory: {run}'s peak {} GB is {:.1} % of the {} GB budget, margin {margin} GB.{}",
            show_centi(peak),
            crate::calc::verdict::share_of_budget(peak, budget.max(1)),
            show_centi(budget),
            if fresh {
                fits_now_words(plan)
            } else {
                String::new()
            }
        ),
        (Verdict::Fits, FollowUp::Advice) => format!(
            "Nothing needs changing for memory: it fits with {margin} GB to spare. Before launch, paste a fresh `free -g` so the verdict is against what the box has then."
        ),
        (Verdict::Tight, _) => format!(
            "It is tight: {margin} GB between the {} GB peak and the budget, so a longer sample or a server starting can push it over. Safer: {}.",
            show_centi(peak),
            alternatives()
        ),
        (Verdict::DoesNotFit, FollowUp::Launch) => format!(
            "No: {run}'s peak {} GB is over the {} GB budget by {} GB, so it would OOM. {}",
            show_centi(peak),
            show_centi(budget),
            show_centi(peak.saturating_sub(budget)),
            to_fit()
        ),
        // Stated, not "yes": the same forms ask "is that bad?" and "will
        // it fit?", whose answers would be opposite words.
        (Verdict::DoesNotFit, _) => format!(
            "It does not fit: {run}'s peak {} GB is over the {} GB budget by {} GB, so it would OOM. {}",
            show_centi(peak),
            show_centi(budget),
            show_centi(peak.saturating_sub(budget)),
            to_fit()
        ),
    }
}
