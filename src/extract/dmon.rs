//! `nvidia-smi dmon` rows as thermal samples: whitespace columns under a
//! `# gpu pwr gtemp …` header (`-s p` for power and temperature, `-s c` for
//! clocks), placed in time by the `-o DT` Date and Time columns. Rows
//! without them cannot be lined up with a training log, and say so.

use crate::extract::thermal_csv::{number, plausible};
use crate::readings::samples::ThermalSample;

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum DmonColumn {
    Date,
    Time,
    Power,
    Temp,
    SmUtil,
    SmClock,
    Other,
}

/// The columns of a dmon header line ("# gpu pwr gtemp …", "#Date Time gpu …").
pub fn dmon_header(line: &str) -> Option<Vec<DmonColumn>> {
    let body = line.strip_prefix('#')?;
    let words: Vec<&str> = body.split_whitespace().collect();
    if !words.contains(&"gpu") {
        return None;
    }
    Some(
        words
            .iter()
            .map(|w| match *w {
                "Date" => DmonColumn::Date,
                "Time" => DmonColumn::Time,
                "pwr" => DmonColumn::Power,
                "gtemp" => DmonColumn::Temp,
                "sm" => DmonColumn::SmUtil,
                "pclk" => DmonColumn::SmClock,
                _ => DmonColumn::Other,
            })
            .collect(),
    )
}

/// Whether the header carries what a thermal check needs.
pub fn has_power_or_temperature(columns: &[DmonColumn]) -> bool {
    columns
        .iter()
        .any(|c| matches!(c, DmonColumn::Power | DmonColumn::Temp))
}

pub enum DmonRow {
    Sample(ThermalSample),
    /// A data row, but the header has no Date and Time columns.
    NoTime,
    Skip,
}

/// One dmon row under `columns`.
pub fn dmon_row(line: &str, columns: &[DmonColumn]) -> DmonRow {
    let cells: Vec<&str> = line.split_whitespace().collect();
    if cells.len() < 2 || number(cells[cells.len() - 1]).is_none() && cells[cells.len() - 1] != "-"
    {
        return DmonRow::Skip;
    }
    let (mut date, mut time) = (None, None);
    let mut s = ThermalSample::untimed();
    for (column, cell) in columns.iter().zip(cells.iter()) {
        match column {
            DmonColumn::Date => date = Some(*cell),
            DmonColumn::Time => time = Some(*cell),
            DmonColumn::Power => s.power_w = plausible(number(cell), 0.0, 2000.0),
            DmonColumn::Temp => s.temp_c = plausible(number(cell), -40.0, 130.0),
            DmonColumn::SmUtil => s.util_pct = plausible(number(cell), 0.0, 100.0),
            DmonColumn::SmClock => s.sm_clock_mhz = plausible(number(cell), 0.0, 10_000.0),
            DmonColumn::Other => {}
        }
    }
    let (Some(d), Some(t)) = (date, time) else {
        return DmonRow::NoTime;
    };
    // YYYYMMDD and HH:MM:SS, local time like the rest of nvidia-smi.
    if d.len() != 8 {
        return DmonRow::Skip;
    }
    let stamp = format!("{}-{}-{} {t}", &d[..4], &d[4..6], &d[6..]);
    match crate::extract::thermal_csv::parse_time(&stamp) {
        Some(seconds) => {
            s.t = seconds;
            DmonRow::Sample(s)
        }
        None => DmonRow::Skip,
    }
}

/// Why dmon rows without a date and time cannot be used.
pub const NO_TIME: &str = "`nvidia-smi dmon` rows carry no date or time unless it runs with `-o DT`, so they cannot be lined up with the training log";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dated_power_and_temperature_row() {
        let cols = dmon_header(
            "#Date       Time        gpu    pwr  gtemp  mtemp     sm    mem   mclk   pclk",
        )
        .unwrap();
        let DmonRow::Sample(s) = dmon_row(
            " 20261128   09:02:30      0     98     71      -     99     40      -   2405",
            &cols,
        ) else {
            panic!("not a sample");
        };
        assert_eq!(
            (s.power_w, s.temp_c, s.util_pct, s.sm_clock_mhz),
            (Some(98.0), Some(71.0), Some(99.0), Some(2405.0))
        );
        assert_eq!(
            s.t,
            crate::extract::thermal_csv::parse_time("2026-11-28 09:02:30").unwrap()
        );
    }

    #[test]
    fn gb10_rows_without_a_date() {
        let cols = dmon_header(
            "# gpu    pwr  gtemp  mtemp     sm    mem    enc    dec    jpg    ofa   mclk   pclk",
        )
        .unwrap();
        assert!(has_power_or_temperature(&cols));
        assert!(matches!(
            dmon_row(
                "    0      3     38      -      0      0      0      0      0      0      -    208",
                &cols
            ),
            DmonRow::NoTime
        ));
        // The units line is not a header.
        assert!(dmon_header("# Idx      W      C      C      %").is_none());
    }
}
