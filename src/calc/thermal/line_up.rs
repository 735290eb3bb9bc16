//! A training log whose clock is whole hours (or quarter hours) off the
//! sampler's, as a container's UTC log beside a local-time CSV is: the
//! offset at which the first step meets the samples' load ramp, when the
//! evidence is clear. The shift is always said, and `--log-tz` (or the
//! owner's start time) overrides it.

use crate::readings::samples::{ThermalSample, TrainLog};
use crate::readings::undated::{MissingDate, date_near};

/// A shift of the log's times, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Shift {
    pub seconds: f64,
    pub why: String,
}

/// Idle and loaded, by power or utilisation (GB10 idles near 11 W).
fn idle(s: &ThermalSample) -> bool {
    s.power_w.is_some_and(|p| p < 30.0) || s.util_pct.is_some_and(|u| u < 20.0)
}

fn loaded(s: &ThermalSample) -> bool {
    s.power_w.is_some_and(|p| p >= 50.0) || s.util_pct.is_some_and(|u| u >= 80.0)
}

/// Where the load ramps up: the first loaded sample after an idle one.
fn ramp(thermal: &[ThermalSample]) -> Option<f64> {
    thermal
        .windows(2)
        .find(|w| idle(&w[0]) && loaded(&w[1]))
        .map(|w| w[1].t)
}

/// Within this of the ramp, the first step lines up with it.
const MATCH_S: f64 = 300.0;
/// Unshifted, the first step must be at least this far from the ramp for
/// a shift to be worth making.
const MISS_S: f64 = 1200.0;

pub fn line_up(thermal: &[ThermalSample], log: &TrainLog) -> Option<Shift> {
    if !log.anchored || log.owner_anchored || log.samples.is_empty() {
        return None;
    }
    let ramp = ramp(thermal)?;
    let first = &log.samples[0];
    // A sparse log's first sample comes after the steps it did not print
    // (Marian prints every 500th update): the run began those steps
    // earlier, at most ten minutes.
    let start = first.t - (first.step.max(1) as f64 * first.sec_per_step).min(600.0);
    let gap = |shift: f64| (start + shift - ramp).abs();
    if gap(0.0) <= MISS_S {
        return None;
    }
    // Quarter hours from −14 h to +14 h: every zone offset in use.
    let best = (-56..=56)
        .map(|q| q as f64 * 900.0)
        .min_by(|a, b| gap(*a).total_cmp(&gap(*b)))?;
    if gap(best) > MATCH_S {
        return None;
    }
    let h = best / 3600.0;
    let clock = |t: f64| {
        jiff::Timestamp::from_second(t as i64)
            .map(|ts| ts.strftime("%H:%M:%S").to_string())
            .unwrap_or_default()
    };
    let zone = if log.utc_unshifted {
        format!(
            "the log's stamps are UTC and the samples look like UTC{}",
            offset_text(h)
        )
    } else {
        format!(
            "the log's clock looks {} off the samples' (a container's UTC beside local time is the usual cause)",
            offset_text(h)
        )
    };
    Some(Shift {
        seconds: best,
        why: format!(
            "Lined up: {zone}, so I shifted the log by {} h; then its first step ({} shifted) meets the load ramp in the samples ({}). `--log-tz` (or \"the log is UTC, we are at UTC+1\" in the chat) overrides this.",
            offset_text(h),
            clock(start + best),
            clock(ramp)
        ),
    })
}

fn offset_text(h: f64) -> String {
    let sign = if h < 0.0 { '-' } else { '+' };
    let m = (h.abs() * 60.0).round() as i64;
    if m % 60 == 0 {
        format!("{sign}{}", m / 60)
    } else {
        format!("{sign}{}:{:02}", m / 60, m % 60)
    }
}

/// The log lined up when it needs it, and the shift made (to be said).
pub fn lined_up(thermal: &[ThermalSample], log: TrainLog) -> (TrainLog, Option<Shift>) {
    let log = dated(thermal, log);
    match line_up(thermal, &log) {
        Some(shift) => (shifted(log, &shift), Some(shift)),
        None => (log, None),
    }
}

/// A log whose stamps carry no year (or no date), dated in the year (or on
/// the day) that puts it nearest the samples.
pub fn dated(thermal: &[ThermalSample], mut log: TrainLog) -> TrainLog {
    let (Some(first_sample), Some(first_step)) = (thermal.first(), log.samples.first()) else {
        return log;
    };
    let missing = match (log.yearless, log.dateless) {
        (_, true) => MissingDate::Day,
        (true, false) => MissingDate::Year,
        (false, false) => return log,
    };
    if let Some(seconds) = date_near(first_step.t, first_sample.t, missing) {
        log = shifted(
            log,
            &Shift {
                seconds,
                why: String::new(),
            },
        );
    }
    log.yearless = false;
    log.dateless = false;
    log
}

/// The log with its times shifted.
pub fn shifted(mut log: TrainLog, shift: &Shift) -> TrainLog {
    for s in &mut log.samples {
        s.t += shift.seconds;
    }
    for m in &mut log.markers {
        m.t += shift.seconds;
    }
    for p in &mut log.pauses {
        p.0 += shift.seconds;
    }
    log.utc_unshifted = false;
    log
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::readings::samples::TrainSample;

    fn sample(t: f64, power: f32) -> ThermalSample {
        ThermalSample {
            t,
            temp_c: Some(60.0),
            power_w: Some(power),
            sm_clock_mhz: None,
            util_pct: None,
            thermal_flag: None,
            power_cap_flag: None,
            cpu_temp_c: None,
        }
    }

    fn log(first: f64, owner: bool) -> TrainLog {
        TrainLog {
            samples: (0..100)
                .map(|i| TrainSample {
                    t: first + i as f64 * 2.0,
                    step: i + 1,
                    sec_per_step: 2.0,
                })
                .collect(),
            anchored: true,
            anchor_source: None,
            markers: Vec::new(),
            lines_read: 100,
            utc_unshifted: false,
            owner_anchored: owner,
            pauses: Vec::new(),
            yearless: false,
            dateless: false,
        }
    }

    fn samples() -> Vec<ThermalSample> {
        // Idle until 10 000 s, loaded from then on.
        (0..400)
            .map(|i| sample(i as f64 * 30.0 + 9000.0, if i < 34 { 11.0 } else { 100.0 }))
            .collect()
    }

    #[test]
    fn an_hour_off_is_lined_up_and_said() {
        let s = line_up(&samples(), &log(10_020.0 - 3600.0, false)).unwrap();
        assert_eq!(s.seconds, 3600.0);
        assert!(s.why.contains("+1 h"), "{}", s.why);
    }

    #[test]
    fn a_sparse_logs_first_print_counts_the_steps_before_it() {
        // Marian prints every 500th update: its first sample is step 1000,
        // 7 minutes in at 0.42 s a step. The run began at the ramp, an
        // hour off; the first print alone is past the match window.
        let mut sparse = log(0.0, false);
        sparse.samples = (0..50)
            .map(|i| TrainSample {
                t: 10_000.0 - 3600.0 + 420.0 + i as f64 * 210.0,
                step: 1000 + 500 * i,
                sec_per_step: 0.42,
            })
            .collect();
        assert_eq!(
            line_up(&samples(), &sparse).map(|s| s.seconds),
            Some(3600.0)
        );
    }

    #[test]
    fn no_shift_when_it_already_lines_up_or_the_owner_said_when() {
        assert!(line_up(&samples(), &log(10_020.0, false)).is_none());
        assert!(line_up(&samples(), &log(10_020.0 - 3600.0, true)).is_none());
    }

    #[test]
    fn no_shift_on_weak_evidence() {
        // Off by 37.5 min: no zone offset puts it within 5 min of the ramp.
        assert!(line_up(&samples(), &log(10_020.0 - 2250.0, false)).is_none());
        // No idle sample before the load: no ramp to line up with.
        let busy: Vec<_> = (0..100).map(|i| sample(i as f64 * 30.0, 100.0)).collect();
        assert!(line_up(&busy, &log(-3600.0, false)).is_none());
    }
}
