//! The shared-pool report as markdown and as JSON.

use crate::calc::pool::{PoolReport, Recommendation};
use crate::calc::units::show_centi;
use serde_json::{Value, json};
use std::fmt::Write;

fn rec(r: Recommendation) -> &'static str {
    match r {
        Recommendation::Keep => "keep",
        Recommendation::Stop => "stop",
        Recommendation::NotJudged => "not judged",
    }
}

pub const EVICTION_NOTE: &str = "On one pool, an uncapped server and a trainer evict each other's pages without either logging an error: a run that slows down for no clear reason, or a server that loses its KV cache, is a contention symptom.";

pub fn procs_markdown(report: &PoolReport, need_source: &str) -> String {
    let mut md = format!("## Shared pool: {} process(es)\n\n", report.processes.len());
    let _ = writeln!(md, "Pool: {}.", report.pool_text);
    match report.need_centi_gb {
        Some(n) => {
            let _ = writeln!(md, "Your run needs {} GB ({need_source}).\n", show_centi(n));
        }
        None => md.push_str(
            "I don't know the size of your run yet, so only the one-heavy-job rule applies; describe the run (or give `--need GB`) for a keep/stop per cap.\n\n",
        ),
    }
    for v in &report.processes {
        let p = &v.process;
        let rss = p
            .rss_kib
            .map(|r| {
                format!(
                    "; resident now {} GB (RSS)",
                    show_centi((r as f64 * 1024.0 / 1e7).ceil() as u64)
                )
            })
            .unwrap_or_default();
        let _ = writeln!(
            md,
            "- pid {} — {}: {}{rss}. **{}**: {}.",
            p.pid,
            p.kind.label(),
            v.cap_text,
            rec(v.recommendation),
            v.reason
        );
    }
    if let Some(line) = damaged_line(report) {
        let _ = writeln!(md, "{line}");
    }
    let _ = write!(md, "\n{EVICTION_NOTE}");
    if report.stops().next().is_some() {
        md.push_str(" Stopping a process is your call: headroom never stops anything, and tells you how only after you say yes.");
    }
    md
}

/// The pool on one screen: who holds what, keep or stop and why in a few
/// words; the reasoning in full is one request away ("details").
pub fn procs_table(report: &PoolReport, need_source: &str) -> String {
    let stops = report.stops().count();
    let mut md = format!(
        "## Shared pool: {} process(es), {stops} to stop\n\n",
        report.processes.len()
    );
    match report.need_centi_gb {
        Some(n) => {
            let _ = writeln!(
                md,
                "Your run needs {} GB of the {} GB pool budget ({}).\n",
                show_centi(n),
                show_centi(report.pool_budget_centi_gb),
                need_source.split(':').next().unwrap_or(need_source)
            );
        }
        None => md.push_str(
            "I don't know the size of your run yet, so only the one-heavy-job rule applies; describe the run for a keep/stop per cap.\n\n",
        ),
    }
    let gb = |c: Option<u64>| c.map_or("-".to_string(), show_centi);
    let rows: Vec<Vec<String>> = report
        .processes
        .iter()
        .map(|v| {
            let p = &v.process;
            let now = p.rss_kib.map(|r| (r as f64 * 1024.0 / 1e7).ceil() as u64);
            vec![
                p.pid.to_string(),
                p.kind.short().to_string(),
                match (v.cap_centi_gb, v.heavy) {
                    (Some(c), _) => show_centi(c),
                    (None, true) => "none".into(),
                    (None, false) => "-".into(),
                },
                gb(now),
                rec(v.recommendation).to_string(),
                v.why.clone(),
            ]
        })
        .collect();
    md.push_str(&crate::render::table::pipe_table(
        &["pid", "what", "cap GB", "RSS GB", "do", "why"],
        &[
            crate::render::table::Align::Right,
            crate::render::table::Align::Left,
            crate::render::table::Align::Right,
            crate::render::table::Align::Right,
            crate::render::table::Align::Left,
            crate::render::table::Align::Left,
        ],
        &rows,
    ));
    if let Some(line) = damaged_line(report) {
        let _ = write!(md, "\n\n{line}");
    }
    md.push_str("\n\nUncapped servers and trainers on one pool evict each other's pages without an error. Say \"details\" for each process's reasoning and where the budget comes from.");
    md
}

/// Rows left out for a damaged pid, named: a listing is never judged with
/// lines silently missing.
fn damaged_line(report: &PoolReport) -> Option<String> {
    let pids = &report.damaged_pids;
    (!pids.is_empty()).then(|| {
        format!(
            "Not read: {} row(s) whose pid column is damaged ({}): a pid has no leading zero and is at most 4,194,304, so these are no process I can judge. Paste a fresh `ps aux` if they matter.",
            pids.len(),
            pids.join(", ")
        )
    })
}

pub fn procs_json(report: &PoolReport) -> Value {
    json!({
        "damaged_pids": report.damaged_pids,
        "processes": report.processes.iter().map(|v| json!({
            "pid": v.process.pid,
            "kind": v.process.kind.key(),
            "cap_gb": v.cap_centi_gb.map(|c| c as f64 / 100.0),
            "cap_fraction": v.cap_fraction,
            "cap_source": v.cap_text,
            "heavy": v.heavy,
            "rss_kib": v.process.rss_kib,
            "recommendation": rec(v.recommendation),
            "reason": v.reason,
            "command": v.process.command,
        })).collect::<Vec<_>>(),
        "need_gb": report.need_centi_gb.map(|c| c as f64 / 100.0),
        "pool_budget_gb": report.pool_budget_centi_gb as f64 / 100.0,
        "kept_caps_gb": report.kept_caps_centi_gb as f64 / 100.0,
        "pool": report.pool_text,
        "eviction_note": EVICTION_NOTE,
    })
}
