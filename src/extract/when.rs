//! When the run started, in the owner's everyday words: "09:02 on
//! 2026-11-28", "started 2026-11-28 09:02", "Nov 28 at 9:02 pm",
//! "28 November 2026, 21:02:30". Read as wall-clock time like the logs'
//! naive timestamps.

use crate::extract::re;
use regex::Regex;
use std::sync::LazyLock;

static ISO_DATE: LazyLock<Regex> = LazyLock::new(|| re(r"\b(\d{4})[-/](\d{1,2})[-/](\d{1,2})\b"));
static NAMED_DATE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:(\d{1,2})\s+(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?|(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?)(?:,?\s+(\d{4}))?\b",
    )
});
static TIME: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)\b(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*(am|pm))?\b"));
static STARTED: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)\b(start\w*|began|begun|launch\w*|kicked off|run since|running since)\b")
});

const MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

/// Does the turn say when something started?
pub fn mentions_start(text: &str) -> bool {
    STARTED.is_match(text)
}

/// Hours (am/pm folded into 24), minutes and seconds of a `TIME` match.
fn clock_of(t: &regex::Captures) -> Option<(i32, i32, i32)> {
    let mut h: i32 = t[1].parse().ok()?;
    let mi: i32 = t[2].parse().ok()?;
    let s: i32 = t.get(3).map_or(Some(0), |s| s.as_str().parse().ok())?;
    match t.get(4).map(|m| m.as_str().to_ascii_lowercase()) {
        Some(p) if p == "pm" && h < 12 => h += 12,
        Some(p) if p == "am" && h == 12 => h = 0,
        _ => {}
    }
    Some((h, mi, s))
}

/// The date and time in the text as "YYYY-MM-DD HH:MM:SS" and the words
/// they came from. `this_year` fills a date given without one.
pub fn date_time_in(text: &str, this_year: i32) -> Option<(String, String)> {
    let (y, mo, d, date_words): (i32, i32, i32, String) = if let Some(c) = ISO_DATE.captures(text) {
        (
            c[1].parse().ok()?,
            c[2].parse().ok()?,
            c[3].parse().ok()?,
            c[0].to_string(),
        )
    } else {
        let c = NAMED_DATE.captures(text)?;
        let month = c.get(2).or(c.get(3))?.as_str().to_ascii_lowercase();
        let mo = MONTHS.iter().position(|m| month.starts_with(m))? as i32 + 1;
        let d: i32 = c.get(1).or(c.get(4))?.as_str().parse().ok()?;
        let y = c
            .get(5)
            .map_or(Some(this_year), |y| y.as_str().parse().ok())?;
        (y, mo, d, c[0].to_string())
    };
    // The time is the first h:mm that is not part of the date itself.
    let t = TIME.captures_iter(text).next()?;
    let (h, mi, s) = clock_of(&t)?;
    if !(1..=12).contains(&mo) || !(1..=31).contains(&d) || h > 23 || mi > 59 || s > 59 {
        return None;
    }
    jiff::civil::Date::new(
        i16::try_from(y).ok()?,
        i8::try_from(mo).ok()?,
        i8::try_from(d).ok()?,
    )
    .ok()?;
    let words = if text.find(&date_words)? < t.get(0)?.start() {
        format!("{date_words} {}", &t[0])
    } else {
        format!("{} {date_words}", &t[0])
    };
    Some((
        format!("{y:04}-{mo:02}-{d:02} {h:02}:{mi:02}:{s:02}"),
        words,
    ))
}

/// A time of day alone ("started at 22:40 last night", "kicked off at
/// 9:15pm"): seconds after midnight and the words. Only with a word that
/// says a start, so a duration ("took 1:30") is not one.
pub fn time_of_day_in(text: &str) -> Option<(f64, String)> {
    if !mentions_start(text) || ISO_DATE.is_match(text) || NAMED_DATE.is_match(text) {
        return None;
    }
    let t = TIME.captures_iter(text).next()?;
    let (h, mi, s) = clock_of(&t)?;
    if h > 23 || mi > 59 || s > 59 {
        return None;
    }
    Some((f64::from(h * 3600 + mi * 60 + s), t[0].to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn everyday_forms() {
        for (text, want) in [
            ("it started at 09:02 on 2026-11-28", "2026-11-28 09:02:00"),
            ("the run started at 2026-11-29 10:00", "2026-11-29 10:00:00"),
            ("started 2026/11/28 21:02:30", "2026-11-28 21:02:30"),
            ("kicked off Nov 28 at 9:02 pm", "2026-11-28 21:02:00"),
            (
                "launched on 28 November 2026, 7:15am",
                "2026-11-28 07:15:00",
            ),
        ] {
            assert_eq!(
                date_time_in(text, 2026).map(|d| d.0).as_deref(),
                Some(want),
                "{text}"
            );
        }
    }

    #[test]
    fn a_time_of_day_alone_waits_for_the_samples_day() {
        for (text, want) in [
            (
                "training started at 22:40 last night",
                22.0 * 3600.0 + 40.0 * 60.0,
            ),
            ("kicked off at 9:15pm", 21.0 * 3600.0 + 15.0 * 60.0),
            (
                "launched it 07:05:30 this morning",
                7.0 * 3600.0 + 5.0 * 60.0 + 30.0,
            ),
        ] {
            assert_eq!(time_of_day_in(text).map(|t| t.0), Some(want), "{text}");
        }
        // No start word, a date, or no such time: not a start time of day.
        assert_eq!(time_of_day_in("the eval took 1:30"), None);
        assert_eq!(time_of_day_in("it started at 09:02 on 2026-11-28"), None);
        assert_eq!(time_of_day_in("started at 25:10"), None);
    }

    #[test]
    fn no_date_or_no_time_is_nothing() {
        assert_eq!(date_time_in("it started at 09:02", 2026), None);
        assert_eq!(date_time_in("it started on 2026-11-28", 2026), None);
        assert_eq!(date_time_in("started at 25:99 on 2026-11-28", 2026), None);
    }
}
