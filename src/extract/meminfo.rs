//! Reads a pasted `/proc/meminfo` (or a grep of it) into KiB counts.
//!
//! The kernel prints `kB` but means KiB (1024 bytes). Only the lines this
//! crate uses are read; anything else in the paste is ignored.

use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MeminfoReading {
    pub total_kib: u64,
    /// None when the paste has no `MemFree:` line (a grep for the other two).
    pub free_kib: Option<u64>,
    pub available_kib: u64,
    pub buffers_kib: Option<u64>,
    pub cached_kib: Option<u64>,
    pub swap_total_kib: Option<u64>,
    pub swap_free_kib: Option<u64>,
}

impl MeminfoReading {
    pub fn available_bytes(&self) -> u64 {
        self.available_kib.saturating_mul(1024)
    }

    pub fn free_bytes(&self) -> Option<u64> {
        self.free_kib.map(|f| f.saturating_mul(1024))
    }

    pub fn total_bytes(&self) -> u64 {
        self.total_kib.saturating_mul(1024)
    }

    /// Buffers + Cached: what the kernel can drop under pressure.
    pub fn page_cache_kib(&self) -> Option<u64> {
        Some(self.buffers_kib?.saturating_add(self.cached_kib?))
    }
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MeminfoError {
    #[error("there is no `MemTotal:` line in what you pasted")]
    NoMemTotal,
    #[error("there is no `MemAvailable:` line in what you pasted")]
    NoMemAvailable,
    #[error("`{key}:` has `{value}`, which is not a number of kB")]
    BadValue { key: String, value: String },
    #[error(
        "MemAvailable ({available_kib} kB) is larger than MemTotal ({total_kib} kB), which cannot be"
    )]
    AvailableOverTotal { available_kib: u64, total_kib: u64 },
}

impl MeminfoError {
    /// What to paste instead, for the owner.
    pub fn hint(&self) -> &'static str {
        match self {
            MeminfoError::NoMemAvailable => {
                "Run `grep -E 'MemTotal|MemFree|MemAvailable|^Cached' /proc/meminfo` on the Spark and paste every line it prints."
            }
            _ => {
                "Run `free -g` on the Spark and paste its three lines (or `cat /proc/meminfo`, the whole output, unedited)."
            }
        }
    }
}

fn line_key(line: &str) -> Option<(&str, &str)> {
    let (key, value) = line.trim().split_once(':')?;
    Some((key.trim(), value.trim()))
}

/// True when the text has a `MemTotal:` line and a `MemAvailable:` or
/// `MemFree:` line.
pub fn looks_like_meminfo(text: &str) -> bool {
    let has = |k: &str| {
        text.lines()
            .any(|l| line_key(l).is_some_and(|(key, _)| key == k))
    };
    has("MemTotal") && (has("MemAvailable") || has("MemFree"))
}

/// `127600748 kB`, `127600748kB` or a bare `127600748`.
fn kib_of(value: &str) -> Option<u64> {
    let v = value.trim();
    let v = v
        .strip_suffix("kB")
        .or_else(|| v.strip_suffix("KB"))
        .or_else(|| v.strip_suffix("kb"))
        .unwrap_or(v);
    v.trim().parse().ok()
}

pub fn parse_meminfo(text: &str) -> Result<MeminfoReading, MeminfoError> {
    // First occurrence wins: a paste repeated twice reads as the first one.
    let find = |k: &str| -> Result<Option<u64>, MeminfoError> {
        let Some((_, value)) = text.lines().filter_map(line_key).find(|(key, _)| *key == k) else {
            return Ok(None);
        };
        kib_of(value)
            .map(Some)
            .ok_or_else(|| MeminfoError::BadValue {
                key: k.to_string(),
                value: value.to_string(),
            })
    };
    let total_kib = find("MemTotal")?.ok_or(MeminfoError::NoMemTotal)?;
    let available_kib = find("MemAvailable")?.ok_or(MeminfoError::NoMemAvailable)?;
    if available_kib > total_kib {
        return Err(MeminfoError::AvailableOverTotal {
            available_kib,
            total_kib,
        });
    }
    Ok(MeminfoReading {
        total_kib,
        free_kib: find("MemFree")?,
        available_kib,
        buffers_kib: find("Buffers")?,
        cached_kib: find("Cached")?,
        swap_total_kib: find("SwapTotal")?,
        swap_free_kib: find("SwapFree")?,
    })
}

crate::extract::reading::paste_reader!(
    /// The registry's reader for `/proc/meminfo`.
    MeminfoPaste,
    "`/proc/meminfo`",
    looks_like_meminfo,
    parse_meminfo => crate::extract::reading::Reading::Meminfo
);

#[cfg(test)]
mod tests {
    use super::*;

    const FULL: &str = "MemTotal:       127600748 kB\nMemFree:        80123456 kB\nMemAvailable:   118566368 kB\nBuffers:           12345 kB\nCached:         35000000 kB\nSwapCached:            0 kB\nSwapTotal:      16777212 kB\nSwapFree:       16777212 kB\nHugePages_Total:       0\n";

    #[test]
    fn real_gb10_excerpt_with_leading_spaces() {
        let text = include_str!("../../tests/fixtures/meminfo-gb10-excerpt.txt");
        assert!(looks_like_meminfo(text));
        let r = parse_meminfo(text).unwrap();
        assert_eq!(r.total_kib, 127_600_748);
        assert_eq!(r.available_kib, 118_566_368);
        assert_eq!(r.available_bytes(), 118_566_368 * 1024);
        assert_eq!(r.free_kib, None);
        assert_eq!(r.page_cache_kib(), None);
    }

    #[test]
    fn full_paste_reads_every_field_and_not_swap_cached_as_cached() {
        let r = parse_meminfo(FULL).unwrap();
        assert_eq!(r.free_bytes(), Some(80_123_456 * 1024));
        assert_eq!(r.total_bytes(), 127_600_748 * 1024);
        assert_eq!(r.cached_kib, Some(35_000_000));
        assert_eq!(r.page_cache_kib(), Some(35_012_345));
        assert_eq!(r.swap_total_kib, Some(16_777_212));
        assert_eq!(r.swap_free_kib, Some(16_777_212));
    }

    #[test]
    fn extra_spaces_and_no_kb_suffix() {
        let r = parse_meminfo("MemTotal :  1000\r\nMemAvailable:500kB\n").unwrap();
        assert_eq!((r.total_kib, r.available_kib), (1000, 500));
    }

    #[test]
    fn bad_input_says_what_is_wrong() {
        assert!(!looks_like_meminfo("Mem: 119 4 80 0 35 115"));
        assert_eq!(parse_meminfo("hello"), Err(MeminfoError::NoMemTotal));
        let old_kernel = "MemTotal: 1000 kB\nMemFree: 500 kB\n";
        assert!(looks_like_meminfo(old_kernel));
        let e = parse_meminfo(old_kernel).unwrap_err();
        assert_eq!(e, MeminfoError::NoMemAvailable);
        assert!(e.hint().contains("grep -E"));
        assert!(matches!(
            parse_meminfo("MemTotal: lots kB\nMemAvailable: 1 kB"),
            Err(MeminfoError::BadValue { .. })
        ));
        assert!(matches!(
            parse_meminfo("MemTotal: 1 kB\nMemAvailable: 2 kB"),
            Err(MeminfoError::AvailableOverTotal { .. })
        ));
        assert!(parse_meminfo("MemTotal: 99999999999999999999 kB").is_err());
    }
}
