//! "Is that bad?" and "so the process killed is my trainer?" after an OOM:
//! a short judgement against the plan and the one next step, never the
//! ladder reprinted.

use crate::calc::units::{centi_gb_up, show_centi};
use crate::calc::verdict::Verdict;
use crate::dialogue::session::Session;
use crate::knowledge::Knowledge;

/// The judgement: what failed, what the plan says about it, what is next.
pub fn judge(session: &Session, k: &Knowledge) -> Option<String> {
    let ladder = session.ladder.as_ref()?;
    let mut text = format!(
        "It is what stopped the run: the pool ran out of memory (\"{}\"). Nothing is damaged; it is a memory problem, not a fault of the box.",
        short(&ladder.evidence)
    );
    if let Some((plan, _)) = crate::dialogue::plan_turn::pooled_plan(session, &session.facts, k) {
        let (peak, budget) = (
            show_centi(plan.estimate.total_centi_gb),
            show_centi(plan.budget.centi_gb),
        );
        text.push(' ');
        text.push_str(&match plan.judgement.verdict {
            Verdict::Fits => format!(
                "As planned the run peaks at {peak} GB of the {budget} GB budget, so the plan alone does not explain it: something else held the pool (page cache, another process), or the run went past what I was told (longer samples, another setting)."
            ),
            Verdict::Tight => format!(
                "As planned the run peaks at {peak} GB of the {budget} GB budget, within 10 % of it: little else in the pool is enough to tip it over."
            ),
            Verdict::DoesNotFit => format!(
                "As planned the run peaks at {peak} GB, over the {budget} GB budget: the plan explains the OOM, and the ladder's steps bring the peak down."
            ),
        });
    }
    // A step waiting for a yes is reminded of by the turn itself.
    let next = match session.pending {
        Some(_) => String::new(),
        None => crate::dialogue::oom_turn::next_question(session, k),
    };
    if !next.is_empty() {
        text.push_str(&format!("\n\nNext: {next}"));
    }
    Some(text)
}

/// Whose process the kernel's OOM killer took, from its own line.
pub fn victim(session: &Session) -> Option<String> {
    let ladder = session.ladder.as_ref()?;
    let Some(killed) = ladder.figures.as_ref().and_then(|f| f.killed.as_ref()) else {
        return Some("The message you pasted does not name the process that was killed; the kernel's `Out of memory: Killed process PID (name)` line does (`sudo dmesg | grep -i 'killed process'`).".into());
    };
    let held = killed.anon_rss_kib.map_or(String::new(), |kib| {
        format!(
            ", holding {} GB of anonymous memory when it was killed",
            show_centi(centi_gb_up(kib as f64 * 1024.0))
        )
    });
    Some(format!(
        "The kernel killed `{name}` (pid {pid}){held}. If your trainer's pid was {pid} (its launcher prints it; `ps aux` shows it while it runs), it was your trainer; a run started with `python`, `torchrun` or `accelerate launch` is a `python` process. The killer takes the process with the highest oom_score (mostly the memory it holds), so a trainer is usually the one taken even when something else filled the pool; what else held memory then, only a listing from that time can say.",
        name = killed.name,
        pid = killed.pid,
    ))
}

/// The evidence line, cut to a readable length.
fn short(evidence: &str) -> String {
    let line = evidence
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    match line.char_indices().nth(100) {
        Some((i, _)) => format!("{}…", &line[..i]),
        None => line.to_string(),
    }
}
