//! Fits, tight or does not fit: the estimate against the budget.

use crate::calc::units::{show_centi, show_centi_delta};
use crate::knowledge::Knowledge;
use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Fits,
    Tight,
    DoesNotFit,
}

impl Verdict {
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Fits => "fits",
            Verdict::Tight => "tight",
            Verdict::DoesNotFit => "does not fit",
        }
    }

    pub fn key(self) -> &'static str {
        match self {
            Verdict::Fits => "fits",
            Verdict::Tight => "tight",
            Verdict::DoesNotFit => "does_not_fit",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Judgement {
    pub verdict: Verdict,
    /// budget − total, in hundredths of a GB (negative when over).
    pub margin_centi_gb: i64,
    pub explanation: String,
}

/// The peak's share of the budget in percent, one decimal, rounded up so the
/// share never reads smaller than it is. Every reply shows this one figure.
pub fn share_of_budget(total_centi: u64, budget_centi: u64) -> f64 {
    let pct = total_centi as f64 * 100.0 / budget_centi as f64;
    (pct * 10.0).ceil() / 10.0
}

pub fn judge(total_centi: u64, budget_centi: u64, k: &Knowledge) -> Judgement {
    let tight = k.spark("tight above");
    let margin = budget_centi as i64 - total_centi as i64;
    let verdict = if total_centi > budget_centi {
        Verdict::DoesNotFit
    } else if total_centi as f64 > tight.value * budget_centi as f64 {
        Verdict::Tight
    } else {
        Verdict::Fits
    };
    if budget_centi == 0 {
        return Judgement {
            verdict,
            margin_centi_gb: margin,
            explanation: format!(
                "{} GB against a budget of 0.00 GB: the memory available now does not cover even the OS/driver reserve",
                show_centi(total_centi)
            ),
        };
    }
    let explanation = format!(
        "{} GB is {:.1} % of the {} GB budget, margin {} GB; tight above {:.0} % ({})",
        show_centi(total_centi),
        share_of_budget(total_centi, budget_centi),
        show_centi(budget_centi),
        show_centi_delta(margin),
        tight.value * 100.0,
        tight.cite
    );
    Judgement {
        verdict,
        margin_centi_gb: margin,
        explanation,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds() {
        let k = Knowledge::embedded();
        assert_eq!(judge(9000, 10000, k).verdict, Verdict::Fits);
        assert_eq!(judge(9001, 10000, k).verdict, Verdict::Tight);
        assert_eq!(judge(10000, 10000, k).verdict, Verdict::Tight);
        assert_eq!(judge(10001, 10000, k).verdict, Verdict::DoesNotFit);
        assert_eq!(judge(1, 0, k).verdict, Verdict::DoesNotFit);
    }
}
