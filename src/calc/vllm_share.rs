//! A vLLM server beside the run: what its memory fraction claims of the pool,
//! whether the run fits in what is left, and the largest fraction that
//! leaves the run its peak. vLLM pre-allocates its whole fraction at start
//! (weights, activations, KV cache), so the fraction, not its load, counts.

use crate::calc::pool::pool_budget_centi;
use crate::calc::units::{GIB, centi_gb_up};
use crate::calc::verdict::{Judgement, judge};
use crate::knowledge::Knowledge;

#[derive(Debug, Clone, PartialEq)]
pub struct VllmShare {
    /// The fraction the server was started with.
    pub fraction: f64,
    /// What CUDA reports on a GB10, GiB: the base of the fraction.
    pub cuda_gib: f64,
    /// fraction × cuda_gib, hundredths of a GB, rounded up.
    pub claim_centi_gb: u64,
    /// The pool the run and the server share, hundredths of a GB.
    pub budget_centi_gb: u64,
    /// The run's binding peak, when it can be planned.
    pub need_centi_gb: Option<u64>,
    /// The largest fraction (two decimals, rounded down) that leaves the
    /// run its peak; None when the run is unknown or nothing is left.
    pub largest_fraction: Option<f64>,
    /// The largest fraction that keeps the run under the tight line of what
    /// the server leaves (peak ≤ tight × what is left), two decimals down.
    pub untight_fraction: Option<f64>,
}

impl VllmShare {
    /// Claim plus the run's peak within the budget.
    pub fn fits(&self) -> Option<bool> {
        self.need_centi_gb
            .map(|need| self.claim_centi_gb + need <= self.budget_centi_gb)
    }

    /// The run judged against what the server leaves of the pool, as the
    /// plan judges it against a `free -g` taken with the server running:
    /// fits, tight (above the tight line) or does not fit.
    pub fn judgement(&self, k: &Knowledge) -> Option<Judgement> {
        let need = self.need_centi_gb?;
        let left = self.budget_centi_gb.saturating_sub(self.claim_centi_gb);
        Some(judge(need, left, k))
    }

    /// CUDA's memory in hundredths of a GB, rounded down (a divisor that
    /// may not flatter the largest fraction).
    pub fn cuda_centi_gb(&self) -> u64 {
        crate::calc::units::centi_gb_down(self.cuda_gib * GIB)
    }
}

/// The share for a server at `fraction`, beside a run needing `need_centi`.
pub fn share(fraction: f64, need_centi: Option<u64>, k: &Knowledge) -> VllmShare {
    share_in(fraction, need_centi, pool_budget_centi(k), k)
}

/// The same in a pool of `budget` hundredths of a GB: the idle budget less
/// what other processes already hold.
pub fn share_in(fraction: f64, need_centi: Option<u64>, budget: u64, k: &Knowledge) -> VllmShare {
    let cuda_gib = k.spark("memory CUDA reports").value;
    let cuda_centi = crate::calc::units::centi_gb_down(cuda_gib * GIB);
    // Hundredths of a fraction, rounded down: the run keeps its peak.
    let fraction_leaving = |need: u64| {
        let left = budget.checked_sub(need)?;
        let hundredths = left * 100 / cuda_centi;
        (hundredths > 0).then_some(hundredths as f64 / 100.0)
    };
    let largest_fraction = need_centi.and_then(fraction_leaving);
    // The run under the tight line of what is left: need ≤ tight × left,
    // so the server may take budget − need / tight (rounded up: a need).
    let tight = k.spark("tight above").value;
    let untight_fraction =
        need_centi.and_then(|need| fraction_leaving((need as f64 / tight).ceil() as u64));
    VllmShare {
        fraction,
        cuda_gib,
        claim_centi_gb: centi_gb_up(fraction * cuda_gib * GIB),
        budget_centi_gb: budget,
        need_centi_gb: need_centi,
        largest_fraction,
        untight_fraction,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::calc::verdict::Verdict;

    #[test]
    fn a_server_at_point_eight_beside_a_78_gb_run() {
        let k = Knowledge::embedded();
        let s = share(0.8, Some(7808), k);
        // 0.8 × 121.69 GiB = 97.352 GiB = 104.531 GB, rounded up to 104.54.
        assert_eq!(s.claim_centi_gb, 10454);
        // An idle Spark's 115 GiB = 123.48 GB (down) less the 4 GB reserve.
        assert_eq!(s.budget_centi_gb, 11948);
        assert_eq!(s.fits(), Some(false));
        // (119.48 − 78.08) / 130.66 = 0.3168… → 0.31.
        assert_eq!(s.cuda_centi_gb(), 13066);
        assert_eq!(s.largest_fraction, Some(0.31));
        // 0.31 × 121.69 GiB = 40.51 GB; + 78.08 = 118.59 GB, within.
        let at_largest = share(0.31, Some(7808), k);
        assert_eq!(at_largest.fits(), Some(true));
        // 0.32 × 121.69 GiB = 41.82 GB; + 78.08 = 119.90 GB, over.
        let just_above = share(0.32, Some(7808), k);
        assert_eq!(just_above.fits(), Some(false));
    }

    #[test]
    fn a_fit_with_under_a_tenth_to_spare_is_tight() {
        let k = Knowledge::embedded();
        // 0.7 × 121.69 GiB = 91.47 GB; 119.48 − 91.47 = 28.01 GB left for a
        // 27.40 GB run: 97.9 % of it, over the 90 % line.
        let s = share(0.7, Some(2740), k);
        assert_eq!(s.fits(), Some(true));
        assert_eq!(s.judgement(k).unwrap().verdict, Verdict::Tight);
        // (119.48 − 27.40 / 0.9 = 30.45 rounded up) / 130.66 = 0.681… → 0.68.
        assert_eq!(s.untight_fraction, Some(0.68));
        let at = share(0.68, Some(2740), k);
        assert_eq!(at.judgement(k).unwrap().verdict, Verdict::Fits);
        let s = share(0.2, Some(2740), k);
        assert_eq!(s.judgement(k).unwrap().verdict, Verdict::Fits);
        assert_eq!(
            share(0.8, Some(2740), k).judgement(k).unwrap().verdict,
            Verdict::DoesNotFit
        );
    }

    #[test]
    fn nothing_left_for_a_server() {
        let s = share(0.5, Some(13000), Knowledge::embedded());
        assert_eq!(s.largest_fraction, None);
        assert_eq!(s.fits(), Some(false));
    }
}
