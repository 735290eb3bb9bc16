//! A terminal chart of temperature, power and step time on one shared time
//! axis: one row per series, one column per time bucket. Block characters
//! on a terminal, plain ASCII elsewhere (so a pasted report stays readable).

use crate::calc::thermal::Analysis;
use crate::readings::samples::ThermalSample;
use crate::readings::samples::TrainSample;
use std::fmt::Write;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Glyphs {
    Unicode,
    Ascii,
}

const UNICODE: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
const ASCII: [char; 8] = ['.', ',', ':', '-', '=', '+', '*', '#'];

/// "14:03" of a sample time (local wall clock, as the samples carry it).
pub fn clock(t: f64) -> String {
    jiff::Timestamp::from_second(t as i64)
        .map(|ts| ts.strftime("%H:%M").to_string())
        .unwrap_or_else(|_| "?".into())
}

/// A measured figure to three significant digits below 10 ("0.0518",
/// "2.76") and to one decimal above ("41.2", "100.8"): a step of 52 ms is
/// not "0.05", and a power reading keeps the decimal it was sampled with.
pub fn figure(v: f64) -> String {
    let a = v.abs();
    let decimals = if a == 0.0 {
        0
    } else if a >= 10.0 {
        1
    } else {
        (2 - a.log10().floor() as i32).clamp(0, 6) as usize
    };
    format!("{v:.decimals$}")
}

/// "2026-11-29 14:03:11".
pub fn datetime(t: f64) -> String {
    jiff::Timestamp::from_second(t as i64)
        .map(|ts| ts.strftime("%Y-%m-%d %H:%M:%S").to_string())
        .unwrap_or_else(|_| "?".into())
}

fn row(
    points: &[(f64, f64)],
    t0: f64,
    t1: f64,
    width: usize,
    glyphs: Glyphs,
) -> (String, Option<(f64, f64)>) {
    let mut sums = vec![0.0; width];
    let mut counts = vec![0u32; width];
    for &(t, v) in points {
        if t < t0 || t > t1 || !v.is_finite() {
            continue;
        }
        let col = (((t - t0) / (t1 - t0).max(1.0)) * (width - 1) as f64).round() as usize;
        sums[col.min(width - 1)] += v;
        counts[col.min(width - 1)] += 1;
    }
    let means: Vec<Option<f64>> = sums
        .iter()
        .zip(&counts)
        .map(|(s, &c)| (c > 0).then(|| s / c as f64))
        .collect();
    let present: Vec<f64> = means.iter().flatten().copied().collect();
    if present.is_empty() {
        return (" ".repeat(width), None);
    }
    let lo = present.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = present.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    // Noise of a few tenths should not fill the whole height: draw at least
    // a tenth of the value's size, and never below zero for a series that
    // has none (a step time of 52 ms drawn from -0.4 s is a wrong number).
    let min_span = if hi == 0.0 { 1.0 } else { hi.abs() * 0.1 };
    let (lo, hi) = if hi - lo < min_span {
        let mid = (hi + lo) / 2.0;
        let floor = if lo >= 0.0 { 0.0 } else { f64::NEG_INFINITY };
        let bottom = (mid - min_span / 2.0).max(floor);
        (bottom, bottom + min_span)
    } else {
        (lo, hi)
    };
    let set = match glyphs {
        Glyphs::Unicode => UNICODE,
        Glyphs::Ascii => ASCII,
    };
    let line = means
        .iter()
        .map(|m| match m {
            None => ' ',
            Some(v) => {
                let level = if hi > lo {
                    ((v - lo) / (hi - lo) * 7.0).round() as usize
                } else {
                    3
                };
                set[level.min(7)]
            }
        })
        .collect();
    (line, Some((lo, hi)))
}

/// Columns taken by a row's name, its range and the two frame bars.
const GUTTER: usize = 8 + 1 + 13 + 1 + 1 + 1;

/// The chart in `columns` terminal columns, frame and labels included.
pub fn chart(
    thermal: &[ThermalSample],
    train: &[TrainSample],
    analysis: &Analysis,
    columns: usize,
    glyphs: Glyphs,
) -> String {
    let width = columns.saturating_sub(GUTTER).max(20);
    let mut spans: Vec<(f64, f64)> = analysis.thermal_span.into_iter().collect();
    if !train.is_empty() && analysis.train_span.is_some() {
        spans.push((train[0].t, train[train.len() - 1].t));
    }
    let Some(t0) = spans.iter().map(|s| s.0).reduce(f64::min) else {
        return String::new();
    };
    let t1 = spans.iter().map(|s| s.1).fold(t0 + 1.0, f64::max);
    let series: [(&str, Vec<(f64, f64)>); 3] = [
        (
            "temp °C",
            thermal
                .iter()
                .filter_map(|s| s.temp_c.map(|v| (s.t, v as f64)))
                .collect(),
        ),
        (
            "power W",
            thermal
                .iter()
                .filter_map(|s| s.power_w.map(|v| (s.t, v as f64)))
                .collect(),
        ),
        (
            "s/step",
            train.iter().map(|s| (s.t, s.sec_per_step)).collect(),
        ),
    ];
    let bar = match glyphs {
        Glyphs::Unicode => '│',
        Glyphs::Ascii => '|',
    };
    let mut out = String::new();
    for (name, points) in &series {
        if points.is_empty() {
            continue;
        }
        let (line, range) = row(points, t0, t1, width, glyphs);
        let label = range.map_or(String::new(), |(lo, hi)| {
            format!("{}–{}", figure(lo), figure(hi))
        });
        let _ = writeln!(out, "{name:>8} {label:>13} {bar}{line}{bar}");
    }
    // Events and the slowdown onset on the same axis.
    let col = |t: f64| {
        ((((t - t0) / (t1 - t0).max(1.0)) * (width - 1) as f64).round() as usize).min(width - 1)
    };
    let mut marks: Vec<char> = vec![' '; width];
    for e in &analysis.events {
        for m in marks.iter_mut().take(col(e.end) + 1).skip(col(e.start)) {
            *m = match glyphs {
                Glyphs::Unicode => '▔',
                Glyphs::Ascii => '~',
            };
        }
    }
    if let Some(s) = &analysis.slowdown {
        marks[col(s.onset)] = match glyphs {
            Glyphs::Unicode => '▲',
            Glyphs::Ascii => '^',
        };
    }
    if marks.iter().any(|c| *c != ' ') {
        let _ = writeln!(
            out,
            "{:>8} {:>13} {bar}{}{bar}",
            "events",
            "",
            marks.iter().collect::<String>()
        );
    }
    let _ = writeln!(out, "{:>8} {:>13}  {}", "", "", axis(t0, t1, width));
    let legend = match glyphs {
        Glyphs::Unicode => "▔ thermal event   ▲ slowdown onset",
        Glyphs::Ascii => "~ thermal event   ^ slowdown onset",
    };
    let _ = write!(out, "{:>8} {:>13}  {legend}", "", "");
    out
}

/// The time labels under the plot: start, middle and end where there is
/// room for all three with a space between, else start and end, else the
/// start alone. Labels never run into each other.
fn axis(t0: f64, t1: f64, width: usize) -> String {
    let (left, mid, right) = (clock(t0), clock((t0 + t1) / 2.0), clock(t1));
    let need3 = left.len() + mid.len() + right.len() + 2;
    let need2 = left.len() + right.len() + 1;
    if width >= need3 {
        let gaps = width - (left.len() + mid.len() + right.len());
        let first = gaps / 2;
        format!(
            "{left}{}{mid}{}{right}",
            " ".repeat(first),
            " ".repeat(gaps - first)
        )
    } else if width >= need2 {
        format!(
            "{left}{}{right}",
            " ".repeat(width - left.len() - right.len())
        )
    } else {
        left
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_keep_three_significant_digits() {
        assert_eq!(figure(0.0518), "0.0518");
        assert_eq!(figure(2.763), "2.76");
        assert_eq!(figure(41.25), "41.2");
        assert_eq!(figure(100.8), "100.8");
        assert_eq!(figure(0.0), "0");
        assert_eq!(figure(7.0), "7.00");
    }

    #[test]
    fn a_small_flat_series_is_never_drawn_below_zero() {
        let points: Vec<(f64, f64)> = (0..20)
            .map(|i| (i as f64, 0.0518 + i as f64 * 1e-5))
            .collect();
        let (_, range) = row(&points, 0.0, 19.0, 20, Glyphs::Ascii);
        let (lo, hi) = range.unwrap();
        assert!((0.0..=0.0518).contains(&lo) && hi >= 0.0519, "{lo} {hi}");
        let zeros: Vec<(f64, f64)> = (0..5).map(|i| (i as f64, 0.0)).collect();
        let (line, _) = row(&zeros, 0.0, 4.0, 5, Glyphs::Ascii);
        assert_eq!(line.chars().count(), 5);
    }

    #[test]
    fn axis_labels_never_collide() {
        for width in [5, 10, 11, 12, 16, 17, 40, 120] {
            let a = axis(0.0, 7200.0, width);
            assert!(a.len() <= width.max(5), "{width}: {a:?}");
            let labels: Vec<&str> = a.split_whitespace().collect();
            assert!(labels.iter().all(|l| l.len() == 5), "{width}: {a:?}");
        }
        assert_eq!(axis(0.0, 7200.0, 17).split_whitespace().count(), 3);
    }
}
