//! A pasted vLLM log in the dialogue: what the server's fraction claims of
//! the pool, whether the run fits beside it, and the largest fraction that
//! would let both run. Nothing here changes the run or the server.

use crate::calc::units::{plain, show_centi};
use crate::calc::verdict::{Verdict, share_of_budget};
use crate::calc::vllm_share::{share, share_in};
use crate::dialogue::pool_turn::need;
use crate::dialogue::session::Session;
use crate::extract::vllm_log::{VllmLog, VllmText};
use crate::knowledge::Knowledge;
use crate::reply::Block;

fn refusal_block(log: &VllmLog) -> Option<Block> {
    let r = log.refused.as_ref()?;
    Some(Block::Text(format!(
        "vLLM refused to start: it wanted {} of the {} GiB its CUDA reported = {} GiB, but only {} GiB was free at startup. A fraction of at most {} / {} = {:.2} would have started it, and that before leaving anything for a trainer; the rest was held by other processes or page cache (`free -g` and `ps aux` show which).",
        plain(r.utilization),
        plain(r.total_gib),
        plain(r.wanted_gib),
        plain(r.free_gib),
        plain(r.free_gib),
        plain(r.total_gib),
        (r.free_gib / r.total_gib * 100.0).floor() / 100.0
    )))
}

/// The start refused because one request at `max_model_len` needs more
/// KV cache than the fraction left for it.
fn kv_short_block(log: &VllmLog) -> Option<Block> {
    let short = log.kv_short.as_ref()?;
    let len = log
        .max_model_len
        .map_or("its `max_model_len`".to_string(), |n| {
            format!("its max_model_len {n}")
        });
    let have = log.kv_cache_gib.map_or(String::new(), |g| {
        format!(" and only {} GiB was left for it", plain(g))
    });
    let fix = short.estimated_max_len.map_or(
        "a shorter `--max-model-len`".to_string(),
        |n| format!("`--max-model-len` at most {n} (vLLM's own estimate), or the longest your requests need"),
    );
    Some(Block::Text(format!(
        "vLLM refused to start for KV cache, not for the pool as a whole: one request at {len} needs {} GiB of KV cache{have}. The fix is {fix}; a larger `--gpu-memory-utilization` would also start it, but takes that much more of the pool from a trainer beside it.",
        plain(short.needed_gib)
    )))
}

const GIB: f64 = 1024.0 * 1024.0 * 1024.0;

fn plain_2(x: f64) -> String {
    plain((x * 100.0).round() / 100.0)
}

/// `--kv-cache-memory-bytes` set: vLLM sizes its KV cache from it and
/// ignores the fraction, so what it holds is its weights plus that cache
/// plus its activations, which only a memory paste taken with it up shows.
fn fixed_kv_block(log: &VllmLog) -> Option<Block> {
    let bytes = log.kv_cache_bytes?;
    let fraction = log.utilization.map_or(String::new(), |f| {
        format!(
            " (so its {} {} is not what it claims)",
            log.origin.fraction_name(),
            plain(f)
        )
    });
    Some(Block::Text(format!(
        "With `--kv-cache-memory-bytes` set, vLLM sizes its KV cache at {} GiB and ignores the fraction (vLLM's `CacheConfig`: \"kv_cache_memory_bytes (when not-None) ignores gpu_memory_utilization\"){fraction}. What it holds is its weights plus that cache plus its activations: paste `free -g` taken with it running and I count it from there.",
        plain_2(bytes as f64 / GIB)
    )))
}

/// The blocks for the last pasted vLLM log.
pub fn vllm_blocks(session: &Session, k: &Knowledge) -> Vec<Block> {
    let Some(known) = &session.vllm_log else {
        return Vec::new();
    };
    let log = &known.value;
    let mut out = Vec::new();
    let mut read = Vec::new();
    if let Some(m) = &log.served_model
        && log.origin != VllmText::Log
    {
        read.push(format!("it serves `{m}`"));
    }
    if let Some(f) = log.utilization {
        let name = match log.origin {
            VllmText::Log => "gpu_memory_utilization",
            _ => "`--gpu-memory-utilization`",
        };
        read.push(format!("{name} {}", plain(f)));
    }
    if let Some(b) = log.kv_cache_bytes {
        read.push(format!(
            "a fixed KV cache of {b} bytes = {} GiB",
            plain_2(b as f64 / GIB)
        ));
    }
    if let Some(n) = log.max_model_len
        && log.origin != VllmText::Log
    {
        read.push(format!("`--max-model-len` {n}"));
    }
    if let Some(g) = log.model_load_gib {
        read.push(format!("model loading took {} GiB", plain(g)));
    }
    if let Some(g) = log.kv_cache_gib {
        // Before a KV refusal the figure is what was left, not a claim.
        read.push(match log.kv_short {
            Some(_) => format!("KV cache memory available {} GiB", plain(g)),
            None => format!("KV cache pre-allocated {} GiB", plain(g)),
        });
    }
    out.push(Block::Text(format!(
        "Read from your {}: {}. {}",
        log.origin.noun(),
        read.join(", "),
        if log.origin == VllmText::Log {
            "It is the inference server's log, so nothing in it changes your training run."
        } else {
            "These are the inference server's settings, not your training run's."
        }
    )));
    if let Some(b) = refusal_block(log) {
        out.push(b);
        return out;
    }
    if let Some(b) = kv_short_block(log) {
        out.push(b);
        return out;
    }
    if let Some(b) = fixed_kv_block(log) {
        out.push(b);
        return out;
    }
    let Some(fraction) = log.utilization else {
        return out;
    };
    let from = match log.origin {
        VllmText::Log => "the log's `gpu_memory_utilization`".to_string(),
        o => format!("`--gpu-memory-utilization` in your {}", o.noun()),
    };
    out.push(Block::List(share_lines(
        fraction,
        &from,
        log.model_load_gib,
        session,
        k,
    )));
    out
}

/// Does the model vLLM loaded (its log's "Model loading took" GiB) still
/// fit in `fraction` of what CUDA reports? Unknown weights do.
fn weights_load_at(fraction: f64, cuda_gib: f64, model_load_gib: Option<f64>) -> bool {
    model_load_gib.is_none_or(|g| fraction * cuda_gib > g)
}

/// The server's claim at `fraction` beside the run: each term, the verdict
/// for both together, and the largest fraction that leaves the run its peak.
pub fn share_lines(
    fraction: f64,
    fraction_from: &str,
    model_load_gib: Option<f64>,
    session: &Session,
    k: &Knowledge,
) -> Vec<String> {
    let run = need(session, k);
    // What other processes hold now comes off the pool the server and the
    // run share, as it does in the verdict (set 15, 13 T1: a 12.18 GB
    // trainer was in the verdict and not here).
    let others = crate::dialogue::pool_turn::held_beside_vllm(session, k);
    let others_centi: u64 = others.iter().map(|(_, c)| *c).sum();
    let budget = crate::calc::pool::pool_budget_centi(k).saturating_sub(others_centi);
    let s = share_in(fraction, run.as_ref().map(|(c, _)| *c), budget, k);
    let mut lines = vec![format!(
        "vLLM claims its whole fraction at start, whatever it serves: {} × {} GiB (what CUDA reports on a GB10, knowledge/spark.md) = {} GB [{fraction_from}]",
        plain(fraction),
        plain(s.cuda_gib),
        show_centi(s.claim_centi_gb)
    )];
    lines.push(crate::calc::pool::pool_budget_text(k));
    if !others.is_empty() {
        let terms: Vec<String> = others
            .iter()
            .map(|(who, c)| format!("{who} {} GB", show_centi(*c)))
            .collect();
        lines.push(format!(
            "held beside them now: {} = {} GB, so the server and your run share {} GB − {} GB = {} GB",
            terms.join(" + "),
            show_centi(others_centi),
            show_centi(crate::calc::pool::pool_budget_centi(k)),
            show_centi(others_centi),
            show_centi(budget)
        ));
    }
    let Some((need_centi, need_words)) = run else {
        lines.push("your run: not planned yet, so I cannot say whether it fits beside the server; give me the model, method, dtype, batch and packing".into());
        return lines;
    };
    lines.push(format!(
        "your run: {} GB ({need_words})",
        show_centi(need_centi)
    ));
    let together = s.claim_centi_gb + need_centi;
    let verdict = match s.judgement(k) {
        Some(j) if j.verdict == Verdict::Tight => {
            let left = s.budget_centi_gb.saturating_sub(s.claim_centi_gb);
            let tight = k.spark("tight above");
            format!(
                "they fit side by side, but tight: your run's {} GB is {:.1} % of the {} GB − {} GB = {} GB the server leaves, margin +{} GB; tight above {:.0} % ({})",
                show_centi(need_centi),
                share_of_budget(need_centi, left),
                show_centi(s.budget_centi_gb),
                show_centi(s.claim_centi_gb),
                show_centi(left),
                show_centi(left - need_centi),
                tight.value * 100.0,
                tight.cite
            )
        }
        _ if s.fits() == Some(true) => "they fit side by side".into(),
        _ => "they do not fit side by side".into(),
    };
    lines.push(format!(
        "together: {} GB + {} GB = {} GB against the {} GB pool budget: {verdict}",
        show_centi(s.claim_centi_gb),
        show_centi(need_centi),
        show_centi(together),
        show_centi(s.budget_centi_gb),
    ));
    let weights_fit = |f: f64| weights_load_at(f, s.cuda_gib, model_load_gib);
    lines.push(match s.largest_fraction {
        Some(f) if !weights_fit(f) => format!(
            "the largest fraction that leaves your run its peak is {} ({} × {} GiB = {:.2} GiB), less than the {} GiB the model took to load: vLLM cannot serve this model beside this run; stop it for the run, or make the run smaller (shorter packing first, then a smaller batch)",
            plain(f),
            plain(f),
            plain(s.cuda_gib),
            f * s.cuda_gib,
            plain(model_load_gib.unwrap_or_default())
        ),
        Some(f) => {
            let tight = k.spark("tight above");
            // At the largest fraction the run is tight by definition; the
            // fraction that keeps it under the line is the one to run at.
            let untight = match s.untight_fraction.filter(|u| *u < f) {
                Some(u) => format!(
                    "; at {} or below your run stays under the tight line ({:.0} % of what the server leaves, {}): ({} GB − {} GB / {} = {} GB) / {} GB = {}",
                    plain(u),
                    tight.value * 100.0,
                    tight.cite,
                    show_centi(s.budget_centi_gb),
                    show_centi(need_centi),
                    plain(tight.value),
                    show_centi((need_centi as f64 / tight.value).ceil() as u64),
                    show_centi(s.cuda_centi_gb()),
                    plain(u)
                ),
                None => String::new(),
            };
            format!(
                "the largest fraction that leaves your run its peak: ({} GB − {} GB) / {} GB = {} (rounded down to two decimals), i.e. `--gpu-memory-utilization {}`{untight}; the KV cache shrinks with it, so check vLLM still serves your context length",
                show_centi(s.budget_centi_gb),
                show_centi(need_centi),
                show_centi(s.cuda_centi_gb()),
                plain(f),
                plain(f)
            )
        }
        None => format!(
            "no fraction leaves your run its peak: the run alone needs {} GB of the {} GB pool budget, so the server has to be stopped for this run, or the run made smaller (shorter packing first, then a smaller batch)",
            show_centi(need_centi),
            show_centi(s.budget_centi_gb)
        ),
    });
    lines
}

/// The fraction to restart the pasted vLLM server with so the run fits
/// beside it: the largest that leaves the run its peak, when the server's
/// current fraction does not and the model's weights still load at it.
pub fn refraction(session: &Session, k: &Knowledge) -> Option<f64> {
    let log = &session.vllm_log.as_ref()?.value;
    // Absent from the log's non-default args: vLLM's default.
    // A fixed KV size overrides the fraction: no fraction to lower.
    if log.kv_cache_bytes.is_some() {
        return None;
    }
    let fraction = log
        .utilization
        .unwrap_or(k.spark("vLLM default gpu-memory-utilization").value);
    let (need_centi, _) = need(session, k)?;
    let s = share(fraction, Some(need_centi), k);
    if s.fits() != Some(false) {
        return None;
    }
    let f = s.largest_fraction?;
    weights_load_at(f, s.cuda_gib, log.model_load_gib).then_some(f)
}

/// The yes-gated proposal for a restart at a lower fraction.
pub fn refraction_proposal(f: f64, session: &Session, k: &Knowledge) -> String {
    let need = need(session, k).map_or(String::new(), |(c, _)| {
        format!(" beside your run's {} GB", show_centi(c))
    });
    // The owner's own fraction ("restart it at 0.4") is said as theirs,
    // beside the largest that leaves room when that is another figure.
    let why = match refraction(session, k).or_else(|| largest_fraction_now(session, k)) {
        Some(largest) if (largest - f).abs() > 1e-9 => format!(
            "the fraction you chose; the largest that leaves room{need} is {} (the arithmetic is above)",
            plain(largest)
        ),
        _ => format!("the largest fraction that leaves room{need} (the arithmetic is above)"),
    };
    format!(
        "Restart vLLM with `--gpu-memory-utilization {}`: {why}; its KV cache shrinks with it, so check it still serves your context length. The other way is to stop vLLM for the run. A restart stops the server while it comes back, so it is your call: shall I give you the command? (yes/no)",
        plain(f)
    )
}

/// The largest fraction beside the run, whether or not today's fits.
fn largest_fraction_now(session: &Session, k: &Knowledge) -> Option<f64> {
    let (need_centi, _) = need(session, k)?;
    share(
        k.spark("vLLM default gpu-memory-utilization").value,
        Some(need_centi),
        k,
    )
    .largest_fraction
}
