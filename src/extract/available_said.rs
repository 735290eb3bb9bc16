//! The available memory said in words ("free -g says 116 available",
//! "I have about 100 GB free"): a budget the owner gave without a paste.
//!
//! A figure said in words is the owner's reading, so it fills the same
//! answer a pasted `free` does. The unit is taken as said: a bare figure
//! or `G`/`GiB` is GiB (what `free -g` and `free -h` print), `GB` is GB.

use crate::calc::units::{GB, GIB};
use crate::readings::memory::{FreeReading, FreeUnit};
use regex::{Captures, Regex};
use std::sync::LazyLock;

/// "116 GiB available", "100 GB free", "about 90G left", "113 avail".
static FIGURE_FIRST: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(?i)(?:^|[^\w.])(\d{1,3}(?:\.\d+)?)\s*(gib|gi|gb|g|gigs?|gigabytes?)?\s+(?:of\s+(?:memory|ram|unified\s+memory)\s+)?(?:is\s+|are\s+|still\s+)?(available|avail|free|left)\b",
    )
});
/// "available is 116", "available: 113G", "MemAvailable shows 112 GiB".
static WORD_FIRST: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(?i)\b(available|avail)\s*(?:memory\s*)?(?:column\s*)?(?:is|=|:|of|shows|says|reads|at)?\s*(?:about|around|roughly|~)?\s*(\d{1,3}(?:\.\d+)?)\s*(gib|gi|gb|g)?\b",
    )
});
/// Memory the owner wants kept free, or asks about, is no reading; nor is
/// a disk's free space.
static NOT_A_READING: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(?i)\b(?:keep|leave|reserve|want|need|needs|should|must|require[sd]?|disk|ssd|nvme|storage|swap|drive|partition)\b",
    )
});

/// The largest figure that can be a Spark's available memory: its 128 GB pool.
const POOL_GB: f64 = 128.0;

/// The available memory the sentence states, as a reading, with its words.
pub fn said_available(text: &str) -> Option<(FreeReading, String)> {
    if NOT_A_READING.is_match(text) {
        return None;
    }
    let word_first = WORD_FIRST
        .captures_iter(text)
        .filter_map(|c| reading(&c, 2, 3, true));
    let figure_first = FIGURE_FIRST.captures_iter(text).filter_map(|c| {
        let available = c[3].to_ascii_lowercase().starts_with("avail");
        reading(&c, 1, 2, available)
    });
    // "58 free and 113 available": the available column wins.
    let all: Vec<(FreeReading, String, bool)> = word_first.chain(figure_first).collect();
    let best = all
        .iter()
        .find(|(_, _, available)| *available)
        .or_else(|| all.first())?;
    Some((best.0.clone(), best.1.clone()))
}

/// A memory size in an owner's words, in bytes with the unit's label: `G`
/// and `GiB` are GiB (what `free -g` and `free -h` print), `GB` and "gigs"
/// are GB. None past the Spark's 128 GB pool or at zero.
pub fn said_size(figure: &str, unit: &str) -> Option<(f64, &'static str)> {
    let value: f64 = figure.parse().ok()?;
    let (per, label) = match unit.to_ascii_lowercase().as_str() {
        "gib" | "gi" | "g" => (GIB, "GiB"),
        _ => (GB, "GB"),
    };
    let bytes = value * per;
    (value > 0.0 && bytes <= POOL_GB * GB).then_some((bytes, label))
}

/// One match as a reading; None when the figure has no unit and no
/// "available" beside it ("58 free" alone may be the `free` column).
fn reading(
    c: &Captures,
    figure: usize,
    unit: usize,
    available: bool,
) -> Option<(FreeReading, String, bool)> {
    let (bytes, label) = match c.get(unit) {
        None if available => said_size(&c[figure], "GiB")?,
        None => return None,
        Some(u) => said_size(&c[figure], u.as_str())?,
    };
    let reading = FreeReading {
        unit: FreeUnit::Said,
        available_text: format!("{} {label}", &c[figure]),
        available_bytes: bytes,
        total_bytes: None,
        used_bytes: None,
        free_bytes: None,
        buff_cache_bytes: None,
    };
    Some((reading, c[0].trim().to_string(), available))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn said(text: &str) -> Option<String> {
        said_available(text).map(|(r, _)| r.available_text)
    }

    #[test]
    fn a_figure_with_available_or_a_unit_is_the_owners_reading() {
        assert_eq!(
            said("free -g says 116 available").as_deref(),
            Some("116 GiB")
        );
        assert_eq!(
            said("i have about 100 GB free right now").as_deref(),
            Some("100 GB")
        );
        assert_eq!(said("available is 113").as_deref(), Some("113 GiB"));
        assert_eq!(said("avail: 96.5G").as_deref(), Some("96.5 GiB"));
        assert_eq!(said("there's 90 gigs left").as_deref(), Some("90 GB"));
        assert_eq!(
            said("58 free and 113 available").as_deref(),
            Some("113 GiB")
        );
    }

    #[test]
    fn wishes_questions_disks_and_bare_free_figures_are_no_reading() {
        for text in [
            "keep 10 GB free for the desktop",
            "do I need 100 GB available?",
            "the disk has 500 GB free",
            "only 40 GB left on the nvme",
            "58 free",
            "batch 4 free of charge",
            "200 GB available",
            "0 GB available",
        ] {
            assert_eq!(said(text), None, "{text}");
        }
    }

    #[test]
    fn the_figure_is_converted_by_the_unit_said() {
        let (r, words) = said_available("116 GiB available").unwrap();
        assert_eq!(r.available_bytes, 116.0 * GIB);
        assert_eq!(words, "116 GiB available");
        let (r, _) = said_available("100 GB free").unwrap();
        assert_eq!(r.available_bytes, 100.0 * GB);
    }
}
