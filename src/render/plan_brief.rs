//! The one-screen answer to "will it fit?": the verdict with peak, budget,
//! margin and what binds; the largest terms as a table; the assumptions in
//! one line; the next step. The worksheet is one request away.

use crate::calc::budget::BudgetBasis;
use crate::calc::plan::Plan;
use crate::calc::units::{show_centi, show_centi_delta};
use crate::calc::verdict::share_of_budget;
use crate::render::table::{Align, pipe_table};
use std::fmt::Write;

/// Terms shown by name; the rest are summed in one row.
const LARGEST_TERMS: usize = 3;

pub fn brief_plan(plan: &Plan) -> String {
    let mut md = String::new();
    if let Some(sol) = &plan.solution {
        md.push_str(&crate::render::plan_md::solution_line(sol));
        md.push_str("\n\n");
    }
    md.push_str(&verdict_line(plan));
    md.push_str("\n\n");
    md.push_str(&largest_terms(plan));
    md.push_str("\n\n");
    for note in &plan.notes {
        let _ = write!(md, "{note}\n\n");
    }
    // What would fit, and an anchor for this very model that does not
    // vouch for the run, in one paragraph.
    let mut caveats: Vec<String> = crate::calc::plan::to_fit(plan).into_iter().collect();
    let near = near_anchor(plan);
    caveats.extend(
        plan.anchors
            .iter()
            .filter(|a| a.setup.starts_with(&plan.input.model.display))
            .filter(|a| crate::render::plan_md::beyond_anchor(a, plan).is_some())
            // The near anchor's line says it already.
            .filter(|a| near.as_ref().is_none_or(|(n, _)| n.rule != a.rule))
            .map(|a| {
                format!(
                    "The seed's \"{}\" does not vouch for packing {}: it is beyond this anchor's rule (pack ≤{}).",
                    a.rule, plan.input.pack, a.pack
                )
            }),
    );
    caveats.extend(near.map(|(_, line)| line));
    if !caveats.is_empty() {
        let _ = write!(md, "{}\n\n", caveats.join(" "));
    }
    if !plan.assumptions.is_empty() {
        let short: Vec<&str> = plan.assumptions.iter().map(|a| a.short.as_str()).collect();
        let _ = write!(md, "Assumed: {} (say any to change). ", short.join(", "));
    }
    md.push_str(&next_line(plan));
    md
}

/// The answer to "largest batch?" when the plan beside it was the last
/// reply's, unchanged: the value and the verdict's line.
pub fn solution_only(plan: &Plan) -> String {
    let mut md = String::new();
    if let Some(sol) = &plan.solution {
        md.push_str(&crate::render::plan_md::solution_line(sol));
        md.push_str("\n\n");
    }
    md.push_str(&verdict_line(plan));
    md
}

/// The seed's anchor for a model of this size and this method, beside the
/// verdict: what it states and what this worksheet gives its own set-up,
/// so a figure far from the anchor is explained where it is read.
fn near_anchor(plan: &Plan) -> Option<(&crate::calc::anchors::AnchorComparison, String)> {
    let params = plan.input.model.params as f64;
    let a = plan.anchors.iter().find(|a| {
        a.method.eq_ignore_ascii_case(plan.input.method.key())
            && a.params > 0
            && (0.75..=1.34).contains(&(params / a.params as f64))
    })?;
    let close_to_weights = a.figure_gb.is_some_and(|g| {
        let g = (g * 100.0).round() as u64;
        g.abs_diff(a.weights_centi_gb) < g.abs_diff(a.worksheet_centi_gb)
    });
    let weights = if close_to_weights {
        format!(
            ": about its weights alone ({} GB);",
            show_centi(a.weights_centi_gb)
        )
    } else if crate::render::plan_md::beyond_anchor(a, plan).is_some() {
        format!(
            " does not vouch for packing {} (beyond its pack ≤{}):",
            plan.input.pack, a.pack
        )
    } else {
        ":".into()
    };
    // Its set-up in brief: batch, packing, and every setting that is not
    // the run's ("full plan" names them all and the source).
    let (theirs, yours) = (&a.input, &plan.input);
    let mut setup = vec![
        format!("batch {}", theirs.batch),
        format!("pack {}", a.pack),
    ];
    if theirs.optimizer != yours.optimizer {
        setup.push(theirs.optimizer.key().to_string());
    }
    if theirs.weight_format != yours.weight_format {
        setup.push(format!("{} weights", theirs.weight_format.key()));
    }
    if theirs.precision != yours.precision {
        setup.push(theirs.precision.short().to_string());
    }
    if theirs.loss != yours.loss {
        setup.push(format!("{} loss", theirs.loss.key()));
    }
    if theirs.runtime.packed != yours.runtime.packed {
        setup.push(
            if theirs.runtime.packed {
                "packed"
            } else {
                "padded batches"
            }
            .into(),
        );
    }
    let line = format!(
        "Seed anchor \"{}\"{weights} its set-up here ({}) {} GB, yours {} GB.",
        a.rule,
        setup.join(", "),
        show_centi(a.worksheet_centi_gb),
        show_centi(plan.estimate.total_centi_gb)
    );
    Some((a, line))
}

/// "**Verdict: fits.** Qwen2.5 7B LoRA: peak 60.17 GB of the 119.48 GB
/// budget (50.4 %), margin +59.31 GB; the training step binds."
fn verdict_line(plan: &Plan) -> String {
    let est = &plan.estimate;
    let (peak, budget) = (est.total_centi_gb, plan.budget.centi_gb);
    let share = if budget > 0 {
        format!(" ({:.1} %)", share_of_budget(peak, budget))
    } else {
        String::new()
    };
    let mut line = format!(
        "**Verdict: {}.** {} {}: peak {} GB of the {} GB budget{share}, margin {} GB; {} binds",
        plan.judgement.verdict.label(),
        plan.input.model.display,
        plan.input.method.label(),
        show_centi(peak),
        show_centi(budget),
        show_centi_delta(plan.judgement.margin_centi_gb),
        est.binding.label()
    );
    if est.binding != crate::calc::estimate::Peak::Step {
        let _ = write!(
            line,
            " (the step itself: {} GB)",
            show_centi(est.step_centi_gb)
        );
    }
    line.push('.');
    if let Some(now) = crate::calc::budget::now(peak, &plan.budget)
        && now != crate::calc::budget::Now::FitsNow
    {
        let _ = write!(
            line,
            " Right now: {} (free without reclaim, less the {} GB reserve: {} GB).",
            now.label(),
            show_centi(plan.budget.reserve_centi_gb),
            show_centi(plan.budget.free_now_centi_gb.unwrap_or(0))
        );
    }
    line
}

/// The step peak's largest terms and the rest in one row: the rows add up
/// to the step peak exactly (terms are already rounded up), and the shares
/// are of the step peak.
fn largest_terms(plan: &Plan) -> String {
    let est = &plan.estimate;
    let mut terms: Vec<_> = est.terms.iter().filter(|t| t.centi_gb > 0).collect();
    terms.sort_by_key(|t| std::cmp::Reverse(t.centi_gb));
    let step = est.step_centi_gb.max(1);
    let share = |c: u64| format!("{:.1} %", c as f64 * 100.0 / step as f64);
    let mut rows: Vec<Vec<String>> = terms
        .iter()
        .take(LARGEST_TERMS)
        .map(|t| {
            vec![
                t.label.to_string(),
                show_centi(t.centi_gb),
                share(t.centi_gb),
            ]
        })
        .collect();
    let rest = &terms[terms.len().min(LARGEST_TERMS)..];
    if !rest.is_empty() {
        let sum: u64 = rest.iter().map(|t| t.centi_gb).sum();
        rows.push(vec![
            format!(
                "{} more term{}",
                rest.len(),
                if rest.len() == 1 { "" } else { "s" }
            ),
            show_centi(sum),
            share(sum),
        ]);
    }
    pipe_table(
        &["term", "GB", "share"],
        &[Align::Left, Align::Right, Align::Right],
        &rows,
    )
}

fn next_line(plan: &Plan) -> String {
    let mut next = String::from("Next: ");
    if plan.budget.basis == BudgetBasis::Nominal {
        let beside: Vec<&str> = plan.budget.beside.iter().map(|(w, _)| w.as_str()).collect();
        if beside.is_empty() {
            next.push_str("provisional on an idle Spark's budget: paste `free -g` to confirm; ");
        } else {
            next.push_str(&format!(
                "provisional on an idle Spark's budget less {}: paste `free -g` to confirm; ",
                beside.join(" and ")
            ));
        }
    }
    next.push_str("\"full plan\" for every term. Planning math, not a guarantee.");
    next
}
