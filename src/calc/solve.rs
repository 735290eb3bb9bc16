//! "What is the longest packing / largest batch that fits?": the estimate is
//! monotone in both (a property test guards that), so a binary search finds
//! the exact limit.

use crate::calc::budget::Budget;
use crate::calc::estimate::estimate;
use crate::calc::setup::PlanInput;
use crate::knowledge::Knowledge;
use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SolveFor {
    Pack,
    Batch,
}

impl SolveFor {
    pub fn parse(s: &str) -> Option<SolveFor> {
        match s.to_ascii_lowercase().as_str() {
            "pack" | "packing" | "seq" | "max_seq_length" => Some(SolveFor::Pack),
            "batch" | "bs" => Some(SolveFor::Batch),
            _ => None,
        }
    }

    pub fn noun(self) -> &'static str {
        match self {
            SolveFor::Pack => "packing length",
            SolveFor::Batch => "batch",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Solution {
    pub solve_for: SolveFor,
    /// The largest value whose plan is "fits" (under the tight threshold).
    pub fits: Option<u64>,
    pub fits_total_centi_gb: Option<u64>,
    /// The largest value that stays within the budget at all ("tight").
    pub within_budget: Option<u64>,
    pub within_budget_total_centi_gb: Option<u64>,
    pub budget_centi_gb: u64,
    pub threshold_centi_gb: u64,
    /// The run's own value of the setting solved for.
    pub current: u64,
}

const UPPER: u64 = 1 << 20;

fn with(input: &PlanInput, what: SolveFor, value: u64) -> PlanInput {
    let mut changed = input.clone();
    match what {
        SolveFor::Pack => changed.pack = value,
        SolveFor::Batch => changed.batch = value,
    }
    changed
}

/// The largest value in 1..=UPPER whose total is at most `limit`.
fn largest_under(
    input: &PlanInput,
    what: SolveFor,
    limit: u64,
    k: &Knowledge,
) -> Option<(u64, u64)> {
    let total = |v| estimate(&with(input, what, v), k).total_centi_gb;
    if total(1) > limit {
        return None;
    }
    let (mut lo, mut hi) = (1, UPPER);
    if total(hi) <= limit {
        return Some((hi, total(hi)));
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if total(mid) <= limit {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some((lo, total(lo)))
}

pub fn solve(input: &PlanInput, what: SolveFor, budget: &Budget, k: &Knowledge) -> Solution {
    let tight = k.spark("tight above").value;
    let threshold = (budget.centi_gb as f64 * tight).floor() as u64;
    let fits = largest_under(input, what, threshold, k);
    let within = largest_under(input, what, budget.centi_gb, k);
    Solution {
        solve_for: what,
        fits: fits.map(|f| f.0),
        fits_total_centi_gb: fits.map(|f| f.1),
        within_budget: within.map(|w| w.0),
        within_budget_total_centi_gb: within.map(|w| w.1),
        budget_centi_gb: budget.centi_gb,
        threshold_centi_gb: threshold,
        current: match what {
            SolveFor::Pack => input.pack,
            SolveFor::Batch => input.batch,
        },
    }
}
