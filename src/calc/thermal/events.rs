//! Thermal events: spans the sampled clock-event reasons flag, and
//! temperature climbing at flat power (the throttling signature).

use super::{EventKind, Rules, ThermalEvent, median};
use crate::readings::samples::ThermalSample;
use std::collections::VecDeque;

/// Minimum and maximum over a window whose two ends only move forward
/// (monotonic deques): O(n) over a day at 1 Hz in O(window) memory, where
/// a sparse table took 17 levels of the whole series.
pub(super) struct SlidingMinMax<'a> {
    v: &'a [f64],
    /// The window is `from..to`.
    from: usize,
    to: usize,
    min: VecDeque<usize>,
    max: VecDeque<usize>,
}

impl<'a> SlidingMinMax<'a> {
    fn new(v: &'a [f64]) -> SlidingMinMax<'a> {
        SlidingMinMax {
            v,
            from: 0,
            to: 0,
            min: VecDeque::new(),
            max: VecDeque::new(),
        }
    }

    /// Min and max over `a..=b`; `a` and `b` never go back between calls.
    fn min_max(&mut self, a: usize, b: usize) -> (f64, f64) {
        debug_assert!(a >= self.from && b + 1 >= self.to && a <= b);
        while self.to <= b {
            let x = self.v[self.to];
            while self.min.back().is_some_and(|&j| self.v[j] >= x) {
                self.min.pop_back();
            }
            while self.max.back().is_some_and(|&j| self.v[j] <= x) {
                self.max.pop_back();
            }
            self.min.push_back(self.to);
            self.max.push_back(self.to);
            self.to += 1;
        }
        self.from = a;
        while self.min.front().is_some_and(|&j| j < a) {
            self.min.pop_front();
        }
        while self.max.front().is_some_and(|&j| j < a) {
            self.max.pop_front();
        }
        (self.v[self.min[0]], self.v[self.max[0]])
    }
}

pub(super) fn event_from(kind: EventKind, s: &[ThermalSample]) -> ThermalEvent {
    let temps: Vec<f32> = s.iter().filter_map(|x| x.temp_c).collect();
    let powers: Vec<f32> = s.iter().filter_map(|x| x.power_w).collect();
    let clock_start = s.iter().find_map(|x| x.sm_clock_mhz);
    let clock_end = s.iter().rev().find_map(|x| x.sm_clock_mhz);
    ThermalEvent {
        kind,
        start: s[0].t,
        end: s[s.len() - 1].t,
        temp_start_c: temps.first().copied(),
        temp_end_c: temps.last().copied(),
        temp_max_c: temps.iter().copied().reduce(f32::max),
        power_mean_w: (!powers.is_empty())
            .then(|| powers.iter().sum::<f32>() / powers.len() as f32),
        clock_change_pct: match (clock_start, clock_end) {
            (Some(a), Some(b)) if a > 0.0 => Some((b - a) / a * 100.0),
            _ => None,
        },
    }
}

/// SM clock during an event against the median of the window before it.
pub(super) fn clock_change(s: &[ThermalSample], e: &ThermalEvent, window: f64) -> Option<f32> {
    let before = median(
        s.iter()
            .filter(|x| x.t >= e.start - window && x.t < e.start)
            .filter_map(|x| x.sm_clock_mhz.map(f64::from))
            .collect(),
    )?;
    let during = median(
        s.iter()
            .filter(|x| x.t >= e.start && x.t <= e.end)
            .filter_map(|x| x.sm_clock_mhz.map(f64::from))
            .collect(),
    )?;
    (before > 0.0).then(|| ((during - before) / before * 100.0) as f32)
}

/// Spans where the sampled reasons report a thermal slowdown.
pub(super) fn flagged_events(s: &[ThermalSample]) -> Vec<ThermalEvent> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    for (i, x) in s.iter().enumerate() {
        let on = x.thermal_flag == Some(true);
        match (on, start) {
            (true, None) => start = Some(i),
            (false, Some(b)) => {
                out.push(event_from(EventKind::ReportedThermalSlowdown, &s[b..i]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(b) = start {
        out.push(event_from(EventKind::ReportedThermalSlowdown, &s[b..]));
    }
    out
}

/// Temperature rising by `climb` over a sustained window while power stays
/// flat across that window and the one before it (so a cold start, where
/// power ramps too, is not a climb).
/// Temperature rising by `rise` °C over `window` s while power stays flat.
pub(super) fn climbs(
    s: &[ThermalSample],
    r: &Rules,
    window: f64,
    rise_c: f64,
) -> Vec<ThermalEvent> {
    let valid: Vec<&ThermalSample> = s
        .iter()
        .filter(|x| x.temp_c.is_some() && x.power_w.is_some())
        .collect();
    let mut marked = vec![false; valid.len()];
    // Range min/max and prefix sums keep a day at 1 Hz linear-ish.
    let values: Vec<f64> = valid
        .iter()
        .map(|x| x.power_w.unwrap_or(0.0) as f64)
        .collect();
    let mut power = SlidingMinMax::new(&values);
    let mut prefix = vec![0.0; values.len() + 1];
    for (i, v) in values.iter().enumerate() {
        prefix[i + 1] = prefix[i] + v;
    }
    let mut before = 0usize;
    let mut end = 0usize;
    for i in 0..valid.len() {
        let t0 = valid[i].t;
        while before < i && valid[before].t < t0 - window {
            before += 1;
        }
        if valid[before].t > t0 - window * 0.9 || before == i {
            continue; // no full window before this point yet
        }
        if end < i {
            end = i;
        }
        while end + 1 < valid.len() && valid[end].t < t0 + window {
            end += 1;
        }
        if valid[end].t < t0 + window * 0.9 {
            break;
        }
        let (lo, hi) = power.min_max(before, end);
        let mean = (prefix[end + 1] - prefix[before]) / (end + 1 - before) as f64;
        let flat = mean > 0.0
            && mean < r.rated_w
            && hi <= mean * (1.0 + r.flat)
            && lo >= mean * (1.0 - r.flat);
        let rise = valid[end].temp_c.unwrap_or(0.0) - valid[i].temp_c.unwrap_or(0.0);
        if flat && rise as f64 >= rise_c {
            for m in marked.iter_mut().take(end + 1).skip(i) {
                *m = true;
            }
        }
    }
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    for i in 0..=valid.len() {
        let on = i < valid.len() && marked[i];
        match (on, start) {
            (true, None) => start = Some(i),
            (false, Some(b)) => {
                let run: Vec<ThermalSample> = valid[b..i].iter().map(|x| **x).collect();
                out.push(event_from(EventKind::TempClimbFlatPower, &run));
                start = None;
            }
            _ => {}
        }
    }
    out
}

/// The SM clock's median over a sustained window at least `clock_fall`
/// under the window before it, at flat power (under the rating) and busy,
/// while the temperature is within `hot_band` of the hottest sample.
pub(super) fn clock_falls(s: &[ThermalSample], r: &Rules) -> Vec<ThermalEvent> {
    let hottest = s.iter().filter_map(|x| x.temp_c).fold(f32::MIN, f32::max) as f64;
    // A tenth of slack, so samples taken every 10 minutes with clock
    // jitter still fall in the windows.
    let window = r.sustained * 1.1;
    let mut out: Vec<ThermalEvent> = Vec::new();
    // Windows move forward with two indices, and a dense log (1 Hz) is
    // judged every tenth of a window, not at every sample: a day of samples
    // stays linear.
    let (mut lo, mut hi) = (0usize, 0usize);
    let mut next_t = f64::MIN;
    for (i, x) in s.iter().enumerate() {
        if x.t < next_t {
            continue;
        }
        next_t = x.t + r.sustained / 10.0;
        while lo < i && s[lo].t < x.t - window {
            lo += 1;
        }
        hi = hi.max(i);
        while hi < s.len() && s[hi].t <= x.t + window {
            hi += 1;
        }
        let before: Vec<&ThermalSample> = s[lo..i].iter().collect();
        let after: Vec<&ThermalSample> = s[i..hi].iter().collect();
        if before.is_empty() || after.len() < 2 {
            continue;
        }
        let clock = |w: &[&ThermalSample]| {
            median(
                w.iter()
                    .filter_map(|y| y.sm_clock_mhz.map(f64::from))
                    .collect(),
            )
        };
        let (Some(was), Some(now)) = (clock(&before), clock(&after)) else {
            continue;
        };
        let powers: Vec<f64> = before
            .iter()
            .chain(after.iter())
            .filter_map(|y| y.power_w.map(f64::from))
            .collect();
        let mean = powers.iter().sum::<f64>() / powers.len().max(1) as f64;
        let flat = !powers.is_empty()
            && mean < r.rated_w
            && powers.iter().all(|p| (p - mean).abs() <= mean * r.flat);
        let busy = after
            .iter()
            .all(|y| y.util_pct.is_none_or(|u| u as f64 >= r.busy_pct));
        let hot = median(
            after
                .iter()
                .filter_map(|y| y.temp_c.map(f64::from))
                .collect(),
        )
        .is_some_and(|t| t >= hottest - r.hot_band);
        if was > 0.0 && (was - now) / was >= r.clock_fall && flat && busy && hot {
            let run: Vec<ThermalSample> = after.iter().map(|y| **y).collect();
            match out.last_mut() {
                Some(e) if e.start <= run[0].t && e.end >= run[0].t => {
                    e.end = e.end.max(run[run.len() - 1].t)
                }
                _ => out.push(event_from(EventKind::ClockFallHot, &run)),
            }
        }
    }
    out
}

/// Busy at very low power and clock with no thermal flag.
fn stuck(x: &ThermalSample, r: &Rules) -> bool {
    x.util_pct.is_some_and(|u| u as f64 >= r.busy_pct)
        && x.power_w
            .is_some_and(|p| (p as f64) <= r.low_power_w * (1.0 + r.low_power_tolerance))
        && x.sm_clock_mhz
            .is_some_and(|c| (c as f64) <= r.low_clock_mhz)
        && x.thermal_flag != Some(true)
}

/// The low-power state in samples too few or too short to judge a trend:
/// every busy sample stuck, and at least the rule's few of them.
pub(super) fn low_power_seen(s: &[ThermalSample], r: &Rules) -> Option<ThermalEvent> {
    let busy: Vec<ThermalSample> = s
        .iter()
        .filter(|x| x.util_pct.is_some_and(|u| u as f64 >= r.busy_pct))
        .copied()
        .collect();
    (busy.len() >= r.low_power_few && busy.iter().all(|x| stuck(x, r)))
        .then(|| event_from(EventKind::LowPowerState, &busy))
}

/// Spans where the GPU is busy at very low power and clock with no thermal
/// flag: the power-delivery low-power state, sustained.
pub(super) fn low_power_spans(s: &[ThermalSample], r: &Rules) -> Vec<ThermalEvent> {
    let stuck = |x: &ThermalSample| stuck(x, r);
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    for i in 0..=s.len() {
        let on = i < s.len() && stuck(&s[i]);
        match (on, start) {
            (true, None) => start = Some(i),
            (false, Some(b)) => {
                if s[i - 1].t - s[b].t >= r.sustained {
                    out.push(event_from(EventKind::LowPowerState, &s[b..i]));
                }
                start = None;
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::SlidingMinMax;

    #[test]
    fn sliding_min_max_matches_a_scan_of_each_window() {
        // A saw with noise from a small LCG, windows moving at uneven steps.
        let mut seed = 7u64;
        let v: Vec<f64> = (0..500)
            .map(|i| {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
                (i % 37) as f64 + (seed >> 40) as f64 / 1e7
            })
            .collect();
        let mut w = SlidingMinMax::new(&v);
        let (mut a, mut b) = (0usize, 0usize);
        while b < v.len() {
            let got = w.min_max(a, b);
            let window = &v[a..=b];
            let want = (
                window.iter().copied().fold(f64::MAX, f64::min),
                window.iter().copied().fold(f64::MIN, f64::max),
            );
            assert_eq!(got, want, "window {a}..={b}");
            b += 1 + b % 5;
            a = (a + b % 3).min(b.min(v.len() - 1));
        }
    }
}
