//! From what the scanner collected to one timing: progress bars (with their
//! restarts), stamped step lines, per-step durations summed from the start,
//! or elapsed-time lines, whichever is richest, placed in absolute time.

use super::{Scanner, TrainLogError};
use crate::readings::samples::{Marker, TrainLog, TrainSample};
use crate::readings::undated::{MissingDate, date_near};

/// One way of placing the steps in time.
struct Candidate {
    samples: Vec<TrainSample>,
    /// Placed in absolute time (it can be lined up with the samples).
    anchored: bool,
    how: Option<String>,
    /// Pauses counted once.
    pauses: Vec<(f64, f64)>,
    /// How many step lines it rests on.
    points: usize,
    /// Placed by the owner's start time, not by the log's own stamps (a
    /// stamp without a year or a date then needs no dating).
    from_owner: bool,
}

impl Scanner {
    pub(super) fn finish(mut self, start: Option<f64>) -> Result<TrainLog, TrainLogError> {
        let owner_anchor = start.map(|s| (s, "the start time you gave".to_string()));
        // A log that numbers only its epochs: they are its steps (a stray
        // step line or two, from a config dump, does not count).
        if self.durations.len() < 2
            && self.stamped.len() < 2
            && self.elapsed_steps.is_empty()
            && self.either_steps.is_empty()
            && self.bars.is_empty()
        {
            if self.epoch_durations.len() >= 2 {
                self.durations = std::mem::take(&mut self.epoch_durations);
                self.after_pause_hint = vec![false; self.durations.len()];
            }
            if self.epoch_stamped.len() >= 2 {
                self.stamped = std::mem::take(&mut self.epoch_stamped);
            }
        }
        // The owner's start time wins over torchtune's file name (UTC).
        if self.anchor_from_name && owner_anchor.is_some() {
            self.anchor = None;
            self.utc = false;
        }
        if self.durations.is_empty()
            && let Some(tokens) = self.tokens_per_step
        {
            self.durations = self
                .tps_steps
                .iter()
                .map(|(step, tps)| (*step, tokens / tps))
                .collect();
            if self.duration_anchor.is_none() {
                self.duration_anchor = self.anchor.as_ref().map(|a| a.0);
            }
        }
        // "elapsed_ms" and "wall" values: a time since the start grows with
        // the steps; a duration stays near its median.
        if self.durations.is_empty()
            && self.elapsed_steps.is_empty()
            && self.either_steps.len() >= 2
        {
            let either = std::mem::take(&mut self.either_steps);
            // Jitter makes about half of a duration's steps rise; a clock
            // rises at (nearly) every step.
            let rising = either.windows(2).filter(|w| w[1].1 > w[0].1).count();
            if rising * 10 >= (either.len() - 1) * 9 {
                self.elapsed_steps = either;
                self.elapsed_anchor = self.elapsed_anchor.or(self.either_anchor);
            } else {
                self.durations = either;
            }
        }
        let utc_unshifted = self.utc && self.tz_offset.is_none();
        let mut pauses: Vec<(f64, f64)> = Vec::new();
        let mut candidates: Vec<Candidate> = Vec::new();

        // The training bar is the one with the most updates (eval bars are short).
        let anchor = self.anchor.clone().or(owner_anchor.clone());
        if let Some(mut bar) = self.bars.into_values().max_by_key(|b| b.samples.len())
            && !bar.samples.is_empty()
        {
            if bar.shows_average_rate() && bar.restarts.is_empty() {
                bar.samples = paced_from_elapsed(&bar.samples);
            }
            let base = anchor.as_ref().map_or(0.0, |a| a.0);
            let mut restarts = bar.restarts.iter().peekable();
            let mut seg_base = base;
            let samples = bar
                .samples
                .into_iter()
                .enumerate()
                .map(|(i, (t, step, sec))| {
                    while let Some(&&(at, abs)) = restarts.peek() {
                        if i >= at {
                            seg_base = abs;
                            restarts.next();
                        } else {
                            break;
                        }
                    }
                    TrainSample {
                        t: seg_base + t,
                        step,
                        sec_per_step: sec,
                    }
                })
                .collect::<Vec<_>>();
            candidates.push(Candidate {
                points: samples.len(),
                samples,
                anchored: anchor.is_some(),
                how: anchor.as_ref().map(|a| a.1.clone()),
                pauses: Vec::new(),
                from_owner: self.anchor.is_none(),
            });
        }
        // Lines that carry a stamp and a step.
        if self.stamped.len() >= 2 {
            // A line that prints its own step time ("step_time 2.62s") is
            // truer than the difference over the steps it skipped.
            let printed: std::collections::HashMap<u64, f64> =
                self.durations.iter().copied().collect();
            let mut out = Vec::new();
            for w in self.stamped.windows(2) {
                let (t0, s0, _) = w[0];
                let (t1, s1, rate) = w[1];
                // A step that goes back is a restart: a new segment, and the
                // time between is a gap, not a slow step.
                if s1 < s0 || t1 <= t0 {
                    continue;
                }
                // A stamped bar update carries its own pace: truer than the
                // difference of counts rounded to three digits ("4.62kit").
                // A printed time far from the stamps' pace times something
                // else (ESPnet's `iter_time` is the loader's wait).
                let between = (s1 > s0).then(|| (t1 - t0) / (s1 - s0) as f64);
                let printed = printed.get(&s1).copied().filter(|p| {
                    between.is_some_and(|b| b > 0.0 && (b / 3.0..=b * 3.0).contains(p))
                });
                let sec_per_step = match rate.or(printed).or(between) {
                    Some(rate) => rate,
                    None => continue,
                };
                out.push(TrainSample {
                    t: t1,
                    step: s1,
                    sec_per_step,
                });
            }
            // Each line's own stamp is the truest clock: its first line
            // counts as a point too, so it wins a tie with a bar whose
            // elapsed field says something else.
            // and it beats durations summed from a start, which drift.
            candidates.push(Candidate {
                points: self.stamped.len() + 1,
                samples: out,
                anchored: true,
                how: Some("timestamped step lines".into()),
                pauses: Vec::new(),
                from_owner: false,
            });
        }
        // Per-step durations, placed in time by summing them from the start.
        if self.durations.len() >= 2 {
            let base = owner_anchor.clone().or(self
                .duration_anchor
                .map(|t| (t, "the last timestamp before the first step".to_string())));
            let mut t = base.as_ref().map_or(0.0, |b| b.0);
            let mut prev: Option<u64> = None;
            let mut out = Vec::new();
            // The last few ordinary durations: the steps a sparse log does
            // not print are taken at their median.
            let mut recent: std::collections::VecDeque<f64> = std::collections::VecDeque::new();
            for (i, (step, d)) in self.durations.iter().enumerate() {
                let n = match prev {
                    Some(p) if *step > p => step - p,
                    // A repeated or earlier step: count it once.
                    Some(_) => 1,
                    None => 1,
                };
                prev = Some(*step);
                let hinted = self.after_pause_hint.get(i).copied().unwrap_or(false);
                let typical = hinted
                    .then(|| crate::calc::thermal::median_of(recent.iter().copied()))
                    .flatten();
                // A printed duration right after an evaluation or a save that
                // is far above the rest carries that pause: it counts once,
                // not once per unprinted step.
                if let Some(m) = typical.filter(|m| hinted && *d > 3.0 * m) {
                    t += (n - 1) as f64 * m + d;
                    pauses.push((t, d - m));
                    out.push(TrainSample {
                        t,
                        step: *step,
                        sec_per_step: m,
                    });
                    continue;
                }
                t += n as f64 * d;
                recent.push_back(*d);
                if recent.len() > 9 {
                    recent.pop_front();
                }
                out.push(TrainSample {
                    t,
                    step: *step,
                    sec_per_step: *d,
                });
            }
            // Durations that do not add up to the time the same log's
            // stamps span measure something else (ESPnet's `iter_time` is
            // the data loader's wait): the stamps are the clock then.
            let stamped_span = match (self.stamped.first(), self.stamped.last()) {
                (Some(a), Some(z)) if self.stamped.len() >= 2 => z.0 - a.0,
                _ => 0.0,
            };
            let summed_span = match (out.first(), out.last()) {
                (Some(a), Some(z)) => z.t - a.t,
                _ => 0.0,
            };
            let disagree = stamped_span > 0.0
                && !(stamped_span / 3.0..=stamped_span * 3.0).contains(&summed_span);
            if !disagree {
                candidates.push(Candidate {
                    points: out.len(),
                    samples: out,
                    anchored: base.is_some(),
                    how: base.map(|b| format!("per-step durations summed from {}", b.1)),
                    pauses: std::mem::take(&mut pauses),
                    from_owner: owner_anchor.is_some(),
                });
            }
        }
        // Elapsed time since training began (LLaMA-Factory, DLLogger).
        if self.elapsed_steps.len() >= 2 {
            let from_lines = self.elapsed_anchor.map(|t| {
                (
                    t,
                    "the log's own stamps less their elapsed time".to_string(),
                )
            });
            let base = owner_anchor.clone().or(from_lines).or(self.anchor.clone());
            let b = base.as_ref().map_or(0.0, |b| b.0);
            let mut out = Vec::new();
            for w in self.elapsed_steps.windows(2) {
                let (s0, e0) = w[0];
                let (s1, e1) = w[1];
                if s1 > s0 && e1 > e0 {
                    out.push(TrainSample {
                        t: b + e1,
                        step: s1,
                        sec_per_step: (e1 - e0) / (s1 - s0) as f64,
                    });
                }
            }
            candidates.push(Candidate {
                points: out.len(),
                samples: out,
                anchored: base.is_some(),
                how: base.map(|b| format!("elapsed time from {}", b.1)),
                pauses: Vec::new(),
                from_owner: owner_anchor.is_some(),
            });
        }
        // A timing placed in absolute time wins (it can be lined up with the
        // samples); among those, the richest.
        let Some(Candidate {
            mut samples,
            anchored,
            how,
            mut pauses,
            from_owner,
            ..
        }) = candidates
            .into_iter()
            .filter(|c| !c.samples.is_empty())
            .max_by_key(|c| (c.anchored, c.points))
        else {
            return Err(TrainLogError::NoTiming);
        };
        let base = anchor.as_ref().map_or(0.0, |a| a.0);
        let mut markers: Vec<Marker> = self
            .pending_markers
            .into_iter()
            .filter_map(|(t, absolute, kind)| match (absolute, anchored) {
                (true, true) => Some(Marker { t, kind }),
                (false, _) => Some(Marker { t: base + t, kind }),
                (true, false) => None,
            })
            .collect();
        // Stamps without a year or a date, next to the owner's start: the
        // start says which day they are on.
        let missing = match (self.yearless, self.dateless) {
            (_, true) => Some(MissingDate::Day),
            (true, false) => Some(MissingDate::Year),
            (false, false) => None,
        };
        let mut undated = missing.is_some() && anchored && !from_owner;
        if undated
            && let (Some(missing), Some(start), Some(first)) = (missing, start, samples.first())
            && let Some(shift) = date_near(first.t, start, missing)
        {
            samples.iter_mut().for_each(|s| s.t += shift);
            markers.iter_mut().for_each(|m| m.t += shift);
            pauses.iter_mut().for_each(|p| p.0 += shift);
            undated = false;
        }
        Ok(TrainLog {
            samples,
            anchored,
            anchor_source: if anchored { how } else { None },
            markers,
            lines_read: self.lines,
            utc_unshifted,
            owner_anchored: anchored && start.is_some(),
            pauses,
            yearless: undated && self.yearless,
            dateless: undated && self.dateless,
        })
    }
}

/// Bar updates whose time per step is taken from the elapsed field: the
/// time between updates at least 30 s apart over the steps between them
/// (the first 30 s give none).
fn paced_from_elapsed(samples: &[(f64, u64, f64)]) -> Vec<(f64, u64, f64)> {
    let mut out = Vec::with_capacity(samples.len());
    let mut from = 0;
    for &(t, step, _) in samples {
        while from + 1 < samples.len() && t - samples[from + 1].0 >= 30.0 {
            from += 1;
        }
        let (t0, s0, _) = samples[from];
        if t - t0 >= 30.0 && step > s0 {
            out.push((t, step, (t - t0) / (step - s0) as f64));
        }
    }
    out
}
