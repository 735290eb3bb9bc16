//! The shared-pool workflow in the dialogue: read the pasted listing, judge
//! each process by its cap against the run's need, and ask before
//! recommending any stop.

use crate::calc::pool::{PoolReport, Recommendation, assess};
use crate::dialogue::ladder::Action;
use crate::dialogue::plan_turn::build_plan;
use crate::dialogue::session::{Session, when};
use crate::extract::ps::{ProcessKind, parse_ps};
use crate::knowledge::Knowledge;
use crate::render::procs::procs_markdown;
use std::fmt::Write;

/// The pool report for the listing the owner pasted, re-read from its raw
/// text, against the current plan's need.
pub fn pool_report(session: &Session, k: &Knowledge) -> Option<PoolReport> {
    let raw = &session.procs.as_ref()?.value;
    let processes = parse_ps(raw).ok()?;
    let need =
        build_plan(&session.facts, k).map(|(plan, _)| plan.estimate.total_centi_gb as f64 * 1e7);
    Some(assess(&processes, need, k))
}

/// The stops the report recommends, as one action to approve.
pub fn stop_action(report: &PoolReport) -> Option<Action> {
    let list: Vec<(u64, ProcessKind)> = report
        .processes
        .iter()
        .filter(|v| v.recommendation == Recommendation::Stop)
        .map(|v| (v.process.pid, v.process.kind))
        .collect();
    (!list.is_empty()).then_some(Action::Stop(list))
}

pub fn pool_markdown(session: &Session, k: &Knowledge) -> Option<String> {
    let report = pool_report(session, k)?;
    let source = if report.need_centi_gb.is_some() {
        "the plan's binding peak"
    } else {
        "unknown"
    };
    let mut md = procs_markdown(&report, source);
    match &session.pending {
        Some(action @ Action::Stop(_)) => {
            let _ = write!(
                md,
                "\n\nShall I tell you how to {}? That stops work that is running, so it is your call: reply yes or no.",
                action.label()
            );
        }
        _ => {
            if let Some(action) = stop_action(&report)
                && let Some(d) = session.declined(&action)
            {
                let _ = write!(
                    md,
                    "\n\nYou declined to {} on {}; I won't suggest it again unless you ask. Without it: shrink the run (shorter packing, then a smaller batch) until it fits beside them, or restart vLLM with a lower `--gpu-memory-utilization`.",
                    action.label(),
                    when(d.at)
                );
            }
        }
    }
    Some(md)
}

/// What to run for each approved stop, from knowledge/commands.md.
pub fn stop_instructions(list: &[(u64, ProcessKind)], k: &Knowledge) -> (String, Vec<String>) {
    let mut md = String::from("Approved. To stop them (headroom runs nothing itself):\n\n");
    let mut commands = Vec::new();
    for (pid, kind) in list {
        let command = if *kind == ProcessKind::OllamaServer {
            k.command("stop-ollama").command.clone()
        } else {
            k.command("stop-pid")
                .command
                .replace("PID", &pid.to_string())
        };
        let _ = writeln!(md, "- {} (pid {pid}): `{command}`", kind.label());
        commands.push(command);
    }
    md.push_str(
        "\nThen paste a fresh `free -g` and I will redo the budget with the memory they held.",
    );
    (md, commands)
}
