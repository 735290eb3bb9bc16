//! A trainer's start banner beside the run: what it ran with, and where it
//! disagrees with the run the owner gave, a question, never a change.

use crate::calc::units::grouped;
use crate::dialogue::facts::Facts;
use crate::extract::trainer_banner::Banner;

/// "16, then 14": each banner's figure in the order printed.
fn in_order(values: &[u64]) -> String {
    values
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(", then ")
}

/// The note for a pasted banner.
pub fn banner_note(b: &Banner, facts: &Facts) -> String {
    let mut said = vec![format!(
        "batch size per device {}",
        in_order(&b.per_device_batch)
    )];
    if !b.grad_accum.is_empty() {
        said.push(format!("gradient accumulation {}", in_order(&b.grad_accum)));
    }
    if !b.total_steps.is_empty() {
        said.push(format!("{} total steps", in_order(&b.total_steps)));
    }
    if let Some((trainable, of)) = b.trainable {
        said.push(if of > 0 {
            format!(
                "{} trainable parameters of {}",
                grouped(trainable),
                grouped(of)
            )
        } else {
            format!("{} trainable parameters", grouped(trainable))
        });
    }
    let mut text = format!(
        "Your trainer's start banner says: {}. It is what the trainer printed, so it changes nothing in your run.",
        said.join("; ")
    );
    let last = *b.per_device_batch.last().expect("a banner has a batch");
    if b.per_device_batch.len() > 1 {
        text.push_str(&format!(
            " It printed {} banners; the last says batch {last}.",
            b.per_device_batch.len()
        ));
    }
    match facts.batch.as_ref().map(|k| k.value) {
        Some(run) if !b.per_device_batch.contains(&run) => text.push_str(&format!(
            " Your run says batch {run}, the banner {last}: which is the per-device batch? Say \"batch {last}\" to plan with it; until then the plan keeps {run}."
        )),
        Some(run) => text.push_str(&format!(" That matches your run's batch {run}.")),
        None => text.push_str(&format!(
            " Your run has no batch yet: say \"batch {last}\" to plan with the banner's."
        )),
    }
    text
}
