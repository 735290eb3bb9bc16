//! `headroom procs`: the shared-pool check in one shot.

use crate::calc::pool::assess;
use crate::cli::plan::PlanError;
use crate::extract::ps::parse_ps;
use crate::knowledge::Knowledge;
use crate::render::procs::{procs_json, procs_markdown};
use crate::render::terminal::{Style, render};
use std::io::Read;
use std::path::Path;

pub fn run(file: Option<&Path>, need_gb: Option<f64>, json: bool) -> Result<String, PlanError> {
    let text = match file {
        Some(p) if p.as_os_str() != "-" => std::fs::read_to_string(p)
            .map_err(|e| PlanError(format!("cannot read {}: {e}", p.display())))?,
        _ => {
            let mut s = String::new();
            std::io::stdin()
                .read_to_string(&mut s)
                .map_err(|e| PlanError(format!("could not read stdin: {e}")))?;
            s
        }
    };
    let processes = parse_ps(&text).map_err(|e| PlanError(format!("{e}. {}", e.hint())))?;
    let report = assess(&processes, need_gb.map(|g| g * 1e9), Knowledge::embedded());
    Ok(if json {
        serde_json::to_string_pretty(&procs_json(&report)).expect("procs JSON serializes")
    } else {
        render(&procs_markdown(&report, "--need"), Style::detect())
    })
}
