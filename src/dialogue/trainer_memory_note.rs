//! A trainer's own memory report beside the plan: the measured figures in
//! both units, and which of them the plan's peak should be compared with.

use crate::calc::units::{centi_gb_up, plain, show_centi};
use crate::dialogue::plan_turn::build_plan;
use crate::dialogue::session::Session;
use crate::extract::trainer_memory::{Reported, TrainerMemory};
use crate::knowledge::Knowledge;

/// "7.89 GiB (8.48 GB)", or "13.98 GB" when the trainer printed GB.
fn both(r: &Reported) -> String {
    if r.unit == "GiB" {
        format!(
            "{} GiB ({} GB)",
            plain(r.value),
            show_centi(centi_gb_up(r.bytes()))
        )
    } else {
        format!("{} GB", plain(r.value))
    }
}

/// The note for a pasted memory report.
pub fn trainer_memory_note(m: &TrainerMemory, session: &Session, k: &Knowledge) -> String {
    let mut parts = Vec::new();
    if let Some(a) = &m.max_allocated {
        parts.push(format!("peak allocated {}", both(a)));
    }
    if let Some(r) = &m.reserved {
        parts.push(format!("reserved by PyTorch's allocator {}", both(r)));
    }
    let mut text = format!(
        "Your trainer reports its own memory: {}. Reserved is what the run took from the pool (allocated plus the allocator's cache); the CUDA context and the Python process come on top of it.",
        parts.join(", ")
    );
    if let Some((plan, _)) = build_plan(&session.facts, k) {
        let title = crate::dialogue::whatif::summary(&plan).title;
        let step = plan.estimate.levels_of(crate::calc::estimate::Peak::Step);
        // Each measured figure beside the plan's figure of the same level.
        let mut beside = Vec::new();
        if let (Some(a), Some(l)) = (&m.max_allocated, step) {
            beside.push(format!(
                "your peak allocated {} beside the plan's allocated {} GB",
                both(a),
                show_centi(l.allocated)
            ));
        }
        if let (Some(r), Some(l)) = (&m.reserved, step) {
            beside.push(format!(
                "your reserved {} beside the plan's reserved {} GB",
                both(r),
                show_centi(l.reserved)
            ));
        }
        if beside.is_empty() {
            text.push_str(&format!(
                " The plan's binding peak for the run as I have it is {} GB ({title}), which counts those too.",
                show_centi(plan.estimate.total_centi_gb)
            ));
        } else {
            text.push_str(&format!(
                " Like for like, for {title}'s training step: {}. The plan's system figure, {} GB, adds the CUDA context and the process's host memory, which no PyTorch counter includes.",
                beside.join("; "),
                show_centi(step.map_or(0, |l| l.system))
            ));
        }
        text.push_str(" A measured figure is worth more than the estimate: if the two differ, check that the settings I have are the run's (`/status`).");
    }
    text
}
