//! A slowdown the owner states in words ("from 2.1 it/s to 1.4 it/s"), put
//! in step time and set against the thermal rule's threshold. Whether heat
//! caused it is left to the samples; this only sizes it.

use crate::calc::units::plain;
use crate::extract::rate_change::{RateChange, RateUnit};
use crate::knowledge::Knowledge;

/// The sizing sentence for a stated change.
pub fn slowdown_note(change: &RateChange, k: &Knowledge) -> String {
    let rule = k.rule("slowdown");
    let growth = change.step_time_growth();
    let unit = change.unit_text();
    let detail = match change.unit {
        RateUnit::PerSecond("it/s") => format!(
            " (1 / {} = {:.3} s per step → 1 / {} = {:.3} s)",
            plain(change.before),
            1.0 / change.before,
            plain(change.after),
            1.0 / change.after
        ),
        _ => String::new(),
    };
    let head = format!(
        "{} {unit} → {} {unit}",
        plain(change.before),
        plain(change.after)
    );
    if growth <= 0.0 {
        return format!(
            "{head}: that is no slowdown, each step takes {:.1} % less time{detail}.",
            -growth / (1.0 + growth) * 100.0
        );
    }
    let against = if growth >= rule.value {
        "at or beyond"
    } else {
        "under"
    };
    format!(
        "{head}: each step takes {:.1} % longer{detail}, {against} the {} % the thermal analysis counts as a slowdown when it lasts ({}). Whether heat caused it is what the samples tell: a temperature climb at flat power or the throttle flags within {} minutes of the slowdown's start.",
        growth * 100.0,
        plain(rule.value * 100.0),
        rule.cite,
        plain(k.rule("match window").value / 60.0)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::rate_change::rate_change;

    #[test]
    fn a_fifty_percent_longer_step_is_a_slowdown() {
        let k = Knowledge::embedded();
        let note = slowdown_note(&rate_change("from 2.1 it/s to 1.4 it/s").unwrap(), k);
        assert!(note.contains("each step takes 50.0 % longer"), "{note}");
        assert!(
            note.contains("0.476 s per step → 1 / 1.4 = 0.714 s"),
            "{note}"
        );
        assert!(note.contains("at or beyond the 15 %"), "{note}");
        let small = slowdown_note(&rate_change("from 2.0 it/s to 1.9 it/s").unwrap(), k);
        // 2.0 / 1.9 - 1 = 5.26 %.
        assert!(small.contains("5.3 % longer"), "{small}");
        assert!(small.contains("under the 15 %"), "{small}");
    }
}
