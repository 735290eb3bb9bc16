//! Is this slowdown thermal throttling? Thermal samples and step timing on
//! one time axis: the power plateau, thermal events (reported clock-event
//! reasons, or temperature climbing at flat power), the slowdown's onset,
//! and whether the two match. Pure and deterministic.

use crate::knowledge::Knowledge;
use crate::readings::samples::ThermalSample;
use crate::readings::samples::{Marker, TrainLog, TrainSample};
use serde::Serialize;

mod events;
pub mod line_up;
mod series;

use events::{climbs, clock_change, clock_falls, flagged_events, low_power_seen, low_power_spans};
use series::{plateau, slowdown};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ThermalVerdict {
    ThermalThrottling,
    /// GPU busy at very low power and clock with no thermal flag: a
    /// power-delivery fault, cleared by a full AC power cycle.
    LowPowerState,
    PowerCapOnly,
    NoThermalEvent,
    InsufficientData,
}

impl ThermalVerdict {
    pub fn label(self) -> &'static str {
        match self {
            ThermalVerdict::ThermalThrottling => "thermal throttling",
            ThermalVerdict::LowPowerState => "power-delivery low-power state, not thermal",
            ThermalVerdict::PowerCapOnly => "power cap only, no thermal event",
            ThermalVerdict::NoThermalEvent => "no thermal event",
            ThermalVerdict::InsufficientData => "not enough data to say",
        }
    }

    const ALL: [ThermalVerdict; 5] = [
        ThermalVerdict::ThermalThrottling,
        ThermalVerdict::LowPowerState,
        ThermalVerdict::PowerCapOnly,
        ThermalVerdict::NoThermalEvent,
        ThermalVerdict::InsufficientData,
    ];

    /// The snake_case name `--json` and the transcript use.
    pub fn key(self) -> &'static str {
        match self {
            ThermalVerdict::ThermalThrottling => "thermal_throttling",
            ThermalVerdict::LowPowerState => "low_power_state",
            ThermalVerdict::PowerCapOnly => "power_cap_only",
            ThermalVerdict::NoThermalEvent => "no_thermal_event",
            ThermalVerdict::InsufficientData => "insufficient_data",
        }
    }

    pub fn from_key(key: &str) -> Option<ThermalVerdict> {
        Self::ALL.into_iter().find(|v| v.key() == key)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    /// The sampled clock-event reasons report a thermal slowdown.
    ReportedThermalSlowdown,
    /// Temperature climbing while power stays flat under the rating.
    TempClimbFlatPower,
    /// Busy at very low power and clock, no thermal flag.
    LowPowerState,
    /// The SM clock falling at flat power while the GPU is at its hottest.
    ClockFallHot,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ThermalEvent {
    pub kind: EventKind,
    pub start: f64,
    pub end: f64,
    pub temp_start_c: Option<f32>,
    pub temp_end_c: Option<f32>,
    pub temp_max_c: Option<f32>,
    pub power_mean_w: Option<f32>,
    /// SM clock at the end against the start, when sampled (negative: drop).
    pub clock_change_pct: Option<f32>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Plateau {
    pub mean_w: f32,
    pub share: f32,
    pub longest_s: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Slowdown {
    pub onset: f64,
    pub baseline_s_per_step: f64,
    pub after_s_per_step: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Analysis {
    pub verdict: ThermalVerdict,
    pub events: Vec<ThermalEvent>,
    /// Climbs at flat power seen while the sampled flags said no slowdown.
    pub unflagged_climbs: Vec<ThermalEvent>,
    pub plateau: Option<Plateau>,
    pub slowdown: Option<Slowdown>,
    pub matches_thermal_event: Option<bool>,
    /// Seconds from the onset to the nearest event start.
    pub nearest_event_gap_s: Option<f64>,
    pub reasons_sampled: bool,
    /// Whether any sample carries a power draw: without one, a verdict
    /// rests on the driver's throttle flags alone.
    pub power_sampled: bool,
    pub thermal_span: Option<(f64, f64)>,
    pub train_span: Option<(f64, f64)>,
    /// Evaluation or checkpoint lines near the onset.
    pub markers_near_onset: Vec<Marker>,
    /// Utilisation before and after the onset, when sampled.
    pub util_before_after: Option<(f32, f32)>,
    /// Why the data is not enough, and what to sample next.
    pub insufficient: Vec<String>,
    pub thermal_samples: usize,
    pub train_samples: usize,
    /// The hottest CPU thermal zone's range, when the sampler recorded it.
    pub cpu_temp_range: Option<(f32, f32)>,
    /// The GPU temperature's lowest and highest sample, and when the
    /// highest was taken (seconds, the samples' clock).
    pub gpu_temp: Option<(f32, f32, f64)>,
    /// The SM clock's highest and lowest sample, MHz, when sampled.
    pub sm_clock_range: Option<(f32, f32)>,
    /// Pauses the log's durations carried (evaluation, saving), each
    /// counted once: how many and their seconds in all.
    pub pauses: (usize, f64),
}

/// The median of some values (none: `None`).
pub fn median_of(values: impl Iterator<Item = f64>) -> Option<f64> {
    median(values.collect())
}

pub(super) fn median(mut v: Vec<f64>) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    Some(if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    })
}

pub(super) struct Rules {
    pub(super) plateau_w: f64,
    pub(super) band_w: f64,
    pub(super) share: f64,
    pub(super) sustained: f64,
    pub(super) climb: f64,
    pub(super) flat: f64,
    pub(super) slowdown: f64,
    pub(super) window: f64,
    pub(super) min_samples: usize,
    pub(super) min_span: f64,
    pub(super) rated_w: f64,
    pub(super) slow_window: f64,
    pub(super) slow_climb: f64,
    pub(super) low_power_w: f64,
    pub(super) low_clock_mhz: f64,
    pub(super) busy_pct: f64,
    pub(super) low_power_tolerance: f64,
    pub(super) low_power_few: usize,
    pub(super) clock_fall: f64,
    pub(super) hot_band: f64,
}

impl Rules {
    fn from(k: &Knowledge) -> Rules {
        let r = |n: &str| k.rule(n).value;
        Rules {
            slow_window: r("slow climb window"),
            slow_climb: r("slow climb"),
            low_power_w: r("low-power state power"),
            low_clock_mhz: r("low-power state clock"),
            busy_pct: r("low-power state busy"),
            low_power_tolerance: r("low-power state tolerance"),
            low_power_few: r("low-power state few samples") as usize,
            clock_fall: r("clock fall"),
            hot_band: r("hot band"),
            plateau_w: r("platform power plateau"),
            band_w: r("plateau band"),
            share: r("plateau share of loaded samples"),
            sustained: r("sustained"),
            climb: r("temperature climb"),
            flat: r("flat power"),
            slowdown: r("slowdown"),
            window: r("match window"),
            min_samples: r("minimum samples") as usize,
            min_span: r("minimum span"),
            rated_w: k.spark("rated power").value,
        }
    }
}

pub fn analyze(thermal: &[ThermalSample], train: Option<&TrainLog>, k: &Knowledge) -> Analysis {
    let r = Rules::from(k);
    let valid: Vec<ThermalSample> = thermal
        .iter()
        .filter(|x| x.temp_c.is_some() || x.power_w.is_some())
        .copied()
        .collect();
    let thermal_span = (!valid.is_empty()).then(|| (valid[0].t, valid[valid.len() - 1].t));
    let reasons_sampled = thermal.iter().any(|x| x.thermal_flag.is_some());
    let mut insufficient = Vec::new();
    let span = thermal_span.map_or(0.0, |(a, b)| b - a);
    if valid.len() < r.min_samples && span >= r.min_span {
        // A long span with few rows is an excerpt ("trimmed to every 20
        // min"): the file the sampler wrote has the rows that decide it.
        insufficient.push(format!(
            "{} thermal sample(s) over {:.0} minutes: too sparse to judge (want {} or more); an excerpt leaves out the samples that show when power, clocks and temperature changed. Give me the whole file the sampler wrote (its path, or all of it pasted): at one sample every 30 s that span has about {:.0} rows.",
            valid.len(),
            span / 60.0,
            r.min_samples,
            span / 30.0
        ));
    } else if valid.len() < r.min_samples || span < r.min_span {
        insufficient.push(format!(
            "{} thermal sample(s) spanning {:.0} s: too few to judge (want {} or more over at least {:.0} minutes). Sample for the whole run: `bash assets/thermal-sample.sh 30 thermal.log`.",
            valid.len(),
            thermal_span.map_or(0.0, |(a, b)| b - a),
            r.min_samples,
            r.min_span / 60.0
        ));
    }
    // Temperature alone cannot show a slowdown: throttling is read from
    // power, clocks or the throttle flags. Every rule that tells heat from
    // the power cap compares against power, so without power (or flags)
    // there is no verdict either way, clocks or not.
    let no_power = valid.iter().all(|x| x.power_w.is_none());
    if !valid.is_empty() && !reasons_sampled && no_power {
        let hottest = valid
            .iter()
            .filter_map(|x| x.temp_c)
            .fold(f32::MIN, f32::max);
        let peak = if hottest > f32::MIN {
            format!(
                " (it peaked at {hottest:.0} °C; headroom knows of no published slowdown temperature for GB10, so that figure alone is not a verdict)"
            )
        } else {
            String::new()
        };
        let clocks = valid.iter().filter_map(|x| x.sm_clock_mhz);
        let (low, high) = clocks.fold((f32::MAX, f32::MIN), |(l, h), c| (l.min(c), h.max(c)));
        insufficient.push(if high > f32::MIN {
            format!(
                "no sample carries power draw or a throttle flag (power reads [N/A] or is missing), so I cannot tell heat from the power cap: the SM clock ran {low:.0}–{high:.0} MHz, and a clock that falls at the cap is not throttling{peak}. Sample power.draw and clocks_throttle_reasons too: `bash assets/thermal-sample.sh 30 thermal.log` does."
            )
        } else {
            format!(
                "no sample carries power draw, SM clock or a throttle flag (power reads [N/A] or is missing), so I cannot tell whether the GPU slowed: temperature alone does not say{peak}. Sample power.draw, clocks.sm and clocks_throttle_reasons too: `bash assets/thermal-sample.sh 30 thermal.log` does."
            )
        });
    }
    let mut train_span = None;
    let mut train_in: Vec<TrainSample> = Vec::new();
    if let Some(log) = train {
        if !log.anchored {
            insufficient.push("the training log carries no absolute time, so it cannot be lined up with the thermal samples: give the run's start time (say \"the run started at 2026-11-29 10:00:00\", or `--start \"2026-11-29 10:00:00\"` to `headroom thermal`).".into());
        } else {
            train_span = Some((log.samples[0].t, log.samples[log.samples.len() - 1].t));
            if let (Some((ta, tb)), Some((la, lb))) = (thermal_span, train_span) {
                let (a, b) = (ta.max(la), tb.min(lb));
                train_in = log
                    .samples
                    .iter()
                    .filter(|x| x.t >= a && x.t <= b)
                    .copied()
                    .collect();
                if b - a < r.sustained || train_in.len() < r.min_samples {
                    insufficient.push(format!(
                        "the thermal samples and the training log overlap for {:.0} s with {} step sample(s): too little to correlate. Keep the sampler running for the whole run.",
                        (b - a).max(0.0),
                        train_in.len()
                    ));
                }
            }
        }
    }
    let mut analysis = Analysis {
        verdict: ThermalVerdict::InsufficientData,
        events: Vec::new(),
        unflagged_climbs: Vec::new(),
        plateau: None,
        slowdown: None,
        matches_thermal_event: None,
        nearest_event_gap_s: None,
        reasons_sampled,
        power_sampled: !no_power,
        thermal_span,
        train_span,
        markers_near_onset: Vec::new(),
        util_before_after: None,
        insufficient,
        thermal_samples: valid.len(),
        train_samples: train.map_or(0, |l| l.samples.len()),
        pauses: train.map_or((0, 0.0), |l| {
            (l.pauses.len(), l.pauses.iter().fold(0.0, |a, p| a + p.1))
        }),
        gpu_temp: valid
            .iter()
            .filter_map(|x| x.temp_c.map(|c| (c, x.t)))
            .fold(None, |acc, (c, t)| match acc {
                None => Some((c, c, t)),
                Some((lo, hi, at)) => Some((lo.min(c), hi.max(c), if c > hi { t } else { at })),
            }),
        sm_clock_range: valid.iter().filter_map(|x| x.sm_clock_mhz).fold(
            None,
            |acc, v| match acc {
                None => Some((v, v)),
                Some((lo, hi)) => Some((lo.min(v), hi.max(v))),
            },
        ),
        cpu_temp_range: valid
            .iter()
            .filter_map(|x| x.cpu_temp_c)
            .fold(None, |acc, v| match acc {
                None => Some((v, v)),
                Some((lo, hi)) => Some((lo.min(v), hi.max(v))),
            }),
    };
    if !analysis.insufficient.is_empty() {
        // Too few samples for a climb can still show the low-power state:
        // it is a level (busy at ~30 W and under 900 MHz), not a trend.
        if let Some(seen) = low_power_seen(&valid, &r) {
            analysis.events = vec![seen];
            analysis.verdict = ThermalVerdict::LowPowerState;
            analysis.insufficient.clear();
        }
        return analysis;
    }
    let mut climb_events = climbs(&valid, &r, r.sustained, r.climb);
    // Slow heat: a long window with a larger rise, where the short one sees
    // too little in any 10 minutes.
    for slow in climbs(&valid, &r, r.slow_window, r.slow_climb) {
        if !climb_events
            .iter()
            .any(|c| c.start <= slow.end && c.end >= slow.start)
        {
            climb_events.push(slow);
        }
    }
    // A climb sampled too sparsely to see in any window still shows where
    // the clock falls at flat power while the GPU is at its hottest.
    for fall in clock_falls(&valid, &r) {
        if !climb_events
            .iter()
            .any(|c| c.start <= fall.end && c.end >= fall.start)
        {
            climb_events.push(fall);
        }
    }
    climb_events.sort_by(|a, b| a.start.total_cmp(&b.start));
    let low_power = low_power_spans(&valid, &r);
    if reasons_sampled {
        // The sampled reasons settle it; climbs outside any flagged span are
        // noted beside them.
        analysis.events = flagged_events(&valid);
        let flagged = analysis.events.clone();
        analysis.unflagged_climbs = climb_events
            .into_iter()
            .filter(|c| !flagged.iter().any(|e| c.start <= e.end && c.end >= e.start))
            .collect();
    } else {
        analysis.events = climb_events;
    }
    for e in analysis
        .events
        .iter_mut()
        .chain(analysis.unflagged_climbs.iter_mut())
    {
        e.clock_change_pct = clock_change(&valid, e, r.sustained);
    }
    analysis.plateau = plateau(&valid, &r);
    analysis.verdict = if !analysis.events.is_empty() {
        ThermalVerdict::ThermalThrottling
    } else if !low_power.is_empty() {
        analysis.events = low_power;
        ThermalVerdict::LowPowerState
    } else if analysis.plateau.is_some() {
        ThermalVerdict::PowerCapOnly
    } else {
        ThermalVerdict::NoThermalEvent
    };
    if train.is_some() {
        analysis.slowdown = slowdown(&train_in, &r);
        if let Some(s) = &analysis.slowdown {
            let gap = analysis
                .events
                .iter()
                .map(|e| {
                    if s.onset >= e.start - r.window && s.onset <= e.end + r.window {
                        (s.onset - e.start).abs().min((s.onset - e.end).abs()).min(
                            if s.onset >= e.start && s.onset <= e.end {
                                0.0
                            } else {
                                f64::MAX
                            },
                        )
                    } else {
                        (s.onset - e.start).abs()
                    }
                })
                .reduce(f64::min);
            analysis.nearest_event_gap_s = gap;
            analysis.matches_thermal_event = Some(gap.is_some_and(|g| g <= r.window));
            if let Some(log) = train {
                analysis.markers_near_onset = log
                    .markers
                    .iter()
                    .filter(|m| (m.t - s.onset).abs() <= r.window)
                    .copied()
                    .collect();
            }
            let util = |f: &dyn Fn(f64) -> bool| {
                let v: Vec<f64> = valid
                    .iter()
                    .filter(|x| f(x.t))
                    .filter_map(|x| x.util_pct.map(f64::from))
                    .collect();
                median(v)
            };
            if let (Some(b), Some(a)) = (util(&|t| t < s.onset), util(&|t| t >= s.onset)) {
                analysis.util_before_after = Some((b as f32, a as f32));
            }
        }
    }
    analysis
}

/// A UTC log against a local sampler: when the two do not overlap but would
/// after a whole-hour shift, say so (the shift is applied only with
/// `--log-tz`, on the owner's word).
pub fn hour_shift_hint(train: &TrainLog, analysis: &Analysis) -> Option<String> {
    let (t0, t1) = analysis.train_span?;
    let (c0, c1) = analysis.thermal_span?;
    let overlap = |shift: f64| ((t1 + shift).min(c1) - (t0 + shift).max(c0)).max(0.0);
    if overlap(0.0) > 0.5 * (t1 - t0).min(c1 - c0) {
        return None;
    }
    let best = (-14..=14)
        .map(|h| (h, overlap(h as f64 * 3600.0)))
        .max_by(|a, b| a.1.total_cmp(&b.1))?;
    (best.0 != 0 && best.1 > overlap(0.0)).then(|| {
        format!(
            "The training log and the thermal samples {} but would after shifting the log by {:+} h{}. headroom does not shift times by itself: if the sampler's clock is UTC{:+}:00, rerun with `--log-tz {:+03}:00` (in the chat, say \"the log is UTC, we are at UTC{:+}\").",
            if overlap(0.0) > 0.0 { "barely overlap" } else { "do not overlap" },
            best.0,
            if train.utc_unshifted { " (its stamps are UTC, the sampler writes local time)" } else { "" },
            best.0,
            best.0,
            best.0
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(t: f64, temp: f32, power: f32) -> ThermalSample {
        ThermalSample {
            t,
            temp_c: Some(temp),
            power_w: Some(power),
            sm_clock_mhz: None,
            util_pct: Some(99.0),
            thermal_flag: None,
            power_cap_flag: None,
            cpu_temp_c: None,
        }
    }

    #[test]
    fn an_excerpt_over_hours_asks_for_the_whole_file_and_a_short_one_for_more_time() {
        let excerpt: Vec<_> = (0..9)
            .map(|i| sample(i as f64 * 1200.0, 58.0 + i as f32 * 3.0, 96.0))
            .collect();
        let a = analyze(&excerpt, None, Knowledge::embedded());
        assert_eq!(a.verdict, ThermalVerdict::InsufficientData);
        assert!(
            a.insufficient[0].contains("over 160 minutes: too sparse"),
            "{:?}",
            a.insufficient
        );
        assert!(a.insufficient[0].contains("Give me the whole file"));
        let short: Vec<_> = (0..20)
            .map(|i| sample(i as f64 * 5.0, 60.0, 96.0))
            .collect();
        let a = analyze(&short, None, Knowledge::embedded());
        assert!(
            a.insufficient[0].contains("too few to judge"),
            "{:?}",
            a.insufficient
        );
    }

    #[test]
    fn a_plateau_near_100_w_with_steady_temperature_is_the_cap_only() {
        let s: Vec<_> = (0..240)
            .map(|i| sample(i as f64 * 30.0, 68.0, 98.0 + (i % 3) as f32))
            .collect();
        let a = analyze(&s, None, Knowledge::embedded());
        assert_eq!(a.verdict, ThermalVerdict::PowerCapOnly);
        assert!(a.events.is_empty());
    }

    #[test]
    fn temperature_climbing_at_flat_power_is_the_signature() {
        let s: Vec<_> = (0..240)
            .map(|i| {
                let t = i as f64 * 30.0;
                let temp = if i < 120 {
                    70.0
                } else {
                    70.0 + (i - 120) as f32 * 0.3
                };
                sample(t, temp, 100.0)
            })
            .collect();
        let a = analyze(&s, None, Knowledge::embedded());
        assert_eq!(a.verdict, ThermalVerdict::ThermalThrottling);
        assert_eq!(a.events[0].kind, EventKind::TempClimbFlatPower);
        assert!(a.events[0].start >= 120.0 * 30.0 - 600.0);
    }

    #[test]
    fn a_cold_start_ramp_is_not_a_climb() {
        let s: Vec<_> = (0..240)
            .map(|i| {
                let t = i as f64 * 30.0;
                let (temp, power) = if i < 20 {
                    (40.0 + i as f32 * 1.5, 20.0 + i as f32 * 4.0)
                } else {
                    (70.0, 100.0)
                };
                sample(t, temp, power)
            })
            .collect();
        let a = analyze(&s, None, Knowledge::embedded());
        assert!(a.events.is_empty(), "{:?}", a.events);
    }

    #[test]
    fn hot_samples_without_power_or_clocks_cannot_be_judged() {
        let s: Vec<_> = (0..240)
            .map(|i| ThermalSample {
                power_w: None,
                ..sample(i as f64 * 30.0, 96.0, 0.0)
            })
            .collect();
        let a = analyze(&s, None, Knowledge::embedded());
        assert_eq!(a.verdict, ThermalVerdict::InsufficientData);
        assert!(
            a.insufficient
                .iter()
                .any(|m| m.contains("cannot tell") && m.contains("96 °C")),
            "{:?}",
            a.insufficient
        );
    }

    #[test]
    fn clocks_without_power_cannot_tell_heat_from_the_cap() {
        // The clock falls 23 % as the temperature climbs to 96 °C, but with
        // power [N/A] no rule can tell a thermal slowdown from the cap.
        let s: Vec<_> = (0..240)
            .map(|i| ThermalSample {
                power_w: None,
                sm_clock_mhz: Some(if i < 120 { 2400.0 } else { 1850.0 }),
                ..sample(i as f64 * 30.0, 55.0 + i as f32 * 0.17, 0.0)
            })
            .collect();
        let a = analyze(&s, None, Knowledge::embedded());
        assert_eq!(a.verdict, ThermalVerdict::InsufficientData);
        let why = a.insufficient.join(" ");
        assert!(why.contains("cannot tell heat from the power cap"), "{why}");
        assert!(why.contains("1850–2400 MHz"), "{why}");
    }

    #[test]
    fn too_few_samples_are_insufficient() {
        let s: Vec<_> = (0..3)
            .map(|i| sample(i as f64 * 30.0, 60.0, 90.0))
            .collect();
        let a = analyze(&s, None, Knowledge::embedded());
        assert_eq!(a.verdict, ThermalVerdict::InsufficientData);
        assert!(a.insufficient[0].contains("thermal-sample.sh"));
    }
}
