//! Thermal samples kept in bounded memory: a file of any length becomes at
//! most `KEEP_AT_MOST` samples, each the mean of an equal run of rows (the
//! flags OR-ed), so a month of 1 Hz samples never takes the pool a training
//! run needs. A day at 1 Hz is kept whole.

use crate::readings::samples::ThermalSample;

/// The most samples held; past it, neighbours are merged in pairs and each
/// later sample stands for twice as many rows.
pub const KEEP_AT_MOST: usize = 1 << 17;

/// Sums of one run of rows, merged into one sample when the run is full.
#[derive(Debug, Default, Clone, Copy)]
struct Run {
    rows: usize,
    t: f64,
    sums: [(f64, u32); 5],
    thermal: Option<bool>,
    cap: Option<bool>,
}

impl Run {
    fn add(&mut self, s: &ThermalSample) {
        if self.rows == 0 {
            self.t = s.t;
        }
        self.rows += 1;
        let values = [
            s.temp_c,
            s.power_w,
            s.sm_clock_mhz,
            s.util_pct,
            s.cpu_temp_c,
        ];
        for (sum, v) in self.sums.iter_mut().zip(values) {
            if let Some(v) = v {
                sum.0 += f64::from(v);
                sum.1 += 1;
            }
        }
        self.thermal = or(self.thermal, s.thermal_flag);
        self.cap = or(self.cap, s.power_cap_flag);
    }

    /// Fold a later run into this one.
    fn absorb(&mut self, later: &Run) {
        self.rows += later.rows;
        for (s, o) in self.sums.iter_mut().zip(later.sums) {
            s.0 += o.0;
            s.1 += o.1;
        }
        self.thermal = or(self.thermal, later.thermal);
        self.cap = or(self.cap, later.cap);
    }

    fn sample(&self) -> ThermalSample {
        let mean = |i: usize| {
            let (sum, n) = self.sums[i];
            (n > 0).then(|| (sum / f64::from(n)) as f32)
        };
        ThermalSample {
            t: self.t,
            temp_c: mean(0),
            power_w: mean(1),
            sm_clock_mhz: mean(2),
            util_pct: mean(3),
            cpu_temp_c: mean(4),
            thermal_flag: self.thermal,
            power_cap_flag: self.cap,
        }
    }
}

fn or(a: Option<bool>, b: Option<bool>) -> Option<bool> {
    match (a, b) {
        (None, x) | (x, None) => x,
        (Some(x), Some(y)) => Some(x || y),
    }
}

/// Collects samples in the order read, at most `KEEP_AT_MOST` at a time.
#[derive(Debug, Default)]
pub struct Bounded {
    kept: Vec<Run>,
    /// Rows each kept sample stands for (doubles at each merge).
    stride: usize,
    open: Run,
}

impl Bounded {
    pub fn new() -> Bounded {
        Bounded {
            kept: Vec::new(),
            stride: 1,
            open: Run::default(),
        }
    }

    pub fn push(&mut self, s: ThermalSample) {
        self.open.add(&s);
        if self.open.rows < self.stride {
            return;
        }
        if self.kept.len() == KEEP_AT_MOST {
            self.halve();
        }
        self.kept.push(std::mem::take(&mut self.open));
    }

    /// Merge neighbours in pairs: half as many samples, each twice the rows.
    fn halve(&mut self) {
        let merged: Vec<Run> = self
            .kept
            .chunks(2)
            .map(|pair| {
                let mut run = pair[0];
                if let Some(b) = pair.get(1) {
                    run.absorb(b);
                }
                run
            })
            .collect();
        self.kept = merged;
        self.stride *= 2;
    }

    /// Rows each sample stands for, when more than one.
    pub fn stride(&self) -> usize {
        self.stride
    }

    pub fn finish(mut self) -> Vec<ThermalSample> {
        if self.open.rows > 0 {
            self.kept.push(self.open);
        }
        self.kept.iter().map(Run::sample).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(t: f64, temp: f32, throttled: bool) -> ThermalSample {
        ThermalSample {
            t,
            temp_c: Some(temp),
            power_w: None,
            thermal_flag: Some(throttled),
            ..ThermalSample::untimed()
        }
    }

    #[test]
    fn a_day_at_one_hertz_is_kept_whole() {
        let mut b = Bounded::new();
        for i in 0..86_400 {
            b.push(row(f64::from(i), 60.0, false));
        }
        assert_eq!(b.stride(), 1);
        assert_eq!(b.finish().len(), 86_400);
    }

    #[test]
    fn a_long_file_is_merged_into_equal_runs_with_means_and_flags() {
        let mut b = Bounded::new();
        let n = KEEP_AT_MOST * 3;
        for i in 0..n {
            b.push(row(
                i as f64,
                if i % 2 == 0 { 50.0 } else { 70.0 },
                i == n - 1,
            ));
        }
        assert_eq!(b.stride(), 4);
        let out = b.finish();
        assert!(out.len() <= KEEP_AT_MOST, "{}", out.len());
        assert_eq!(out[0].t, 0.0);
        assert_eq!(out[1].t, 4.0);
        assert_eq!(out[0].temp_c, Some(60.0));
        assert_eq!(out[0].power_w, None);
        assert_eq!(out.last().unwrap().thermal_flag, Some(true));
    }
}
