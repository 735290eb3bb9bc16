//! Reads pasted `free` output (-g, -m, -k, -b or -h) into bytes.
//!
//! `free -g` prints whole GiB, rounded down; `-h` prints suffixed values
//! (`115Gi`, some locales with a decimal comma). Plain numbers carry no unit,
//! so the unit is inferred from the size of the total and said in the answer.

pub use crate::readings::memory::{FreeReading, FreeUnit};

use crate::calc::units::{GIB, KIB, MIB};

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FreeError {
    #[error("there is no `Mem:` line in what you pasted")]
    NoMemLine,
    #[error(
        "the `Mem:` line has {found} values; `free` prints 6 (total used free shared buff/cache available)"
    )]
    TooFewColumns { found: usize },
    #[error("`{cell}` in the `Mem:` line is not a memory size")]
    BadCell { cell: String },
    #[error("{0}")]
    Impossible(String),
}

impl FreeError {
    /// What to paste instead, for the owner.
    pub fn hint(&self) -> &'static str {
        "Run `free -g` on the Spark and paste all three lines it prints (the header, `Mem:` and `Swap:`)."
    }
}

/// True when the text looks like `free` output at all (a `Mem:` line).
pub fn looks_like_free(text: &str) -> bool {
    text.lines().any(|l| l.trim_start().starts_with("Mem:"))
}

/// A suffixed cell in bytes. `Gi` is always GiB; a bare `G` is GB when the
/// output is SI (`--si`), which is decided once for the whole output.
fn human_bytes(cell: &str, si: bool) -> Option<f64> {
    let cell = cell.trim();
    let split = cell
        .find(|c: char| c.is_ascii_alphabetic())
        .unwrap_or(cell.len());
    let (num, suffix) = cell.split_at(split);
    let value: f64 = num.replace(',', ".").parse().ok()?;
    let factor = match (suffix, si) {
        ("" | "B", _) => 1.0,
        ("K", true) => 1e3,
        ("M", true) => 1e6,
        ("G", true) => 1e9,
        ("T", true) => 1e12,
        ("Ki" | "K", _) => KIB,
        ("Mi" | "M", _) => MIB,
        ("Gi" | "G", _) => GIB,
        ("Ti" | "T", _) => GIB * 1024.0,
        _ => return None,
    };
    Some(value * factor)
}

fn unit_for_total(total: f64) -> FreeUnit {
    // A machine between a few GiB and a few TiB puts the total in a distinct
    // range for each flag.
    if total < 10_000.0 {
        FreeUnit::Gib
    } else if total < 10_000_000.0 {
        FreeUnit::Mib
    } else if total < 10_000_000_000.0 {
        FreeUnit::Kib
    } else {
        FreeUnit::Bytes
    }
}

fn scale(unit: FreeUnit) -> f64 {
    match unit {
        FreeUnit::Gib => GIB,
        FreeUnit::Mib => MIB,
        FreeUnit::Kib => KIB,
        FreeUnit::Bytes
        | FreeUnit::Human
        | FreeUnit::HumanSi
        | FreeUnit::Meminfo
        | FreeUnit::Said => 1.0,
    }
}

pub fn parse_free(text: &str) -> Result<FreeReading, FreeError> {
    let mem = text
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("Mem:"))
        .ok_or(FreeError::NoMemLine)?;
    let cells: Vec<&str> = mem["Mem:".len()..].split_whitespace().collect();
    if cells.len() < 6 {
        return Err(FreeError::TooFewColumns { found: cells.len() });
    }
    let human = cells
        .iter()
        .any(|c| c.chars().any(|ch| ch.is_ascii_alphabetic()));
    // procps-ng prints `Gi` for binary units and a bare `G` only under
    // `--si`; the output says which, whatever flag the owner remembers.
    let si = human
        && !cells.iter().any(|c| c.ends_with('i'))
        && cells.iter().any(|c| c.ends_with(['K', 'M', 'G', 'T']));
    let bytes = |cell: &str| -> Result<f64, FreeError> {
        let bad = || FreeError::BadCell {
            cell: cell.to_string(),
        };
        if human {
            human_bytes(cell, si).ok_or_else(bad)
        } else {
            cell.parse::<f64>().map_err(|_| bad())
        }
    };
    let raw: Vec<f64> = cells
        .iter()
        .take(6)
        .map(|c| bytes(c))
        .collect::<Result<_, _>>()?;
    if raw.iter().any(|v| !v.is_finite() || *v < 0.0) {
        return Err(FreeError::Impossible(
            "a value in the `Mem:` line is negative, which `free` never prints".into(),
        ));
    }
    if raw[5] > raw[0] || raw[1] > raw[0] || raw[2] > raw[0] {
        return Err(FreeError::Impossible(format!(
            "`available` {} (or `used`/`free`) is larger than `total` {}, which `free` never prints",
            cells[5], cells[0]
        )));
    }
    let unit = if si {
        FreeUnit::HumanSi
    } else if human {
        FreeUnit::Human
    } else {
        unit_for_total(raw[0])
    };
    let s = scale(unit);
    Ok(FreeReading {
        unit,
        available_text: cells[5].to_string(),
        available_bytes: raw[5] * s,
        total_bytes: Some(raw[0] * s),
        used_bytes: Some(raw[1] * s),
        free_bytes: Some(raw[2] * s),
        buff_cache_bytes: Some(raw[4] * s),
    })
}

/// `/proc/meminfo` as the same reading `free` gives: `free` computes its
/// `available` column from MemAvailable, so the budget is the same figure.
pub fn from_meminfo(m: &crate::extract::meminfo::MeminfoReading) -> FreeReading {
    let kib = |v: u64| v as f64 * KIB;
    FreeReading {
        unit: FreeUnit::Meminfo,
        available_text: format!("MemAvailable {} kB", m.available_kib),
        available_bytes: kib(m.available_kib),
        total_bytes: Some(kib(m.total_kib)),
        used_bytes: Some(kib(m.total_kib.saturating_sub(m.available_kib))),
        free_bytes: m.free_kib.map(kib),
        // Without MemFree the cache cannot be told from free memory.
        buff_cache_bytes: m.free_kib.and(m.page_cache_kib()).map(kib),
    }
}

crate::extract::reading::paste_reader!(
    /// The registry's reader for `free` output.
    FreeOutput,
    "`free` output",
    looks_like_free,
    parse_free => crate::extract::reading::Reading::Free
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn free_h_si_is_read_in_gb() {
        let text = "               total        used        free      shared  buff/cache   available\nMem:            127G         31G         52G        1.0G         45G         96G\nSwap:            16G          0B         16G\n";
        let r = parse_free(text).unwrap();
        assert_eq!(r.unit, FreeUnit::HumanSi);
        assert_eq!(r.available_bytes, 96e9);
        assert_eq!(r.total_bytes, Some(127e9));
    }

    const FREE_G: &str = "               total        used        free      shared  buff/cache   available\nMem:             119           4          80           0          35         115\nSwap:             15           0          15\n";

    #[test]
    fn free_g_is_read_in_gib() {
        let r = parse_free(FREE_G).unwrap();
        assert_eq!(r.unit, FreeUnit::Gib);
        assert_eq!(r.available_text, "115");
        assert_eq!(r.available_bytes, 115.0 * GIB);
    }

    #[test]
    fn real_free_h_capture_with_suffixes() {
        let text = include_str!("../../tests/fixtures/free-h-spark.txt");
        let r = parse_free(text).unwrap();
        assert_eq!(r.unit, FreeUnit::Human);
        assert_eq!(r.available_bytes, 115.0 * GIB);
        assert_eq!(r.buff_cache_bytes, Some(35.0 * GIB));
    }

    #[test]
    fn comma_decimal_locale() {
        let text = include_str!("../../tests/fixtures/free-h-spark-comma-locale.txt");
        let r = parse_free(text).unwrap();
        assert_eq!(r.available_bytes, 114.0 * GIB);
        assert_eq!(r.used_bytes, Some(4.9 * GIB));
    }

    #[test]
    fn free_b_in_bytes() {
        let text = include_str!("../../tests/fixtures/free-b-spark.txt");
        let r = parse_free(text).unwrap();
        assert_eq!(r.unit, FreeUnit::Bytes);
        assert_eq!(r.available_bytes, 124_065_050_624.0);
    }

    #[test]
    fn free_m_inferred_from_the_total() {
        let text = "Mem: 121704 4000 80000 0 35000 117000\n";
        let r = parse_free(text).unwrap();
        assert_eq!(r.unit, FreeUnit::Mib);
    }

    #[test]
    fn impossible_figures_are_refused() {
        assert!(matches!(
            parse_free("Mem: 119 4 80 0 35 200"),
            Err(FreeError::Impossible(_))
        ));
        assert!(matches!(
            parse_free("Mem: 119 4 80 0 35 -5"),
            Err(FreeError::Impossible(_)) | Err(FreeError::BadCell { .. })
        ));
    }

    #[test]
    fn bad_input_says_what_is_wrong() {
        assert_eq!(parse_free("hello"), Err(FreeError::NoMemLine));
        assert_eq!(
            parse_free("Mem: 119 4 80"),
            Err(FreeError::TooFewColumns { found: 3 })
        );
        assert!(matches!(
            parse_free("Mem: 119 4 80 0 35 lots"),
            Err(FreeError::BadCell { .. })
        ));
    }
}
