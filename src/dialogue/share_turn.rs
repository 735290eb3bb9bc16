//! "Can I run vLLM (or Ollama) beside my training?" answered with the
//! numbers: a capped server's claim against the run, or, for a server with
//! no cap, what the run leaves for it. Nothing is stopped or changed here.

use crate::calc::pool::{budget_text, pool_budget_centi};
use crate::calc::units::{plain, show_centi};
use crate::dialogue::pool_turn::need;
use crate::dialogue::session::Session;
use crate::dialogue::vllm_turn::share_lines;
use crate::extract::ps::{ProcessKind, parse_ps};
use crate::extract::share::{Server, ShareAsk};
use crate::knowledge::Knowledge;
use crate::reply::Block;

/// "Can it stay up while this trains?" when the memory paste was taken with
/// the server running: what it holds is already out of that budget, so the
/// plan's verdict is the answer, not a claim added on top a second time.
fn kept_up_blocks(ask: &ShareAsk, session: &Session, k: &Knowledge) -> Option<Vec<Block>> {
    session.facts.free.as_ref()?;
    let (plan, _) = crate::dialogue::plan_turn::pooled_plan(session, &session.facts, k)?;
    if plan.budget.basis == crate::calc::budget::BudgetBasis::Nominal {
        return None;
    }
    let (peak, budget) = (plan.estimate.total_centi_gb, plan.budget.centi_gb);
    let verdict = plan.judgement.verdict;
    let server = ask.server.label();
    let held = if ask.server == Server::Vllm {
        format!(
            " vLLM takes its memory when it starts ({}), so it does not grow while it serves; a restart, or another model loaded, changes the figure.",
            k.spark("vLLM default gpu-memory-utilization").cite
        )
    } else {
        format!(
            " {server} loads and unloads models as requests come, so its share can grow: paste `{}` if it loads another.",
            if ask.server == Server::Ollama {
                "ollama ps"
            } else {
                "ps aux"
            }
        )
    };
    Some(vec![Block::Text(format!(
        "Your memory paste was taken with {server} up, so what it holds is already out of the {} GB budget: your run's {} GB peak against it is **{}** (margin {} GB), with {server} staying as it is.{held}",
        show_centi(budget),
        show_centi(peak),
        verdict.label(),
        crate::calc::units::show_centi_delta(plan.judgement.margin_centi_gb),
    ))])
}

/// The fraction to plan vLLM with and where it came from: the owner's
/// words, the vLLM log, the process listing, or vLLM's default.
/// "how much does the vLLM part take?" about an RL run whose config gives
/// its generator a fraction, with no server of its own on the box: the
/// generator is inside the run, so its claim is part of the run's plan,
/// not a second process beside it.
fn generator_block(ask: &ShareAsk, session: &Session, k: &Knowledge) -> Option<Block> {
    if ask.fraction.is_some() {
        return None;
    }
    let f = own_generator(ask, session, k)?;
    let claim = crate::calc::vllm_share::share(f, None, k).claim_centi_gb;
    let cuda = k.spark("memory CUDA reports");
    Some(Block::Text(format!(
        "The vLLM part is your run's own generator, set by your config's `vllm_gpu_memory_utilization` {f}: it claims {f} × {} GiB (what CUDA reports on a GB10, {}) = {} GB of the pool at start. The run's plan counts it inside the run's peak, not beside it.",
        plain(cuda.value),
        cuda.cite,
        crate::calc::units::show_centi(claim),
        f = plain(f),
    )))
}

/// The fraction of the run's own colocated generator, when the vLLM the
/// owner asks about can only be that one: no server listed or logged.
fn own_generator(ask: &ShareAsk, session: &Session, k: &Knowledge) -> Option<f64> {
    if ask.server != Server::Vllm || session.vllm_log.is_some() {
        return None;
    }
    let listed_vllm = !crate::dialogue::pool_turn::listed_vllm_fractions(session, k).is_empty();
    let objective = session.facts.objective.as_ref()?;
    objective.value.fraction.filter(|_| !listed_vllm)
}

fn vllm_fraction(ask: &ShareAsk, session: &Session, k: &Knowledge) -> (f64, String) {
    if let Some(f) = ask.fraction {
        return (f, format!("the {} you said", plain(f)));
    }
    if let Some(log) = session.vllm_log.as_ref().map(|l| &l.value)
        && let Some(f) = log.claimed_fraction()
    {
        return (
            f,
            format!(
                "your pasted {}'s {}",
                log.origin.noun(),
                log.origin.fraction_name()
            ),
        );
    }
    let listed = session
        .procs
        .as_ref()
        .and_then(|p| parse_ps(&p.value).ok())
        .and_then(|ps| ps.into_iter().find(|p| p.kind == ProcessKind::Vllm));
    if let Some(f) = listed.as_ref().and_then(|p| p.utilization_flag) {
        return (
            f,
            "`--gpu-memory-utilization` on the vLLM command line in your process listing".into(),
        );
    }
    let d = k.spark("vLLM default gpu-memory-utilization");
    if let Some(p) = listed {
        return (
            d.value,
            format!(
                "no `--gpu-memory-utilization` on pid {}'s command line in your listing, so vLLM's default {} ({})",
                p.pid,
                plain(d.value),
                d.cite
            ),
        );
    }
    (
        d.value,
        format!(
            "no fraction given, so vLLM's default {} ({}); say \"vllm at 0.3\" or paste `ps aux` to plan yours",
            plain(d.value),
            d.cite
        ),
    )
}

fn uncapped_blocks(server: Server, session: &Session, k: &Knowledge) -> Vec<Block> {
    let name = server.label();
    let mut lines = vec![budget_text(k)];
    match need(session, k) {
        Some((need_centi, words)) => {
            let budget = pool_budget_centi(k);
            lines.push(format!("your run: {} GB ({words})", show_centi(need_centi)));
            let left = budget.checked_sub(need_centi);
            lines.push(match left {
                Some(left) => format!(
                    "left beside your run: {} GB − {} GB = {} GB, for {name}'s models and anything else on the box",
                    show_centi(budget),
                    show_centi(need_centi),
                    show_centi(left)
                ),
                None => format!(
                    "nothing is left beside your run: it alone needs {} GB of the {} GB pool budget",
                    show_centi(need_centi),
                    show_centi(budget)
                ),
            });
            // "like 13gb" said of the model it will hold: set beside what
            // is left (weights as said; its KV cache comes on top).
            if let Some(said) = &session.held_said {
                let (_, held) = &said.value;
                let fits = left.is_some_and(|l| *held <= l);
                lines.push(format!(
                    "the {} GB you said it holds (\"{}\"): {}",
                    show_centi(*held),
                    said.words,
                    if fits {
                        format!(
                            "{} GB + {} GB = {} GB of the {} GB budget, so both fit, with its context's KV cache still to come out of the rest",
                            show_centi(need_centi),
                            show_centi(*held),
                            show_centi(need_centi + held),
                            show_centi(budget)
                        )
                    } else {
                        "more than is left beside your run, so they do not fit together".to_string()
                    }
                ));
            }
        }
        None => lines.push(
            "your run: not planned yet; give me the model, method, dtype, batch and packing and I will say what it leaves"
                .into(),
        ),
    }
    // Asked for only when not already read.
    let look = match server {
        Server::Ollama if session.ollama.is_some() => "",
        Server::Ollama => "Paste `ollama ps` and I will add what it holds now to your run's need.",
        _ if session.procs.is_some() => "",
        _ => "Paste `ps aux` (or the procs command: `/help`) and I will read what it runs.",
    };
    let mut blocks = vec![
        Block::Text(format!(
            "{name} has no memory cap of its own: what it holds is the model it has loaded (weights plus the KV cache for its context), taken from the same pool as your run, and a request can load more. It shares the box safely only while its models fit in what your run leaves, and on one pool an overrun evicts silently on both sides."
        )),
        Block::List(lines),
    ];
    if !look.is_empty() {
        blocks.push(Block::Text(look.into()));
    }
    blocks
}

/// The answer to a sharing question.
/// The largest fraction for vLLM beside the run, in one line, when that is
/// all the owner asked; `None` when the claim is not a vLLM's.
pub fn largest_fraction_block(ask: &ShareAsk, session: &Session, k: &Knowledge) -> Option<Block> {
    if ask.server != Server::Vllm {
        return None;
    }
    // The run's own generator: its largest fraction is the plan's solve,
    // with the generator's share taken out of the step first.
    if own_generator(ask, session, k).is_some()
        && let Some((plan, _)) = crate::dialogue::plan_turn::build_plan(&session.facts, k)
    {
        return crate::calc::plan::generator_solve(&plan, k).map(Block::Text);
    }
    let (fraction, from) = vllm_fraction(ask, session, k);
    let model_load = session
        .vllm_log
        .as_ref()
        .and_then(|l| l.value.model_load_gib);
    let line = share_lines(fraction, &from, model_load, session, k)
        .into_iter()
        .find(|l| l.starts_with("the largest fraction"))?;
    Some(Block::Text(format!("For vLLM beside your run, {line}.",)))
}

pub fn share_blocks(ask: &ShareAsk, session: &Session, k: &Knowledge) -> Vec<Block> {
    if let Some(block) = generator_block(ask, session, k) {
        return vec![block];
    }
    if ask.stays
        && let Some(blocks) = kept_up_blocks(ask, session, k)
    {
        return blocks;
    }
    match ask.server {
        Server::Vllm => {
            let (fraction, from) = vllm_fraction(ask, session, k);
            let model_load = session
                .vllm_log
                .as_ref()
                .and_then(|l| l.value.model_load_gib);
            vec![
                Block::Text(format!(
                    "vLLM beside your run, at gpu-memory-utilization {}:",
                    plain(fraction)
                )),
                Block::List(share_lines(fraction, &from, model_load, session, k)),
            ]
        }
        server => uncapped_blocks(server, session, k),
    }
}
