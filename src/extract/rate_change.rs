//! "It slowed from 2.1 it/s to 1.4 it/s": a throughput change the owner
//! states in words, with its unit, so the slowdown can be put in step time.

use crate::extract::re;
use regex::Regex;
use std::sync::LazyLock;

/// A throughput or step-time unit as trainers print it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RateUnit {
    /// Work per second (it/s, tokens/s, samples/s): step time is its inverse.
    PerSecond(&'static str),
    /// Seconds per step (s/it, s/step).
    SecondsPer(&'static str),
}

/// Two figures in one unit: before and after.
#[derive(Debug, Clone, PartialEq)]
pub struct RateChange {
    pub before: f64,
    pub after: f64,
    pub unit: RateUnit,
}

impl RateChange {
    /// How much longer a step takes after than before, as a fraction
    /// (0.5 = 50 % longer); negative when it got faster.
    pub fn step_time_growth(&self) -> f64 {
        match self.unit {
            RateUnit::PerSecond(_) => self.before / self.after - 1.0,
            RateUnit::SecondsPer(_) => self.after / self.before - 1.0,
        }
    }

    pub fn unit_text(&self) -> &'static str {
        match self.unit {
            RateUnit::PerSecond(u) | RateUnit::SecondsPer(u) => u,
        }
    }
}

const UNIT: &str =
    r"(it/s|s/it|tok(?:ens)?/s|tokens per second|samples/s|s/step|sec/step|seconds per step)";

static CHANGE: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"(?i)(?:from\s+)?(\d+(?:\.\d+)?)\s*{UNIT}\s*(?:to|→|->|down to|dropped to|fell to|became|now)\s+(\d+(?:\.\d+)?)\s*{UNIT}?"
    ))
});

fn unit(word: &str) -> RateUnit {
    match word.to_ascii_lowercase().as_str() {
        "it/s" => RateUnit::PerSecond("it/s"),
        "s/it" => RateUnit::SecondsPer("s/it"),
        "samples/s" => RateUnit::PerSecond("samples/s"),
        "s/step" | "sec/step" | "seconds per step" => RateUnit::SecondsPer("s/step"),
        _ => RateUnit::PerSecond("tokens/s"),
    }
}

/// The first before → after change in the text, when both sides share a unit.
pub fn rate_change(text: &str) -> Option<RateChange> {
    let c = CHANGE.captures(text)?;
    let first = unit(&c[2]);
    if let Some(second) = c.get(4)
        && unit(second.as_str()) != first
    {
        return None;
    }
    let before: f64 = c[1].parse().ok()?;
    let after: f64 = c[3].parse().ok()?;
    (before > 0.0 && after > 0.0).then_some(RateChange {
        before,
        after,
        unit: first,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_drop_in_iterations_per_second_is_longer_steps() {
        let c = rate_change("it slowed from 2.1 it/s to 1.4 it/s after an hour").unwrap();
        assert_eq!((c.before, c.after), (2.1, 1.4));
        // 2.1 / 1.4 = 1.5: each step takes 50 % longer.
        assert!((c.step_time_growth() - 0.5).abs() < 1e-12);
    }

    #[test]
    fn seconds_per_step_and_a_bare_second_figure() {
        let c = rate_change("went from 3.2 s/it to 4.0").unwrap();
        assert!((c.step_time_growth() - 0.25).abs() < 1e-12);
        let t = rate_change("throughput 5200 tokens/s -> 4100 tokens/s").unwrap();
        assert_eq!(t.unit_text(), "tokens/s");
    }

    #[test]
    fn mixed_units_or_no_change_give_none() {
        assert!(rate_change("from 2 it/s to 3 s/it").is_none());
        assert!(rate_change("it runs at 2.1 it/s").is_none());
    }
}
