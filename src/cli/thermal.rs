//! `headroom thermal` and `headroom sampler`: the slowdown check in one
//! shot, and the sampling script with how to start and stop it.

use crate::calc::thermal::analyze;
use crate::cli::plan::PlanError;
use crate::extract::thermal_csv::{parse_time, read_thermal};
use crate::extract::train_log::{TrainLog, read_train_log_with};
use crate::input::{Limited, THERMAL_CSV, TRAIN_LOG};
use crate::knowledge::Knowledge;
use crate::render::chart::{Glyphs, chart};
use crate::render::svg_chart::{png, svg};
use crate::render::terminal::sanitize;
use crate::render::terminal::{Style, render};
use crate::render::thermal_md::{thermal_json, thermal_markdown};
use std::io::Read;
use std::io::{BufReader, IsTerminal};
use std::path::Path;

pub const SAMPLER: &str = include_str!("../../assets/thermal-sample.sh");

/// The script and how to run it; headroom never runs it.
/// How to save, start and stop the sampler, for stderr beside the script.
pub fn sampler_usage() -> &'static str {
    "headroom sampler: the thermal sampler script is on stdout. Save and start it next to your run:\n  headroom sampler > sample.sh && bash sample.sh 30 thermal.log\nIt prints its PID and appends one row every 30 seconds; stop it with `kill PID` when the run ends, then give headroom thermal.log and the training log."
}

pub fn sampler_text() -> String {
    format!(
        "The sampler (assets/thermal-sample.sh in headroom's repository). Save it on the Spark, then start it next to your run:\n\n```\nbash assets/thermal-sample.sh 30 thermal.log\n```\n\nIt prints the sampler's PID and appends one row every 30 seconds. Stop it with `kill PID` when the run ends, then give me `thermal.log` and the training log.\n\n```bash\n{SAMPLER}```"
    )
}

pub struct ThermalArgs<'a> {
    pub thermal: &'a Path,
    pub train_log: Option<&'a Path>,
    pub start: Option<&'a str>,
    pub log_tz: Option<f64>,
    pub tokens_per_step: Option<u64>,
    pub json: bool,
    pub svg: Option<&'a Path>,
    pub png: Option<&'a Path>,
}

fn open(path: &Path, flag: &str, limit: u64) -> Result<Limited<Box<dyn Read + Send>>, PlanError> {
    crate::input::open_or_stdin(path, limit).map_err(|e| {
        PlanError(format!(
            "{flag}{}: {e}",
            sanitize(&path.display().to_string())
        ))
    })
}

/// Write the charts asked for; the text verdict does not depend on them.
fn write_charts(
    args: &ThermalArgs<'_>,
    thermal: &[crate::readings::samples::ThermalSample],
    train: &[crate::readings::samples::TrainSample],
    analysis: &crate::calc::thermal::Analysis,
) -> Result<(), String> {
    let title = format!(
        "headroom thermal check: {} (shaded: thermal event; black line: slowdown onset)",
        analysis.verdict.label()
    );
    let doc = svg(thermal, train, analysis, &title)?;
    if let Some(p) = args.svg {
        crate::input::write_file(p, doc.as_bytes())
            .map_err(|e| format!("--svg {}: {e}", sanitize(&p.display().to_string())))?;
    }
    if let Some(p) = args.png {
        let bytes = png(&doc)?;
        crate::input::write_file(p, &bytes)
            .map_err(|e| format!("--png {}: {e}", sanitize(&p.display().to_string())))?;
    }
    Ok(())
}

/// The verdict's text, and the chart's error when a chart was asked for and
/// could not be written (the verdict is printed either way).
pub fn run(args: &ThermalArgs<'_>) -> Result<(String, Option<String>), PlanError> {
    let k = Knowledge::embedded();
    let start = match args.start {
        None => None,
        Some(s) => Some(parse_time(s).ok_or_else(|| {
            PlanError(format!(
                "--start {s:?}: expected a local time like \"2026-11-29 10:00:00\""
            ))
        })?),
    };
    if args.thermal.as_os_str() == "-" && args.train_log.is_some_and(|p| p.as_os_str() == "-") {
        return Err(PlanError(
            "the samples and --train-log cannot both be `-` (stdin): give one of them as a file"
                .into(),
        ));
    }
    let read_samples = || {
        read_thermal(BufReader::new(open(args.thermal, "", THERMAL_CSV)?)).map_err(|e| {
            PlanError(format!(
                "{}: {e}. {}",
                sanitize(&args.thermal.display().to_string()),
                e.hint()
            ))
        })
    };
    let read_log = |p: &Path| {
        read_train_log_with(
            open(p, "--train-log ", TRAIN_LOG)?,
            start,
            args.log_tz,
            args.tokens_per_step.map(|t| t as f64),
        )
        .map_err(|e| {
            PlanError(format!(
                "--train-log {}: {e}. {}",
                sanitize(&p.display().to_string()),
                e.hint()
            ))
        })
    };
    // The two files are independent: read them side by side (the samples'
    // CSV took half the time of a 160 MB log read after it).
    let (thermal, train) = match args.train_log {
        None => (read_samples()?, None),
        Some(p) => std::thread::scope(|scope| {
            // A thread of this process, not a process: nothing is run.
            let samples = std::thread::Builder::new()
                .name("thermal-samples".into())
                .spawn_scoped(scope, read_samples);
            let log = read_log(p);
            let samples = match samples {
                Ok(handle) => handle
                    .join()
                    .unwrap_or_else(|_| Err(PlanError("reading the samples failed".into()))),
                // No thread to be had: read them here.
                Err(_) => read_samples(),
            };
            Ok::<_, PlanError>((samples?, Some(log?)))
        })?,
    };
    // A log whose clock is whole (or quarter) hours off the samples' is
    // lined up on the load ramp, and said; `--log-tz` overrides.
    let (train, shift): (Option<TrainLog>, _) = match train {
        Some(log) if args.log_tz.is_none() => {
            let (log, shift) = crate::calc::thermal::line_up::lined_up(&thermal, log);
            (Some(log), shift)
        }
        train => (
            train.map(|l| crate::calc::thermal::line_up::dated(&thermal, l)),
            None,
        ),
    };
    let analysis = analyze(&thermal, train.as_ref(), k);
    let train_samples = train.as_ref().map_or(&[][..], |t| &t.samples[..]);
    let chart_error = if args.svg.is_some() || args.png.is_some() {
        write_charts(args, &thermal, train_samples, &analysis).err()
    } else {
        None
    };
    if args.json {
        let mut json = thermal_json(&analysis);
        json["log_shift_s"] = shift.as_ref().map(|s| s.seconds).into();
        return Ok((
            serde_json::to_string_pretty(&json).expect("thermal JSON serializes"),
            chart_error,
        ));
    }
    let style = Style::detect();
    let glyphs = if style == Style::Rich && std::io::stdout().is_terminal() {
        Glyphs::Unicode
    } else {
        Glyphs::Ascii
    };
    let mut md = thermal_markdown(&analysis, k);
    if let Some(s) = &shift {
        md = format!("{}\n\n{md}", s.why);
    }
    if let Some(hint) = train
        .as_ref()
        .and_then(|t| crate::calc::thermal::hour_shift_hint(t, &analysis))
    {
        md = format!("{hint}\n\n{md}");
    }
    if analysis.thermal_span.is_some() && analysis.insufficient.is_empty() {
        md.push_str(&format!(
            "\n```\n{}\n```\n",
            chart(
                &thermal,
                train_samples,
                &analysis,
                crate::render::terminal::width(style)
                    .unwrap_or(80)
                    .clamp(48, 160),
                glyphs
            )
        ));
    }
    Ok((render(&md, style), chart_error))
}
