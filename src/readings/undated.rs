//! Stamps that leave out the year or the date: what is missing, and the
//! shift that places such a log nearest a reference time.

/// The year a stamp without one is read in: not a leap year, so every
/// real month and day but 29 February exists in it.
pub const YEARLESS: i64 = 2001;

/// What a log's stamps leave out, so the caller must supply it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MissingDate {
    /// Month and day are there, the year is not (read in `YEARLESS`).
    Year,
    /// Only the time of day (read on 1 January `YEARLESS`).
    Day,
}

/// Seconds to add to a log whose first stamp, read without its year or
/// date, is `first`, so that it lands nearest `reference` (the samples'
/// first time, or the owner's start): the same month and day in the
/// reference's year or a neighbour, or the same time of day on the
/// reference's day or a neighbour.
pub fn date_near(first: f64, reference: f64, missing: MissingDate) -> Option<f64> {
    let civil_of = |t: f64| {
        jiff::Timestamp::from_second(t as i64)
            .ok()
            .map(|ts| jiff::tz::TimeZone::UTC.to_datetime(ts))
    };
    let (day, log) = (civil_of(reference)?, civil_of(first)?);
    let frac = first - first.floor();
    let seconds_of = |d: jiff::civil::DateTime| {
        jiff::tz::TimeZone::UTC
            .to_timestamp(d)
            .ok()
            .map(|ts| ts.as_second() as f64 + frac)
    };
    let placed: Vec<f64> = match missing {
        MissingDate::Year => [-1i16, 0, 1]
            .iter()
            .filter_map(|d| log.with().year(day.year() + d).build().ok())
            .filter_map(seconds_of)
            .collect(),
        MissingDate::Day => {
            // Days after 1 January carry a midnight the log passed.
            let days_on = (first - year_start()?).div_euclid(86_400.0);
            let on_day = day.date().to_datetime(log.time());
            [-1i64, 0, 1]
                .iter()
                .filter_map(|d| on_day.checked_add(jiff::Span::new().days(*d)).ok())
                .filter_map(seconds_of)
                .map(|t| t + days_on * 86_400.0)
                .collect()
        }
    };
    placed
        .into_iter()
        .min_by(|a, b| (a - reference).abs().total_cmp(&(b - reference).abs()))
        .map(|t| t - first)
}

/// 1 January `YEARLESS`, 00:00, as seconds.
fn year_start() -> Option<f64> {
    let date = jiff::civil::Date::new(i16::try_from(YEARLESS).ok()?, 1, 1).ok()?;
    jiff::tz::TimeZone::UTC
        .to_timestamp(date.to_datetime(jiff::civil::Time::midnight()))
        .ok()
        .map(|ts| ts.as_second() as f64)
}
