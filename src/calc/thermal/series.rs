//! The two series' summaries: the power plateau, and the step-time
//! slowdown's onset.

use super::{Plateau, Rules, Slowdown, median};
use crate::readings::samples::ThermalSample;
use crate::readings::samples::TrainSample;

pub(super) fn plateau(s: &[ThermalSample], r: &Rules) -> Option<Plateau> {
    let loaded: Vec<&ThermalSample> = s
        .iter()
        .filter(|x| {
            x.power_w.is_some()
                && x.util_pct.is_none_or(|u| u >= 50.0)
                && x.power_w.unwrap_or(0.0) > 30.0
        })
        .collect();
    if loaded.len() < r.min_samples {
        return None;
    }
    let on = |x: &ThermalSample| (x.power_w.unwrap_or(0.0) as f64 - r.plateau_w).abs() <= r.band_w;
    let hits: Vec<&&ThermalSample> = loaded.iter().filter(|x| on(x)).collect();
    let share = hits.len() as f64 / loaded.len() as f64;
    let mut longest = 0.0f64;
    let mut run_start: Option<f64> = None;
    for x in &loaded {
        match (on(x), run_start) {
            (true, None) => run_start = Some(x.t),
            (true, Some(b)) => longest = longest.max(x.t - b),
            (false, _) => run_start = None,
        }
    }
    (share >= r.share && longest >= r.sustained).then(|| Plateau {
        mean_w: hits.iter().map(|x| x.power_w.unwrap_or(0.0)).sum::<f32>() / hits.len() as f32,
        share: share as f32,
        longest_s: longest,
    })
}

/// The first point after which the rolling step time stays `slowdown` above
/// the baseline (the median of the run's first fifth) for a sustained
/// window.
pub(super) fn slowdown(train: &[TrainSample], r: &Rules) -> Option<Slowdown> {
    let n = train.len();
    if n < r.min_samples {
        return None;
    }
    let base_n = (n / 5).max(5).min(n);
    let baseline = median(train[..base_n].iter().map(|x| x.sec_per_step).collect())?;
    // Four neighbours each side smooth a dense log's jitter; in a sparse
    // one (a line every 8 minutes) they would reach an hour back and hide
    // a slowdown, so a neighbour counts only within a quarter of the
    // sustained window.
    let half = 4usize;
    let reach = r.sustained / 4.0;
    let rolling: Vec<f64> = (0..n)
        .map(|i| {
            let lo = i.saturating_sub(half);
            let hi = (i + half + 1).min(n);
            median(
                (lo..hi)
                    .filter(|&j| (train[j].t - train[i].t).abs() <= reach)
                    .map(|j| train[j].sec_per_step)
                    .collect(),
            )
            .unwrap_or(0.0)
        })
        .collect();
    let slow = |v: f64| v >= baseline * (1.0 + r.slowdown);
    for i in base_n..n {
        if !slow(rolling[i]) {
            continue;
        }
        let t0 = train[i].t;
        // The samples from the onset until one reaches past the sustained
        // window: a sparse log (one line per epoch or per 100 steps) has
        // only two or three of them, a dense one hundreds.
        let window: Vec<usize> = (i..n)
            .take_while(|&j| j == i || train[j - 1].t < t0 + r.sustained)
            .collect();
        let lasts = train[n - 1].t - t0 >= r.sustained;
        // A log printed every 10 minutes has two samples in the window: the
        // second one ten minutes on is enough.
        let spans =
            window.len() >= 3 || window.len() == 2 && train[window[1]].t - t0 >= r.sustained * 0.9;
        if lasts && spans && window.iter().all(|&j| slow(rolling[j])) {
            let after = median(train[i..].iter().map(|x| x.sec_per_step).collect())?;
            // A sample closes the steps since the one before it: the
            // slowdown began where those steps began.
            // Between two lines, the steps ran at the old pace until the
            // onset and at the new one after: the count and the time between
            // the lines say where (fast × x + slow × (steps − x) = time).
            let onset = match i.checked_sub(1).map(|p| &train[p]) {
                Some(prev) if train[i].step > prev.step => {
                    let steps = (train[i].step - prev.step) as f64;
                    let (fast, slow_s) = (baseline, train[i].sec_per_step);
                    let at_old_pace = if slow_s > fast {
                        ((slow_s * steps - (t0 - prev.t)) / (slow_s - fast)).clamp(0.0, steps)
                    } else {
                        0.0
                    };
                    (prev.t + at_old_pace * fast).min(t0)
                }
                _ => t0,
            };
            return Some(Slowdown {
                onset,
                baseline_s_per_step: baseline,
                after_s_per_step: after,
            });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::knowledge::Knowledge;

    /// A log line every `every` seconds, 50 steps each: `pace` before
    /// `ramp_at` (a line index), then rising by `rise` s/step per line.
    fn sparse(lines: usize, every: f64, pace: f64, ramp_at: usize, rise: f64) -> Vec<TrainSample> {
        (0..lines)
            .map(|i| TrainSample {
                t: i as f64 * every,
                step: 50 * (i as u64 + 1),
                sec_per_step: pace + rise * i.saturating_sub(ramp_at) as f64,
            })
            .collect()
    }

    #[test]
    fn a_sparse_log_rising_at_its_end_has_a_sustained_slowdown() {
        let r = Rules::from(Knowledge::embedded());
        // A line every 8.5 minutes for 2.5 hours, +25 % over the last 45
        // minutes; every 5 minutes; every 10 minutes.
        for (lines, every, rise) in [(19, 510.0, 0.52), (30, 300.0, 0.6), (15, 600.0, 0.8)] {
            let train = sparse(lines, every, 10.21, lines - 6, rise);
            let s = slowdown(&train, &r).unwrap_or_else(|| panic!("{lines} lines every {every} s"));
            assert!(s.after_s_per_step > 11.74, "{lines}: {s:?}");
        }
        // Flat to the end: none.
        assert!(slowdown(&sparse(19, 510.0, 10.21, 19, 0.0), &r).is_none());
    }
}
