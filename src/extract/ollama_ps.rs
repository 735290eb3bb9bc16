//! Reads pasted `ollama ps` output into the models Ollama holds in memory.
//!
//! Ollama prints sizes in decimal units (GB = 1e9 bytes). Versions before
//! the CONTEXT column print five columns; the header says which form it is.

use crate::extract::re;
use regex::Regex;
use serde::Serialize;
use std::sync::LazyLock;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OllamaModel {
    pub name: String,
    pub id: String,
    /// The SIZE cell as printed ("51 GB").
    pub size_text: String,
    pub size_bytes: u64,
    /// "100% GPU", "48%/52% CPU/GPU", "100% CPU".
    pub processor: String,
    pub context: Option<u64>,
    /// "Forever", "4 minutes from now", "Stopping...".
    pub until: String,
}

impl OllamaModel {
    /// Held until unloaded by hand (`keep_alive: -1`), not freed when idle.
    pub fn held_forever(&self) -> bool {
        self.until == "Forever"
    }
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum OllamaPsError {
    #[error("there is no `NAME  ID  SIZE  PROCESSOR  UNTIL` header in what you pasted")]
    NoHeader,
    #[error("`{line}` is not a row of `ollama ps`")]
    BadRow { line: String },
}

impl OllamaPsError {
    /// What to paste instead, for the owner.
    pub fn hint(&self) -> &'static str {
        "Run `ollama ps` on the Spark and paste everything it prints, header included (a header alone means no model is loaded)."
    }
}

/// NAME ID SIZE PROCESSOR [CONTEXT] UNTIL; the name has no spaces, the
/// UNTIL text does ("4 minutes from now").
const ROW_HEAD: &str =
    r"^(\S+)\s+([0-9a-f]{6,})\s+(\d+(?:\.\d+)?\s*(?:[KMGT]i?)?B)\s+(\d+%(?:/\d+%)?\s+[A-Z/]+)\s+";
static ROW_WITH_CONTEXT: LazyLock<Regex> =
    LazyLock::new(|| re(&format!(r"{ROW_HEAD}(\d+)\s+(\S.*?)\s*$")));
static ROW_NO_CONTEXT: LazyLock<Regex> = LazyLock::new(|| re(&format!(r"{ROW_HEAD}(\S.*?)\s*$")));
/// A shell prompt pasted along with the table (`me@spark:~$ ...`).
static PROMPT: LazyLock<Regex> = LazyLock::new(|| re(r"^\S+@\S+:.*[$#]"));

fn header_words(line: &str) -> Option<bool> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let all = ["NAME", "ID", "SIZE", "PROCESSOR", "UNTIL"]
        .iter()
        .all(|w| words.contains(w));
    all.then(|| words.contains(&"CONTEXT"))
}

/// True when the text has an `ollama ps` header line.
pub fn looks_like_ollama_ps(text: &str) -> bool {
    text.lines().any(|l| header_words(l).is_some())
}

fn size_bytes(cell: &str) -> Option<u64> {
    let split = cell.find(|c: char| c.is_ascii_alphabetic())?;
    let value: f64 = cell[..split].trim().parse().ok()?;
    let factor = match cell[split..].trim() {
        "B" => 1.0,
        "KB" => 1e3,
        "MB" => 1e6,
        "GB" => 1e9,
        "TB" => 1e12,
        "KiB" => 1024.0,
        "MiB" => 1_048_576.0,
        "GiB" => 1_073_741_824.0,
        "TiB" => 1_099_511_627_776.0,
        _ => return None,
    };
    // `as` saturates, so an absurd size cannot panic.
    Some((value * factor).round() as u64)
}

pub fn parse_ollama_ps(text: &str) -> Result<Vec<OllamaModel>, OllamaPsError> {
    let mut lines = text.lines().map(str::trim);
    let has_context = lines
        .by_ref()
        .find_map(header_words)
        .ok_or(OllamaPsError::NoHeader)?;
    let row = if has_context {
        &ROW_WITH_CONTEXT
    } else {
        &ROW_NO_CONTEXT
    };
    let mut out = Vec::new();
    for line in lines.filter(|l| !l.is_empty() && !PROMPT.is_match(l)) {
        let bad = || OllamaPsError::BadRow {
            line: line.to_string(),
        };
        let c = row.captures(line).ok_or_else(bad)?;
        let cell = |i: usize| c.get(i).map_or("", |m| m.as_str()).to_string();
        let size_text = cell(3);
        let size_bytes = size_bytes(&size_text).ok_or_else(bad)?;
        let (context, until) = if has_context {
            (Some(cell(5).parse::<u64>().map_err(|_| bad())?), cell(6))
        } else {
            (None, cell(5))
        };
        out.push(OllamaModel {
            name: cell(1),
            id: cell(2),
            size_text,
            size_bytes,
            processor: cell(4),
            context,
            until,
        });
    }
    Ok(out)
}

crate::extract::reading::paste_reader!(
    /// The registry's reader for `ollama ps` output.
    OllamaPsPaste,
    "`ollama ps` output",
    looks_like_ollama_ps,
    parse_ollama_ps => crate::extract::reading::Reading::OllamaPs
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn real_capture_with_context_column() {
        let text = include_str!("../../tests/fixtures/ollama-ps.txt");
        assert!(looks_like_ollama_ps(text));
        let m = parse_ollama_ps(text).unwrap();
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].name, "gemma3:latest");
        assert_eq!(m[0].id, "a2af6cc3eb7f");
        assert_eq!(m[0].size_text, "6.6 GB");
        assert_eq!(m[0].size_bytes, 6_600_000_000);
        assert_eq!(m[0].processor, "100% GPU");
        assert_eq!(m[0].context, Some(65536));
        assert_eq!(m[0].until, "2 minutes from now");
        assert!(!m[0].held_forever());
    }

    #[test]
    fn two_rows_split_processor_and_megabytes() {
        let text = "NAME             ID              SIZE      PROCESSOR          CONTEXT    UNTIL\n\
qwen2.5:72b      424bad2cc13f    51 GB     100% GPU           32768      Forever\n\
nomic-embed:v1   0a109f422b47    890 MB    48%/52% CPU/GPU    8192       4 minutes from now\n";
        let m = parse_ollama_ps(text).unwrap();
        assert_eq!(m.len(), 2);
        assert!(m[0].held_forever());
        assert_eq!(m[0].size_bytes, 51_000_000_000);
        assert_eq!(m[1].size_bytes, 890_000_000);
        assert_eq!(m[1].processor, "48%/52% CPU/GPU");
        assert_eq!(m[1].context, Some(8192));
    }

    #[test]
    fn older_form_without_context_keeps_the_until_number() {
        let text = "$ ollama ps\nNAME           ID              SIZE      PROCESSOR    UNTIL\n\
llama3.1:8b    46e0c10c039e    4.7 GB    100% CPU     4 minutes from now\nme@spark:~$ \n";
        let m = parse_ollama_ps(text).unwrap();
        assert_eq!(m[0].context, None);
        assert_eq!(m[0].until, "4 minutes from now");
        assert_eq!(m[0].size_bytes, 4_700_000_000);
    }

    #[test]
    fn header_only_is_no_model_and_junk_is_an_error() {
        let empty = "NAME    ID    SIZE    PROCESSOR    CONTEXT    UNTIL\n";
        assert_eq!(parse_ollama_ps(empty), Ok(vec![]));
        assert_eq!(parse_ollama_ps("hello"), Err(OllamaPsError::NoHeader));
        assert!(!looks_like_ollama_ps("my model is qwen2.5, size 51 GB"));
        let junk = format!("{empty}qwen2.5:72b  424bad2cc13f  lots  100% GPU  1  Forever\n");
        assert!(matches!(
            parse_ollama_ps(&junk),
            Err(OllamaPsError::BadRow { .. })
        ));
    }
}
