//! `headroom procs`: the shared-pool check in one shot.

use crate::calc::pool::assess;
use crate::cli::plan::PlanError;
use crate::extract::ps::parse_ps;
use crate::knowledge::Knowledge;
use crate::render::procs::{procs_json, procs_markdown};
use crate::render::terminal::{Style, render};
use std::path::Path;

pub fn run(file: Option<&Path>, need_gb: Option<f64>, json: bool) -> Result<String, PlanError> {
    if let Some(need) = need_gb
        && !(need.is_finite() && (0.0..=1e6).contains(&need))
    {
        return Err(PlanError(format!(
            "--need {need}: give the GB your run needs as a number from 0 up (the `total_gb` of `headroom plan --json`)"
        )));
    }
    let path = file.unwrap_or(Path::new("-"));
    let text = crate::input::read_text(path, crate::input::PROCESS_LISTING).map_err(|e| {
        PlanError(format!(
            "{}: {e}",
            crate::render::terminal::sanitize(&path.display().to_string())
        ))
    })?;
    let processes = parse_ps(&text).map_err(|e| PlanError(format!("{e}. {}", e.hint())))?;
    let report = crate::calc::pool::PoolReport {
        damaged_pids: crate::extract::ps::damaged_pids(&text),
        ..assess(&processes, need_gb.map(|g| g * 1e9), Knowledge::embedded())
    };
    Ok(if json {
        serde_json::to_string_pretty(&procs_json(&report)).expect("procs JSON serializes")
    } else {
        render(&procs_markdown(&report, "--need"), Style::detect())
    })
}
