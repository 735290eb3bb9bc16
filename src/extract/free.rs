//! Reads pasted `free` output (-g, -m, -k, -b or -h) into bytes.
//!
//! `free -g` prints whole GiB, rounded down; `-h` prints suffixed values
//! (`115Gi`, some locales with a decimal comma). Plain numbers carry no unit,
//! so the unit is inferred from the size of the total and said in the answer.

pub use crate::readings::memory::{FreeReading, FreeUnit};

use crate::calc::units::{GIB, KIB, MIB};
use regex::Regex;
use std::sync::LazyLock;

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

/// 128 GiB, the most a DGX Spark's 128 GB of LPDDR5x can be, however
/// the GB is meant.
const SPARK_PHYSICAL_BYTES: f64 = 128.0 * GIB;

/// The unit the paste's own command line names (`$ free -m`), if any.
fn unit_from_command(text: &str) -> Option<FreeUnit> {
    static COMMAND: LazyLock<Regex> = LazyLock::new(|| {
        crate::extract::re(r"(?m)\bfree\s+(?:-[a-z]*\s+)*-[a-z]*?([bkmg])[a-z]*\b")
    });
    let c = COMMAND.captures(text)?;
    Some(match &c[1] {
        "b" => FreeUnit::Bytes,
        "k" => FreeUnit::Kib,
        "m" => FreeUnit::Mib,
        _ => FreeUnit::Gib,
    })
}

fn unit_for_total(total: f64) -> FreeUnit {
    // A Spark's `free -g` total is about 119 and no `-m` total of any
    // machine worth training on is that small; above it, each flag puts the
    // total in a distinct range.
    if total <= 128.0 {
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
        unit_from_command(text).unwrap_or_else(|| unit_for_total(raw[0]))
    };
    // procps before 3.3.10 prints `buffers` and `cached` where `available`
    // now is; what the kernel can give is the `-/+ buffers/cache:` line's
    // free figure (free + buffers + cached).
    let old_procps = text.contains("cached") && !text.contains("available");
    let (available, available_text, buff_cache) = if old_procps {
        let plus = text
            .lines()
            .map(str::trim)
            .find_map(|l| l.strip_prefix("-/+ buffers/cache:"))
            .and_then(|rest| rest.split_whitespace().nth(1))
            .and_then(|cell| bytes(cell).ok().map(|v| (v, cell.to_string())));
        let (v, t) = plus.unwrap_or_else(|| {
            let v = raw[2] + raw[4] + raw[5];
            (v, format!("{v} (free + buffers + cached)"))
        });
        (v, t, raw[4] + raw[5])
    } else {
        (raw[5], cells[5].to_string(), raw[4])
    };
    let s = scale(unit);
    // The kernel cannot count more memory than the box has: a DGX Spark has
    // 128 GB, so a larger total is another machine's output (or no output
    // at all: a figure past what 64 bits hold).
    if raw[0] * s > SPARK_PHYSICAL_BYTES {
        return Err(FreeError::Impossible(format!(
            "`total` {} is more than a DGX Spark's 128 GB of memory, so this is not the Spark's `free` output",
            cells[0]
        )));
    }
    Ok(FreeReading {
        unit,
        available_text,
        available_bytes: available * s,
        total_bytes: Some(raw[0] * s),
        used_bytes: Some(raw[1] * s),
        free_bytes: Some(raw[2] * s),
        buff_cache_bytes: Some(buff_cache * s),
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
    fn the_pastes_own_command_names_the_unit() {
        let text = "$ free -m\n              total        used        free      shared  buff/cache   available\nMem:             119           4          80           0          35         115\n";
        assert_eq!(parse_free(text).unwrap().unit, FreeUnit::Mib);
        let text = "free -g\nMem: 119 4 80 0 35 115\n";
        assert_eq!(parse_free(text).unwrap().unit, FreeUnit::Gib);
        // Without a command, a total over a Spark's 128 GiB is not `-g`.
        let r = parse_free("Mem: 7875 889 5903 388 1082 6357\n").unwrap();
        assert_eq!(r.unit, FreeUnit::Mib);
        assert_eq!(r.available_bytes, 6357.0 * MIB);
    }

    #[test]
    fn old_procps_available_is_the_buffers_cache_line() {
        let text = "$ free -m\n             total       used       free     shared    buffers     cached\nMem:          5962       5174        788          0         62       2370\n-/+ buffers/cache:       2740       3222\nSwap:        16383       3840      12543\n";
        let r = parse_free(text).unwrap();
        assert_eq!(r.available_text, "3222");
        assert_eq!(r.available_bytes, 3222.0 * MIB);
        assert_eq!(r.buff_cache_bytes, Some(2432.0 * MIB));
        // Without that line: free + buffers + cached.
        let r =
            parse_free(&text.replace("-/+ buffers/cache:       2740       3222\n", "")).unwrap();
        assert_eq!(r.available_bytes, 3220.0 * MIB);
    }

    #[test]
    fn a_total_larger_than_a_spark_is_refused() {
        let big = "99999999999999999999999";
        for text in [
            format!("Mem: {big} {big} {big} 0 {big} {big}"),
            "Mem: 251Gi 4.0Gi 80Gi 0B 35Gi 200Gi".to_string(),
            "free -g\nMem: 2063 4 80 0 35 1900".to_string(),
            "Mem: 137438953473 4 80 0 35 1900".to_string(),
        ] {
            let got = parse_free(&text);
            assert!(
                matches!(&got, Err(FreeError::Impossible(why)) if why.contains("more than a DGX Spark's 128 GB")),
                "{text}: {got:?}"
            );
        }
        // The Spark's own totals, in each unit, are read.
        for text in [
            "Mem: 119 4 80 0 35 115",
            "Mem: 119Gi 4.0Gi 80Gi 0B 35Gi 115Gi",
            "Mem: 128G 4.0G 80G 0B 35G 123G",
            "Mem: 137438953472 4 80 0 35 1900",
        ] {
            assert!(parse_free(text).is_ok(), "{text}");
        }
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
