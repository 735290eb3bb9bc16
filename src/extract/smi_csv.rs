//! `nvidia-smi --query-gpu=… --format=csv` taken once, without a timestamp
//! column: one snapshot per GPU. On GB10 its memory fields print `[N/A]`
//! (the GPU has no framebuffer of its own), so it is read and explained,
//! never taken as a budget. A CSV with a timestamp is thermal samples.

use crate::extract::re;
use regex::Regex;
use std::sync::LazyLock;

/// One field of one GPU's row: the query name, its unit from the header
/// (`MiB`, `W`, `%`), and the value as printed.
#[derive(Debug, Clone, PartialEq)]
pub struct SmiField {
    pub name: String,
    pub unit: Option<String>,
    pub value: String,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct SmiCsv {
    /// Each GPU's row, its fields in the header's order.
    pub rows: Vec<Vec<SmiField>>,
}

impl SmiField {
    /// `[N/A]` or `Not Supported`: nothing to read.
    pub fn missing(&self) -> bool {
        let v = self.value.trim();
        v.eq_ignore_ascii_case("[N/A]")
            || v.eq_ignore_ascii_case("N/A")
            || v.eq_ignore_ascii_case("[Not Supported]")
            || v.eq_ignore_ascii_case("Not Supported")
    }
}

/// A query field name: `index`, `name`, `memory.total`, `power.draw`,
/// `clocks_event_reasons.active`…, with an optional ` [unit]`.
static FIELD: LazyLock<Regex> =
    LazyLock::new(|| re(r"^\s*([a-z][a-z_]*(?:\.[a-z_]+)*)\s*(?:\[([^\]]+)\])?\s*$"));
/// The command with its field list, for `noheader` output.
static COMMAND: LazyLock<Regex> = LazyLock::new(|| re(r"--query-gpu[= ]([A-Za-z0-9_.,]+)"));

/// The header's fields, when the line is one: at least two, one of them a
/// dotted query name, and no timestamp (thermal samples have one).
fn header(line: &str) -> Option<Vec<Named>> {
    let fields: Vec<Named> = line
        .split(',')
        .map(|f| {
            FIELD
                .captures(f)
                .map(|c| (c[1].to_string(), c.get(2).map(|u| u.as_str().to_string())))
        })
        .collect::<Option<_>>()?;
    (fields.len() >= 2
        && fields.iter().any(|(n, _)| n.contains('.'))
        && !fields.iter().any(|(n, _)| n == "timestamp"))
    .then_some(fields)
}

/// A field's name and the unit its header gave.
type Named = (String, Option<String>);

/// The field names and the data lines under them.
fn table(text: &str) -> Option<(Vec<Named>, Vec<&str>)> {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    for (i, line) in lines.iter().enumerate() {
        if let Some(fields) = header(line) {
            return Some((fields, lines[i + 1..].to_vec()));
        }
        // `--format=csv,noheader`: the names are the command's.
        if line.contains("noheader")
            && let Some(c) = COMMAND.captures(line)
        {
            let fields: Vec<Named> = c[1].split(',').map(|n| (n.to_string(), None)).collect();
            if fields.iter().all(|(n, _)| n != "timestamp") {
                return Some((fields, lines[i + 1..].to_vec()));
            }
        }
    }
    None
}

pub fn looks_like_smi_csv(text: &str) -> bool {
    table(text).is_some_and(|(fields, rows)| {
        rows.first()
            .is_some_and(|r| r.split(',').count() == fields.len())
    })
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SmiCsvError {
    #[error("it has the query's column names but no row of that width under them")]
    NoRows,
}

impl SmiCsvError {
    pub fn hint(&self) -> &'static str {
        "Paste everything `nvidia-smi --query-gpu=… --format=csv` prints, its header and a row per GPU."
    }
}

pub fn parse_smi_csv(text: &str) -> Result<SmiCsv, SmiCsvError> {
    let (fields, lines) = table(text).ok_or(SmiCsvError::NoRows)?;
    let rows: Vec<Vec<SmiField>> = lines
        .iter()
        .take_while(|l| l.split(',').count() == fields.len())
        .map(|l| {
            fields
                .iter()
                .zip(l.split(','))
                .map(|((name, unit), value)| SmiField {
                    name: name.clone(),
                    unit: unit.clone(),
                    value: value.trim().to_string(),
                })
                .collect()
        })
        .collect();
    if rows.is_empty() {
        return Err(SmiCsvError::NoRows);
    }
    Ok(SmiCsv { rows })
}

crate::extract::reading::paste_reader!(
    /// A one-off `nvidia-smi --query-gpu` CSV.
    SmiCsvPaste,
    "`nvidia-smi --query-gpu` CSV",
    looks_like_smi_csv,
    parse_smi_csv => crate::extract::reading::Reading::SmiCsv
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gb10_memory_fields_are_missing_and_the_rest_read() {
        let q = parse_smi_csv(
            "$ nvidia-smi --query-gpu=memory.total,memory.used,memory.free,utilization.gpu,power.draw,temperature.gpu --format=csv\n\
             memory.total [MiB], memory.used [MiB], memory.free [MiB], utilization.gpu [%], power.draw [W], temperature.gpu\n\
             [N/A], [N/A], [N/A], 0 %, 11.17 W, 35\n",
        )
        .unwrap();
        let row = &q.rows[0];
        assert_eq!(row.len(), 6);
        assert!(row[..3].iter().all(SmiField::missing));
        assert_eq!(
            (row[4].name.as_str(), row[4].value.as_str()),
            ("power.draw", "11.17 W")
        );
        assert_eq!(row[0].unit.as_deref(), Some("MiB"));
        assert_eq!(row[5].unit, None);
    }

    #[test]
    fn noheader_rows_take_the_command_s_names() {
        let q = parse_smi_csv(
            "nvidia-smi --query-gpu=index,name,memory.free --format=csv,noheader\n0, NVIDIA GB10, [N/A]\n",
        )
        .unwrap();
        assert_eq!(q.rows[0][1].value, "NVIDIA GB10");
        assert!(q.rows[0][2].missing());
    }

    #[test]
    fn thermal_samples_and_prose_are_not_a_snapshot() {
        assert!(!looks_like_smi_csv(
            "timestamp, temperature.gpu, power.draw [W]\n2026/11/29 09:00:00.000, 61, 88.1 W\n"
        ));
        assert!(!looks_like_smi_csv("index, name\n"));
        assert!(!looks_like_smi_csv("batch 2, pack 4096\nok"));
        assert!(!looks_like_smi_csv(
            "memory.total [MiB], memory.free [MiB]\nthen it died"
        ));
    }
}
