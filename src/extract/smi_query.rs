//! Reads `nvidia-smi -q` (`-d PERFORMANCE`, `-d TEMPERATURE`): the clock
//! event (throttle) reasons active at that moment, their cumulative
//! counters since the driver loaded, and the temperature lines. One
//! snapshot: it says what limits the clocks now and in total, not when.

use crate::extract::re;
use regex::Regex;
use std::sync::LazyLock;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct SmiQuery {
    /// The "Timestamp" line, verbatim.
    pub timestamp: Option<String>,
    /// Each reason and whether it was active.
    pub reasons: Vec<(String, bool)>,
    /// Each counter and its microseconds.
    pub counters_us: Vec<(String, u64)>,
    /// "GPU Current Temp" and the other temperature lines, verbatim.
    pub temperatures: Vec<(String, String)>,
}

static KEY_VALUE: LazyLock<Regex> =
    LazyLock::new(|| re(r"^\s*([A-Za-z][\w .()/-]*?)\s+:\s+(.*?)\s*(?:#.*)?$"));
static MICROS: LazyLock<Regex> = LazyLock::new(|| re(r"^(\d+) us$"));

/// True for `nvidia-smi -q` output with reasons or temperatures.
pub fn looks_like_smi_query(text: &str) -> bool {
    text.contains("Clocks Event Reasons")
        || text.contains("Clocks Throttle Reasons")
        || text.contains("GPU Current Temp")
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SmiQueryError {
    #[error("it names the sections but has no `Name : value` lines under them")]
    Empty,
}

impl SmiQueryError {
    pub fn hint(&self) -> &'static str {
        "Paste everything `nvidia-smi -q -d PERFORMANCE` (or `-d TEMPERATURE`) prints."
    }
}

#[derive(PartialEq)]
enum Section {
    None,
    Reasons,
    Counters,
    Temperature,
}

pub fn parse_smi_query(text: &str) -> Result<SmiQuery, SmiQueryError> {
    let mut q = SmiQuery::default();
    let mut section = Section::None;
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with("Clocks Event Reasons Counters")
            || t.starts_with("Clocks Throttle Reasons Counters")
        {
            section = Section::Counters;
            continue;
        }
        if t == "Clocks Event Reasons" || t == "Clocks Throttle Reasons" {
            section = Section::Reasons;
            continue;
        }
        if t == "Temperature" {
            section = Section::Temperature;
            continue;
        }
        let Some(c) = KEY_VALUE.captures(line) else {
            continue;
        };
        let (key, value) = (c[1].trim().to_string(), c[2].trim().to_string());
        if key == "Timestamp" {
            q.timestamp = Some(value);
            continue;
        }
        // A key at the GPU's own indent ("Sparse Operation Mode") ends a section.
        let indent = line.len() - line.trim_start().len();
        if indent <= 4 && section != Section::Temperature {
            section = Section::None;
        }
        match section {
            Section::Reasons => match value.as_str() {
                "Active" => q.reasons.push((key, true)),
                "Not Active" => q.reasons.push((key, false)),
                _ => {}
            },
            Section::Counters => {
                if let Some(n) = MICROS.captures(&value).and_then(|m| m[1].parse().ok()) {
                    q.counters_us.push((key, n));
                }
            }
            Section::Temperature | Section::None if key.contains("Temp") => {
                q.temperatures.push((key, value));
            }
            _ => {}
        }
    }
    if q.reasons.is_empty() && q.counters_us.is_empty() && q.temperatures.is_empty() {
        return Err(SmiQueryError::Empty);
    }
    Ok(q)
}

crate::extract::reading::paste_reader!(
    /// `nvidia-smi -q` sections.
    SmiQueryPaste,
    "`nvidia-smi -q` output",
    looks_like_smi_query,
    parse_smi_query => crate::extract::reading::Reading::SmiQuery
);

#[cfg(test)]
mod tests {
    use super::*;

    use crate::extract::shared_fixture as fixture;

    #[test]
    fn the_performance_section_on_gb10() {
        let q = parse_smi_query(&fixture("nvidia-smi-q-performance-gb10.txt")).unwrap();
        assert_eq!(q.timestamp.as_deref(), Some("Mon Nov 24 19:48:06 2025"));
        assert!(q.reasons.iter().all(|(_, active)| !active));
        assert!(q.reasons.iter().any(|(k, _)| k == "SW Thermal Slowdown"));
        assert_eq!(
            q.counters_us.first(),
            Some(&("SW Power Capping".to_string(), 50_284_264_713))
        );
        assert!(
            q.counters_us
                .contains(&("HW Thermal Slowdown".to_string(), 0))
        );
    }

    #[test]
    fn the_temperature_section_on_gb10() {
        let q = parse_smi_query(&fixture("nvidia-smi-q-temperature-gb10.txt")).unwrap();
        assert_eq!(
            q.temperatures.first(),
            Some(&("GPU Current Temp".to_string(), "38 C".to_string()))
        );
    }
}
