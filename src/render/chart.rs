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
    // a tenth of the value's size.
    let min_span = (hi.abs() * 0.1).max(1.0);
    let (lo, hi) = if hi - lo < min_span {
        let mid = (hi + lo) / 2.0;
        (mid - min_span / 2.0, mid + min_span / 2.0)
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
        let label = range.map_or(String::new(), |(lo, hi)| format!("{lo:.1}–{hi:.1}"));
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
