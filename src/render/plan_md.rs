//! A plan as markdown: verdict first, then every term with its formula and
//! source, the budget, the anchors, the inputs, and the caveat.

use crate::calc::budget::BudgetBasis;
use crate::calc::plan::Plan;
use crate::calc::units::show_centi;
use crate::calc::verdict::Verdict;
use crate::reply::InputLine;
use std::fmt::Write;

pub fn render_plan(plan: &Plan, inputs: &[InputLine]) -> String {
    let mut md = String::new();
    let v = plan.judgement.verdict;
    let _ = writeln!(
        md,
        "## Headroom plan: {} {} — {}\n",
        plan.input.model.display,
        plan.input.method.label(),
        v.label()
    );
    let nominal = if plan.budget.basis == BudgetBasis::Nominal {
        " (nominal budget: no `free -g` pasted yet, so this is an idle Spark's figure)"
    } else {
        ""
    };
    let _ = writeln!(
        md,
        "**Verdict: {}.** Estimated peak {}{nominal}.\n",
        v.label(),
        plan.judgement.explanation
    );
    if v != Verdict::Fits {
        advice(&mut md, plan);
    }

    let _ = writeln!(
        md,
        "Estimate (GB = 10^9 bytes; each term rounded up to 0.01 GB, the total is their sum):\n"
    );
    for t in &plan.estimate.terms {
        let _ = writeln!(
            md,
            "- {}: **{} GB** = {} [{}]",
            t.label,
            show_centi(t.centi_gb),
            t.formula,
            t.source
        );
    }
    let _ = writeln!(
        md,
        "- **total: {} GB**\n",
        show_centi(plan.estimate.total_centi_gb)
    );

    let _ = writeln!(md, "Budget: {}.\n", plan.budget.explanation);

    if !plan.anchors.is_empty() {
        let _ = writeln!(
            md,
            "Closest seed anchors (recomputed with this worksheet, side by side):\n"
        );
        for a in &plan.anchors {
            let stated = a.figure_gb.map_or_else(
                || "no figure stated".to_string(),
                |g| format!("≈{g} GB stated"),
            );
            let _ = writeln!(
                md,
                "- {} — seed: \"{}\" ({stated}); worksheet for {}: {} GB [{}]",
                a.anchor,
                a.rule,
                a.setup,
                show_centi(a.worksheet_centi_gb),
                a.source
            );
        }
        md.push('\n');
    }

    let _ = writeln!(md, "Inputs:\n");
    for i in inputs {
        let _ = writeln!(md, "- {}: {} ({})", i.name, i.value, i.origin);
    }
    if !plan.assumptions.is_empty() {
        let _ = writeln!(
            md,
            "\nAssumed, because you did not say (tell me to change any):\n"
        );
        for a in &plan.assumptions {
            let _ = writeln!(md, "- {a}");
        }
    }
    let _ = write!(
        md,
        "\nThis is planning math, not a guarantee: allocator fragmentation, longer samples than \
         the packing length, eval steps and other processes on the shared pool can push the real \
         peak higher."
    );
    md
}

fn advice(md: &mut String, plan: &Plan) {
    let head = match plan.judgement.verdict {
        Verdict::Tight => {
            "Close to the budget: start with shorter packing or a smaller batch rather than risk an OOM mid-run."
        }
        _ => "Over the budget as planned. Shorter packing first, then a smaller batch:",
    };
    let _ = writeln!(md, "{head}\n");
    for alt in &plan.alternatives {
        let _ = writeln!(
            md,
            "- {}: {} GB ({})",
            alt.change,
            show_centi(alt.total_centi_gb),
            alt.verdict.label()
        );
    }
    if !plan.alternatives.is_empty() {
        md.push('\n');
    }
}
