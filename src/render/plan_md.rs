//! A plan as markdown: verdict first, then every term with its formula and
//! source, the budget, the anchors, the inputs, and the caveat.

use crate::calc::budget::BudgetBasis;
use crate::calc::estimate::Peak;
use crate::calc::plan::Plan;
use crate::calc::solve::Solution;
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
    if let Some(now) = crate::calc::budget::now(plan.estimate.total_centi_gb, &plan.budget) {
        let free_now = plan.budget.free_now_centi_gb.unwrap_or(0);
        let cache = plan
            .budget
            .page_cache_centi_gb
            .map(|c| format!("; page cache a flush would return: {} GB", show_centi(c)))
            .unwrap_or_default();
        let _ = writeln!(
            md,
            "Right now: **{}**. Free without reclaim: {} GB (your paste's free column, less the reserve) against the {} GB peak{cache}. On GB10 a CUDA allocation sees only this free memory (`cudaMemGetInfo` reports it, and page cache counts as used until the kernel reclaims it), so it can fail with gigabytes of cache in the pool; nvidia-smi shows no memory at all on GB10. `available` is what the kernel can give once it reclaims cache.\n",
            now.label(),
            show_centi(free_now),
            show_centi(plan.estimate.total_centi_gb)
        );
    }
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
    let est = &plan.estimate;
    let _ = writeln!(
        md,
        "- **step peak: {} GB**\n",
        show_centi(est.step_centi_gb)
    );
    md.push_str(&levels_line(plan));
    md.push_str(&phases_section(plan));
    for note in &plan.notes {
        let _ = writeln!(md, "{note}\n");
    }
    if let Some(sol) = &plan.solution {
        md.push_str(&solution_line(sol));
        md.push_str("\n\n");
    }

    let _ = writeln!(md, "Budget: {}.\n", plan.budget.explanation);

    md.push_str(&anchors_section(plan));
    md.push_str(&inputs_section(plan, inputs));
    let _ = write!(
        md,
        "This is planning math, not a guarantee: allocator fragmentation, longer samples than \
         the packing length, eval steps and other processes on the shared pool can push the real \
         peak higher."
    );
    md
}

/// The binding peak at the three levels, so a measurement is compared with
/// the figure of its own kind.
pub fn levels_line(plan: &Plan) -> String {
    let est = &plan.estimate;
    let Some(l) = est.levels_of(est.binding) else {
        return String::new();
    };
    format!(
        "The peak of {} at three levels: **allocated {} GB** (the tensors: what `torch.cuda.max_memory_allocated()` and axolotl's `memory/max_allocated` report), **reserved {} GB** (+ the caching allocator's slack and reserve: `torch.cuda.max_memory_reserved()`), **system {} GB** (+ the CUDA context and the trainer process's host memory: what the unified pool loses, what `free` shows used, and what the verdict uses).\n\n",
        est.binding.label(),
        show_centi(l.allocated),
        show_centi(l.reserved),
        show_centi(l.system)
    )
}

/// The other moments of the run (load, eval, save, resume) and which binds.
pub fn phases_section(plan: &Plan) -> String {
    let est = &plan.estimate;
    let mut md = String::new();
    let _ = writeln!(
        md,
        "Other moments of the run (each counted against the same pool):\n"
    );
    let _ = writeln!(
        md,
        "- load-time peak: **{} GB** = {} [{}]",
        show_centi(est.load.centi_gb),
        est.load.formula,
        est.load.source
    );
    for (peak, t, applies) in &est.phases {
        let when = match (peak, applies) {
            (_, true) => "",
            (Peak::Eval, false) => {
                " (only if you evaluate during training: say \"per_device_eval_batch_size=8\" to plan it)"
            }
            (Peak::Resume, false) => {
                " (only when you resume from a checkpoint: say \"resuming\" to plan it)"
            }
            _ => " (not part of this run)",
        };
        let _ = writeln!(
            md,
            "- {}{when}: **{} GB** = {} [{}]",
            t.label,
            show_centi(t.centi_gb),
            t.formula,
            t.source
        );
    }
    let _ = writeln!(
        md,
        "\n{} binds: {} GB is the largest of the step peak ({} GB) and these, so it is the figure the verdict uses.{}\n",
        crate::text::capitalised(est.binding.label()),
        show_centi(est.total_centi_gb),
        show_centi(est.step_centi_gb),
        if est.binding == Peak::Load {
            " Flush the page cache between runs (with your approval) so earlier shards' pages are not still held."
        } else {
            ""
        }
    );
    md
}

/// The seed's anchors recomputed with this worksheet.
pub fn anchors_section(plan: &Plan) -> String {
    let mut md = String::new();
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
            if let Some(note) = reconcile(a, plan) {
                let _ = writeln!(md, "  {note}");
            }
        }
        md.push('\n');
    }

    md
}

/// Where each input came from and what was assumed.
pub fn inputs_section(plan: &Plan, inputs: &[InputLine]) -> String {
    let mut md = String::new();
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
            let _ = writeln!(md, "- {}", a.full);
        }
    }
    md.push('\n');
    md
}

/// "Longest packing that fits: **1491** (…)." as one paragraph.
pub fn solution_line(sol: &Solution) -> String {
    let mut out = String::new();
    let md = &mut out;
    let noun = sol.solve_for.noun();
    let most = match sol.solve_for {
        crate::calc::solve::SolveFor::Pack => "Longest",
        crate::calc::solve::SolveFor::Batch => "Largest",
    };
    match (sol.fits, sol.within_budget) {
        (Some(v), within) => {
            let _ = write!(
                md,
                "{most} {noun} that fits: **{v}** ({} GB, under the {} GB tight line; margin {} GB to the budget)",
                show_centi(sol.fits_total_centi_gb.unwrap_or(0)),
                show_centi(sol.threshold_centi_gb),
                show_centi(
                    sol.budget_centi_gb
                        .saturating_sub(sol.fits_total_centi_gb.unwrap_or(0))
                )
            );
            if let (Some(w), Some(t)) = (within, sol.within_budget_total_centi_gb)
                && w != v
            {
                let _ = write!(
                    md,
                    "; up to {w} stays within the budget but is tight ({} GB)",
                    show_centi(t)
                );
            }
            if v == sol.current {
                md.push_str(&format!(". That is your run's {noun} already."));
            } else {
                md.push_str(". Say \"use that\" to plan with it.");
            }
        }
        (None, Some(w)) => {
            let _ = write!(
                md,
                "No {noun} fits under the tight line; **{w}** is the most that stays within the budget, and it is tight ({} GB of the {} GB budget)",
                show_centi(sol.within_budget_total_centi_gb.unwrap_or(0)),
                show_centi(sol.budget_centi_gb)
            );
            if w == sol.current {
                md.push_str(&format!(". That is your run's {noun} already."));
            } else {
                md.push_str(". Say \"use that\" to plan with it.");
            }
        }
        (None, None) => {
            let _ = write!(md, "No {noun} fits: even 1 is over the budget.");
        }
    }
    out
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

/// Why an anchor's figure differs from the worksheet, or why it does not
/// vouch for this plan: computed from the two worksheets, never asserted.
fn reconcile(a: &crate::calc::anchors::AnchorComparison, plan: &Plan) -> Option<String> {
    let mut notes = Vec::new();
    if let Some(stated) = a.figure_gb {
        let stated_centi = (stated * 100.0).round() as u64;
        if stated_centi.abs_diff(a.weights_centi_gb) < stated_centi.abs_diff(a.worksheet_centi_gb) {
            notes.push(format!(
                "The stated ≈{stated} GB is close to the worksheet's weights term alone ({} GB for that set-up); the step peak adds the adapter, its gradients and optimizer states, activations, the loss's logits, transient buffers and the CUDA context, which is why the worksheet says {} GB.",
                show_centi(a.weights_centi_gb),
                show_centi(a.worksheet_centi_gb)
            ));
        }
    }
    notes.extend(beyond_anchor(a, plan));
    (!notes.is_empty()).then(|| notes.join(" "))
}

/// An anchor of the same method whose packing rule this run goes beyond:
/// it does not vouch for the run, and the answer must say so.
pub fn beyond_anchor(a: &crate::calc::anchors::AnchorComparison, plan: &Plan) -> Option<String> {
    let same_method = a.method.eq_ignore_ascii_case(plan.input.method.key());
    (same_method && a.rule.contains('≤') && plan.input.pack > a.pack).then(|| {
        format!(
            "your packing {} is beyond this anchor's rule (pack ≤{}): activations and the loss's logits grow with batch × packing, so the anchor does not vouch for this run; the worksheet figure does.",
            plan.input.pack, a.pack
        )
    })
}
