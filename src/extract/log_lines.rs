//! One line of a training log, whatever the framework printed: its time
//! stamp, its step, and the step's duration or the run's elapsed time. Read
//! from the frameworks' own format strings (tests/fixtures/logs/README.md
//! names each source file): llm.c, nanoGPT, Megatron-LM, NeMo (its prefix,
//! ProgressPrinter and DLLogger), JSON lines with a step, Rich's handler,
//! LLaMA-Factory's trainer_log.jsonl, accelerate's logger. torchrun and
//! mpirun rank prefixes and ANSI colours are taken off first.

use memchr::memmem::Finder;
use serde_json::Value;
use std::sync::LazyLock;

/// A needle searched for on every line: its searcher is built once (a
/// searcher per needle per line cost more than the search itself).
pub(crate) struct Needle(LazyLock<Finder<'static>>);

impl Needle {
    pub(crate) const fn new(init: fn() -> Finder<'static>) -> Needle {
        Needle(LazyLock::new(init))
    }
    pub(crate) fn find(&self, haystack: &[u8]) -> Option<usize> {
        self.0.find(haystack)
    }
    fn len(&self) -> usize {
        self.0.needle().len()
    }
}

/// `needle!(NAME = b"text")` declares a [`Needle`].
macro_rules! needle {
    ($($name:ident = $text:expr),* $(,)?) => {
        $(static $name: $crate::extract::log_lines::Needle =
            $crate::extract::log_lines::Needle::new(|| memchr::memmem::Finder::new($text));)*
    };
}
pub(crate) use needle;

needle!(
    ITERATION = b"iteration ",
    ITER = b"iter ",
    STEP_LOWER = b"step ",
    STEP_UPPER = b"Step ",
    ITERATION_UPPER = b"Iteration ",
    EPOCH_HASH = b"epoch #",
    TOKENS_PER_S = b"tokens_per_second_per_gpu:",
    MEGATRON_MS = b"elapsed time per iteration (ms)",
    NEMO_S = b"train_step_timing in s",
    STEP_TIME = b"step_time",
    TIME_SPACE = b"time ",
    MS = b"ms",
    MS_BAR = b" ms |",
    S_PER_STEP = b" s/step",
);

/// A time stamp found in a line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stamp {
    /// Seconds of the wall-clock time read as if it were UTC (the thermal
    /// CSV's convention), or of true UTC when `utc`.
    pub t: f64,
    /// The stamp carried `Z` or was a Unix time: it is UTC, not local.
    pub utc: bool,
    /// The stamp carried its own offset (`+01:00`): its digits are the
    /// local wall clock, never shifted.
    pub zoned: bool,
    /// The stamp has no year (detectron2's `[11/29 09:02:13]`, absl's
    /// `I1129 09:02:13.164060`): `t` is in `YEARLESS`, and the log is dated
    /// from the samples it is set beside.
    pub yearless: bool,
    /// The stamp is a time of day only (openpi's `09:02:25.163 [I] …`):
    /// `t` is on 1 January `YEARLESS`, and the log is dated from the samples.
    pub dateless: bool,
}

pub use crate::readings::undated::YEARLESS;

/// What one line says about timing.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct LineFacts {
    pub stamp: Option<Stamp>,
    pub step: Option<u64>,
    /// Seconds the step took (per-step duration lines).
    pub duration: Option<f64>,
    /// Seconds since training began (LLaMA-Factory, DLLogger).
    pub elapsed: Option<f64>,
    /// Tokens per second (torchtune), which gives the step's time once the
    /// tokens per step are known.
    pub tokens_per_s: Option<f64>,
    /// A duration or a time since the start ("elapsed_ms", "wall"): the
    /// scanner tells which from how the values move.
    pub either: Option<f64>,
    /// The epoch of a step that restarts each epoch (see `Fields::epoch`).
    pub epoch: Option<u64>,
    /// Seconds since the step printed before (see `Fields::interval`).
    pub interval: Option<f64>,
    /// An epoch with no step beside it (see `Fields::epoch_alone`).
    pub epoch_alone: Option<u64>,
}

impl LineFacts {
    /// Fill what this line's format-specific reading left open from the
    /// key-pattern table.
    pub(crate) fn or_fields(mut self, g: crate::extract::log_fields::Fields) -> LineFacts {
        self.step = self.step.or(g.step);
        self.stamp = self.stamp.or(g.stamp);
        self.duration = self.duration.or(g.duration);
        self.elapsed = self.elapsed.or(g.elapsed);
        self.either = self.either.or(g.either);
        self.epoch = self.epoch.or(g.epoch);
        self.interval = self.interval.or(g.interval);
        self.epoch_alone = self.epoch_alone.or(g.epoch_alone);
        self
    }

    fn timed(&self) -> bool {
        self.duration.is_some() || self.elapsed.is_some() || self.tokens_per_s.is_some()
    }

    /// Any timing at all, the ambiguous kind included.
    pub fn timed_or_either(&self) -> bool {
        self.timed() || self.either.is_some()
    }
}

/// The line without rank prefixes (`[default0]:`, `[rank1]:`,
/// `[1,0]<stdout>:`) and ANSI escape sequences.
pub fn clean(line: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(line.len());
    let mut i = 0;
    while i < line.len() {
        if line[i] == 0x1b {
            // CSI: ESC [ … final byte; OSC: ESC ] … BEL or ESC \.
            match line.get(i + 1) {
                Some(b'[') => {
                    i += 2;
                    while i < line.len() && !(0x40..=0x7e).contains(&line[i]) {
                        i += 1;
                    }
                    i += 1;
                }
                Some(b']') => {
                    i += 2;
                    while i < line.len() && line[i] != 0x07 && line[i] != 0x1b {
                        i += 1;
                    }
                    i += if line.get(i) == Some(&0x1b) { 2 } else { 1 };
                }
                _ => i += 2,
            }
            continue;
        }
        out.push(line[i]);
        i += 1;
    }
    strip_prefix(&out).to_vec()
}

fn strip_prefix(line: &[u8]) -> &[u8] {
    let mut rest = line;
    // Prefixes may repeat (a launcher inside a launcher).
    for _ in 0..3 {
        let trimmed = rest;
        if trimmed.first() != Some(&b'[') {
            break;
        }
        let Some(close) = memchr::memchr(b']', trimmed) else {
            break;
        };
        let inner = &trimmed[1..close];
        let after = &trimmed[close + 1..];
        let rank = inner.starts_with(b"default") && inner[7..].iter().all(u8::is_ascii_digit)
            || inner.starts_with(b"rank") && inner[4..].iter().all(u8::is_ascii_digit)
            || (inner.contains(&b',') && inner.iter().all(|c| c.is_ascii_digit() || *c == b','));
        if !rank {
            break;
        }
        let after = after
            .strip_prefix(b"<stdout>")
            .or_else(|| after.strip_prefix(b"<stderr>"))
            .unwrap_or(after);
        rest = after.strip_prefix(b":").unwrap_or(after);
        rest = rest.strip_prefix(b" ").unwrap_or(rest);
    }
    rest
}

/// A wall-clock date and time as seconds, read as if UTC (the convention of
/// every naive time headroom compares); None for an impossible one.
pub(crate) fn civil(y: i64, mo: i64, d: i64, h: i64, mi: i64, s: f64) -> Option<f64> {
    let date = jiff::civil::Date::new(
        i16::try_from(y).ok()?,
        i8::try_from(mo).ok()?,
        i8::try_from(d).ok()?,
    )
    .ok()?;
    let time = jiff::civil::Time::new(i8::try_from(h).ok()?, i8::try_from(mi).ok()?, 0, 0).ok()?;
    if !(0.0..61.0).contains(&s) {
        return None;
    }
    let secs = jiff::tz::TimeZone::UTC
        .to_timestamp(date.to_datetime(time))
        .ok()?
        .as_second() as f64;
    Some(secs + s)
}

fn digits(b: &[u8]) -> Option<i64> {
    // By hand: no UTF-8 check or parse per stamp field on a long log.
    if b.is_empty() || b.len() > 18 {
        return None;
    }
    b.iter().try_fold(0i64, |acc, c| {
        c.is_ascii_digit().then(|| acc * 10 + i64::from(c - b'0'))
    })
}

fn float(b: &[u8]) -> Option<f64> {
    std::str::from_utf8(b)
        .ok()?
        .trim()
        .parse()
        .ok()
        .filter(|v: &f64| v.is_finite())
}

/// "HH:MM:SS(.frac)" at the start of `b`: (h, m, s, length).
fn clock(b: &[u8]) -> Option<(i64, i64, f64, usize)> {
    if b.len() < 8 || b[2] != b':' || b[5] != b':' {
        return None;
    }
    let h = digits(&b[..2])?;
    let m = digits(&b[3..5])?;
    let mut end = 8;
    while end < b.len()
        && (b[end].is_ascii_digit() || (end == 8 && (b[end] == b'.' || b[end] == b',')))
    {
        end += 1;
    }
    // "SS", "SS.fff" or "SS,fff" (Python logging's comma), by hand.
    let whole = digits(&b[6..8])? as f64;
    let frac = match b.get(8) {
        Some(b'.' | b',') if end > 9 => {
            let d = &b[9..end];
            digits(&d[..d.len().min(9)])? as f64 / 10f64.powi(d.len().min(9) as i32)
        }
        _ => 0.0,
    };
    Some((h, m, whole + frac, end))
}

/// The first date-and-time in the line, in any of the forms trainers print:
/// ISO (`2026-11-29 09:02:13`, `…T…Z`, `…+01:00`), mmengine's
/// `2026/11/29 09:02:13`, accelerate's `11/29/2026 09:02:13`, Rich's
/// `[11/29/26 09:02:13]`, and without a year detectron2's `[11/29 09:02:13]`
/// and absl's `I1129 09:02:13.164060` (glog's prefix).
pub fn find_stamp(line: &[u8]) -> Option<Stamp> {
    if let Some(s) = glog_prefix(line)
        .or_else(|| syslog_prefix(line))
        .or_else(|| day_month_prefix(line))
        .or_else(|| asctime_prefix(line))
        .or_else(|| time_of_day_prefix(line))
    {
        return Some(s);
    }
    for (i, _) in line
        .iter()
        .enumerate()
        .filter(|(_, c)| **c == b'-' || **c == b'/')
    {
        if let Some(s) = iso_at(line, i)
            .or_else(|| slashed_at(line, i))
            .or_else(|| short_year_at(line, i))
            .or_else(|| month_day_at(line, i))
        {
            return Some(s);
        }
    }
    None
}

/// glog / absl: a severity letter, MMDD (or YYYYMMDD, as fvcore's and
/// DINOv2's loggers print it), a space, the clock.
fn glog_prefix(line: &[u8]) -> Option<Stamp> {
    if line.len() < 14 || !matches!(line[0], b'I' | b'W' | b'E' | b'F') {
        return None;
    }
    if line[5] == b' ' {
        let (mo, d) = (digits(&line[1..3])?, digits(&line[3..5])?);
        let (h, mi, sec, _) = clock(&line[6..])?;
        return yearless_stamp(mo, d, h, mi, sec);
    }
    if line.len() < 18 || line[9] != b' ' {
        return None;
    }
    let (y, mo, d) = (
        digits(&line[1..5])?,
        digits(&line[5..7])?,
        digits(&line[7..9])?,
    );
    let (h, mi, sec, _) = clock(&line[10..])?;
    local_stamp(civil(y, mo, d, h, mi, sec)?)
}

/// A time of day alone at the start of the line, `09:02:25.163 [I] …` or
/// `[09:02:25] …`: a logger configured with `%H:%M:%S` (openpi, rich's
/// `[%X]`). Only where a word follows, so an interval (`00:12<…`) is not one.
fn time_of_day_prefix(line: &[u8]) -> Option<Stamp> {
    let bracketed = line.first() == Some(&b'[');
    let body = if bracketed { &line[1..] } else { line };
    // PyMARL's "[INFO 09:02:13] my_main …": the level inside the bracket.
    let body = if bracketed {
        [
            &b"INFO "[..],
            b"WARNING ",
            b"WARN ",
            b"ERROR ",
            b"DEBUG ",
            b"CRITICAL ",
        ]
        .iter()
        .find_map(|level| body.strip_prefix(*level))
        .unwrap_or(body)
    } else {
        body
    };
    let (h, mi, sec, end) = clock(body)?;
    let next = body.get(end)?;
    let ends_right = if bracketed {
        *next == b']'
    } else {
        *next == b' ' && body.get(end + 1).is_some_and(|c| !c.is_ascii_digit())
    };
    if !ends_right || h > 23 {
        return None;
    }
    Some(Stamp {
        t: civil(YEARLESS, 1, 1, h, mi, sec)?,
        utc: false,
        zoned: false,
        yearless: false,
        dateless: true,
    })
}

const MONTHS: [&[u8; 3]; 12] = [
    b"Jan", b"Feb", b"Mar", b"Apr", b"May", b"Jun", b"Jul", b"Aug", b"Sep", b"Oct", b"Nov", b"Dec",
];

/// syslog, journald and moreutils `ts`: `Nov 24 09:01:12` (or `Nov  4`)
/// at the start of the line, no year.
fn syslog_prefix(line: &[u8]) -> Option<Stamp> {
    let line = line.strip_prefix(b"[").unwrap_or(line);
    if line.len() < 15 || line[3] != b' ' {
        return None;
    }
    let mo = MONTHS.iter().position(|m| line[..3] == m[..])? as i64 + 1;
    let rest = &line[4..];
    let rest = rest.strip_prefix(b" ").unwrap_or(rest);
    let n = rest.iter().take_while(|c| c.is_ascii_digit()).count();
    if !(1..=2).contains(&n) || rest.get(n) != Some(&b' ') {
        return None;
    }
    let d = digits(&rest[..n])?;
    let (h, mi, sec, _) = clock(&rest[n + 1..])?;
    yearless_stamp(mo, d, h, mi, sec)
}

/// RecBole's `%d %b %H:%M` (`29 Nov 09:02    INFO …`): day first, the
/// month's name, the clock to the minute (or the second), no year.
fn day_month_prefix(line: &[u8]) -> Option<Stamp> {
    let n = line.iter().take_while(|c| c.is_ascii_digit()).count();
    if !(1..=2).contains(&n) || line.get(n) != Some(&b' ') || line.len() < n + 10 {
        return None;
    }
    let d = digits(&line[..n])?;
    let rest = &line[n + 1..];
    let mo = MONTHS.iter().position(|m| rest[..3] == m[..])? as i64 + 1;
    let clock_at = &rest[4..];
    if rest[3] != b' ' {
        return None;
    }
    let (h, mi, sec) = match clock(clock_at) {
        Some((h, mi, sec, _)) => (h, mi, sec),
        // To the minute: "09:02" then a space.
        None if clock_at.len() >= 6 && clock_at[2] == b':' && clock_at[5] == b' ' => {
            (digits(&clock_at[..2])?, digits(&clock_at[3..5])?, 0.0)
        }
        None => return None,
    };
    yearless_stamp(mo, d, h, mi, sec)
}

/// A local wall-clock stamp, dated in full.
fn local_stamp(t: f64) -> Option<Stamp> {
    Some(Stamp {
        t,
        utc: false,
        zoned: false,
        yearless: false,
        dateless: false,
    })
}

/// A local wall-clock stamp with its month and day but no year.
fn yearless_stamp(mo: i64, d: i64, h: i64, mi: i64, sec: f64) -> Option<Stamp> {
    Some(Stamp {
        t: civil(YEARLESS, mo, d, h, mi, sec)?,
        utc: false,
        zoned: false,
        yearless: true,
        dateless: false,
    })
}

fn iso_at(line: &[u8], dash: usize) -> Option<Stamp> {
    if line[dash] != b'-' || dash < 4 {
        return None;
    }
    let s = &line[dash - 4..];
    // Between date and time: a space, ISO's `T`, open_clip's `,`
    // ("%Y-%m-%d,%H:%M:%S"), Sockeye's `:` ("2026-11-29:09:05:14"),
    // MindSpore's `-` ("ME(…):2026-11-29-09:01:04.340.000").
    if s.len() < 19 || s[7] != b'-' || !matches!(s[10], b' ' | b'T' | b',' | b':' | b'-') {
        return None;
    }
    let (y, mo, d) = (digits(&s[..4])?, digits(&s[5..7])?, digits(&s[8..10])?);
    let (h, mi, sec, len) = clock(&s[11..])?;
    let t = civil(y, mo, d, h, mi, sec)?;
    let rest = &s[11 + len..];
    // A trailing Z is UTC, and so is a zero offset ("+0000", "+00:00":
    // Airflow's and CloudWatch's stamps); another offset gives the local
    // wall clock already.
    let zero_offset = rest.starts_with(b"+00:00")
        || rest.starts_with(b"+0000")
        || rest.starts_with(b"-00:00")
        || rest.starts_with(b"-0000");
    let utc = rest.first() == Some(&b'Z') || zero_offset;
    // "+01:00": the digits before it are the wall clock: keep them.
    // "+0100" (strftime's %z, journald's short-iso-precise) as well.
    let zoned = !utc
        && matches!(rest.first(), Some(b'+' | b'-'))
        && (rest.len() >= 6 && rest[3] == b':'
            || rest.len() >= 5 && rest[1..5].iter().all(u8::is_ascii_digit));
    Some(Stamp {
        t,
        utc,
        zoned,
        yearless: false,
        dateless: false,
    })
}

/// A two-digit year first, `26-11-29 10:04:39` (lingua's `%y-%m-%d`), as a
/// word of its own: the year is 2000 + YY.
fn short_year_at(line: &[u8], dash: usize) -> Option<Stamp> {
    if dash < 2 || line.len() < dash + 15 || line[dash + 3] != b'-' || line[dash + 6] != b' ' {
        return None;
    }
    if dash > 2 && !line[dash - 3].is_ascii_whitespace() {
        return None;
    }
    let (y, mo, d) = (
        digits(&line[dash - 2..dash])?,
        digits(&line[dash + 1..dash + 3])?,
        digits(&line[dash + 4..dash + 6])?,
    );
    let (h, mi, sec, _) = clock(&line[dash + 7..])?;
    local_stamp(civil(2000 + y, mo, d, h, mi, sec)?)
}

/// Python's `time.asctime()` at the start of a line, `Sun Nov 29 10:13:44
/// 2026` (Horovod's `--prefix-timestamp`).
fn asctime_prefix(line: &[u8]) -> Option<Stamp> {
    const DAYS: [&[u8; 3]; 7] = [b"Mon", b"Tue", b"Wed", b"Thu", b"Fri", b"Sat", b"Sun"];
    if line.len() < 24 || line[3] != b' ' || !DAYS.iter().any(|d| line[..3] == d[..]) {
        return None;
    }
    let rest = &line[4..];
    let mo = MONTHS.iter().position(|m| rest[..3] == m[..])? as i64 + 1;
    let rest = rest[3..].trim_ascii_start();
    let n = rest.iter().take_while(|c| c.is_ascii_digit()).count();
    if !(1..=2).contains(&n) || rest.get(n) != Some(&b' ') {
        return None;
    }
    let d = digits(&rest[..n])?;
    let (h, mi, sec, len) = clock(&rest[n + 1..])?;
    let after = &rest[n + 1 + len..];
    let y = digits(after.strip_prefix(b" ")?.get(..4)?)?;
    local_stamp(civil(y, mo, d, h, mi, sec)?)
}

/// vLLM's `INFO 11-29 09:01:44 [__init__.py:241] …` (and the Ray workers
/// that print its lines): month and day, no year, as a word of its own.
fn month_day_at(line: &[u8], dash: usize) -> Option<Stamp> {
    if dash < 2 || line.len() < dash + 12 || line[dash + 3] != b' ' {
        return None;
    }
    if dash > 2 && !line[dash - 3].is_ascii_whitespace() {
        return None;
    }
    let (mo, d) = (
        digits(&line[dash - 2..dash])?,
        digits(&line[dash + 1..dash + 3])?,
    );
    let (h, mi, sec, _) = clock(&line[dash + 4..])?;
    yearless_stamp(mo, d, h, mi, sec)
}

fn slashed_at(line: &[u8], slash: usize) -> Option<Stamp> {
    if line[slash] != b'/' || slash < 2 {
        return None;
    }
    // mmengine: "2026/11/29 09:02:13", the year first.
    if slash >= 4 && line.len() >= slash + 15 && line[slash + 3] == b'/' && line[slash + 6] == b' '
    {
        let y = digits(&line[slash - 4..slash]);
        if let (Some(y), true) = (y, slash == 4 || !line[slash - 5].is_ascii_digit()) {
            let (mo, d) = (
                digits(&line[slash + 1..slash + 3])?,
                digits(&line[slash + 4..slash + 6])?,
            );
            let (h, mi, sec, _) = clock(&line[slash + 7..])?;
            return Some(Stamp {
                t: civil(y, mo, d, h, mi, sec)?,
                utc: false,
                zoned: false,
                yearless: false,
                dateless: false,
            });
        }
    }
    let s = &line[slash - 2..];
    if s.len() < 14 {
        return None;
    }
    let (mo, d) = (digits(&s[..2])?, digits(&s[3..5])?);
    // detectron2: "11/29 09:02:13", no year.
    if s[5] == b' ' {
        if slash >= 3 && line[slash - 3].is_ascii_digit() {
            return None;
        }
        let (h, mi, sec, _) = clock(&s[6..])?;
        return Some(Stamp {
            t: civil(YEARLESS, mo, d, h, mi, sec)?,
            utc: false,
            zoned: false,
            yearless: true,
            dateless: false,
        });
    }
    if s[5] != b'/' {
        return None;
    }
    let (y, rest) = if s.len() >= 11 && s[10] == b' ' && digits(&s[6..10]).is_some() {
        (digits(&s[6..10])?, &s[11..])
    } else if s[8] == b' ' {
        (2000 + digits(&s[6..8])?, &s[9..])
    } else {
        return None;
    };
    let (h, mi, sec, _) = clock(rest)?;
    local_stamp(civil(y, mo, d, h, mi, sec)?)
}

/// The number after `key` (skipping spaces, `=`, `:`), as bytes.
fn after<'a>(line: &'a [u8], key: &Needle) -> Option<&'a [u8]> {
    let at = key.find(line)? + key.len();
    let rest = &line[at..];
    let start = rest.iter().position(|c| !matches!(c, b' ' | b'=' | b':'))?;
    let rest = &rest[start..];
    let end = rest
        .iter()
        .position(|c| !(c.is_ascii_digit() || *c == b'.' || *c == b'e' || *c == b'-' || *c == b'+'))
        .unwrap_or(rest.len());
    Some(&rest[..end])
}

fn step_after(line: &[u8], key: &Needle) -> Option<u64> {
    let v = after(line, key)?;
    let end = v
        .iter()
        .position(|c| !c.is_ascii_digit())
        .unwrap_or(v.len());
    digits(&v[..end]).and_then(|d| u64::try_from(d).ok())
}

/// "H:MM:SS" as seconds.
fn hms(text: &str) -> Option<f64> {
    let mut total = 0.0;
    for part in text.split(':') {
        total = total * 60.0 + part.trim().parse::<f64>().ok()?;
    }
    Some(total)
}

fn json_facts(v: &Value) -> LineFacts {
    let num = |v: Option<&Value>| -> Option<f64> {
        match v? {
            Value::Number(n) => n.as_f64(),
            Value::String(s) => s.parse().ok(),
            _ => None,
        }
    };
    let step = ["step", "current_steps", "global_step", "iteration"]
        .iter()
        .find_map(|k| v.get(*k).and_then(Value::as_u64));
    let data = v.get("data");
    // DLLogger's datetime carries the local wall clock with its offset.
    let stamp = v
        .get("datetime")
        .and_then(Value::as_str)
        .and_then(|s| find_stamp(s.as_bytes()))
        .or_else(|| {
            num(v.get("timestamp")).filter(|t| *t > 1e9).map(|t| Stamp {
                yearless: false,
                dateless: false,
                t,
                utc: true,
                zoned: false,
            })
        });
    let elapsed = v
        .get("elapsed_time")
        .and_then(Value::as_str)
        .and_then(hms)
        .or_else(|| num(v.get("elapsedtime")));
    let duration = data.and_then(|d| d.as_object()).and_then(|d| {
        d.iter().find_map(|(k, x)| {
            let k = k.to_ascii_lowercase();
            ((k.contains("step") && k.contains("tim")) || k.contains("time(s)") || k == "step_time")
                .then(|| num(Some(x)))
                .flatten()
        })
    });
    LineFacts {
        stamp,
        step,
        duration,
        elapsed,
        tokens_per_s: num(v.get("tokens_per_second_per_gpu")),
        either: None,
        epoch: None,
        interval: None,
        epoch_alone: None,
    }
    .or_fields(crate::extract::log_fields::json_fields(v))
}

/// Everything a cleaned line says about timing.
pub fn read(line: &[u8]) -> LineFacts {
    let body = line.strip_prefix(b"DLLL ").unwrap_or(line);
    // A JSON object behind a short label (Detectron's "json_stats: {…}").
    let body = match memchr::memchr(b'{', &body[..body.len().min(40)]) {
        Some(open) if open > 0 && body.ends_with(b"}") && body[open - 1] == b' ' => &body[open..],
        _ => body,
    };
    if body.first() == Some(&b'{')
        && body.len() < 64 * 1024
        && let Ok(v) = serde_json::from_slice::<Value>(body)
    {
        return json_facts(&v);
    }
    let mut f = LineFacts {
        stamp: find_stamp(line),
        ..LineFacts::default()
    };
    // torchtune: "tokens_per_second_per_gpu:2891.49" or a tensor's repr
    // "tokens_per_second_per_gpu:tensor(2891.4924, device='cuda:0')".
    if let Some(at) = TOKENS_PER_S.find(line) {
        let rest = &line[at + 26..];
        let rest = rest.strip_prefix(b"tensor(").unwrap_or(rest);
        let end = rest
            .iter()
            .position(|c| !(c.is_ascii_digit() || *c == b'.' || *c == b'e' || *c == b'-'))
            .unwrap_or(rest.len());
        f.tokens_per_s = float(&rest[..end]).filter(|v| *v > 0.0);
    }
    // llm.c "step    1/1500 | … | 10956.69 ms |"; Rich/accelerate "step 10".
    // Caffe's solver (inside glog's prefix): "Iteration 1000 (0.24 iter/s, …".
    // garage/dowel's prefix: "2026-11-29 08:02:56 | [exp] epoch #1 | Saved".
    if let Some(step) = step_after(line, &ITERATION)
        .or_else(|| step_after(line, &ITER))
        .or_else(|| step_after(line, &ITERATION_UPPER))
        .or_else(|| step_after(line, &EPOCH_HASH))
    {
        f.step = Some(step);
    } else if let Some(step) =
        step_after(line, &STEP_LOWER).or_else(|| step_after(line, &STEP_UPPER))
    {
        f.step = Some(step);
    }
    f.duration = if let Some(v) = after(line, &MEGATRON_MS) {
        float(v).map(|ms| ms / 1000.0)
    } else if let Some(v) = after(line, &NEMO_S) {
        float(v)
    } else if let Some(v) = after(line, &STEP_TIME) {
        float(v.strip_suffix(b"s").unwrap_or(v))
    } else if let Some(v) = after(line, &TIME_SPACE) {
        // nanoGPT "time 10386.65ms"
        let rest = &line[TIME_SPACE.find(line).unwrap_or(0)..];
        (MS.find(rest).is_some())
            .then(|| float(v))
            .flatten()
            .map(|ms| ms / 1000.0)
    } else if let Some(i) = MS_BAR.find(line) {
        // llm.c: the number before " ms |".
        let start = line[..i]
            .iter()
            .rposition(|c| *c == b'|')
            .map_or(0, |p| p + 1);
        float(&line[start..i]).map(|ms| ms / 1000.0)
    } else if let Some(i) = S_PER_STEP.find(line) {
        let start = line[..i]
            .iter()
            .rposition(|c| *c == b' ' || *c == b'|')
            .map_or(0, |p| p + 1);
        float(&line[start..i])
    } else {
        None
    };
    // Other key names: logfmt, key=value, "key: value".
    if (f.step.is_none() || !f.timed())
        && let Ok(text) = std::str::from_utf8(line)
    {
        f = f.or_fields(crate::extract::log_fields::text_fields(text));
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(line: &str) -> LineFacts {
        read(&clean(line.as_bytes()))
    }

    #[test]
    fn stamps_with_the_year_first_or_none() {
        let s = find_stamp(b"2026/11/29 09:02:23 - mmengine - INFO - x").unwrap();
        assert_eq!(s.t, civil(2026, 11, 29, 9, 2, 23.0).unwrap());
        assert!(!s.yearless);
        let s = find_stamp(b"[11/29 09:02:13] d2.engine.train_loop INFO: x").unwrap();
        assert_eq!(s.t, civil(YEARLESS, 11, 29, 9, 2, 13.0).unwrap());
        assert!(s.yearless);
        // moreutils `ts` and syslog prefixes.
        let s =
            find_stamp(b"Nov 24 09:01:12   1%|          | 114/11250 [01:00<1:37:12,  1.91it/s]")
                .unwrap();
        assert_eq!(s.t, civil(YEARLESS, 11, 24, 9, 1, 12.0).unwrap());
        assert!(s.yearless);
        let s = find_stamp(b"Dec  3 23:59:01 spark python[4242]: step 10").unwrap();
        assert_eq!(s.t, civil(YEARLESS, 12, 3, 23, 59, 1.0).unwrap());
        assert!(find_stamp(b"Novel 24 09:01:12 x").is_none());
        let s =
            find_stamp(b"I1129 09:05:49.061775 140353126233152 metric_logger.py:230] x").unwrap();
        assert!(s.yearless);
        assert!((s.t - civil(YEARLESS, 11, 29, 9, 5, 49.061775).unwrap()).abs() < 1e-6);
        // A fraction of a total is no date.
        assert!(find_stamp(b"Iter(train) [    10/160000]  time: 1.0").is_none());
        // A zero offset is UTC, as Z is; another offset is the wall clock.
        for line in [
            &b"[2026-11-29T08:02:14.353+0000] {subprocess.py:106} INFO - Epoch 1"[..],
            b"2026-11-29T08:02:23.935000+00:00 rn50/algo-1 Epoch: [0][20/5720]",
            b"2026-11-29T08:02:23Z step 20",
        ] {
            let s = find_stamp(line).unwrap();
            assert!(s.utc && !s.zoned, "{}", String::from_utf8_lossy(line));
        }
        let s = find_stamp(b"2026-11-29T09:02:23+01:00 step 20").unwrap();
        assert!(s.zoned && !s.utc);
    }

    #[test]
    fn every_framework_line() {
        let f = facts(
            "step    2/1500 | loss 11.013152 (+nanz)| norm 2.1058 (+nanz)| lr 1.71e-06 | 10923.51 ms | -100.0% bf16 MFU | 47996 tok/s",
        );
        assert_eq!((f.step, f.duration), (Some(2), Some(10.92351)));
        let f = facts("iter 1: loss 10.8830, time 10386.65ms, mfu -100.00%");
        assert_eq!((f.step, f.duration), (Some(1), Some(10.38665)));
        let f = facts(
            " [2026-11-29 09:02:30.182173] iteration        1/   20000 | consumed samples:            8 | elapsed time per iteration (ms): 16932.2 | throughput",
        );
        assert_eq!((f.step, f.duration), (Some(1), Some(16.9322)));
        assert!(f.stamp.is_some());
        let f = facts(
            "Training epoch 0, iteration 1/9999 | lr: 6e-06 | global_step: 1 | reduced_train_loss: 10.98 | train_step_timing in s: 1.988",
        );
        assert_eq!((f.step, f.duration), (Some(1), Some(1.988)));
        let f = facts(
            r#"DLLL {"timestamp": "1795939362.25", "datetime": "2026-11-29 09:02:42.253853+01:00", "elapsedtime": "100.2", "type": "LOG", "step": 9, "data": {"train_step_timing in s": 1.99}}"#,
        );
        assert_eq!(
            (f.step, f.duration, f.elapsed),
            (Some(9), Some(1.99), Some(100.2))
        );
        assert!(!f.stamp.unwrap().utc);
        let f = facts(r#"{"step":3,"data":{"train/loss":1.3,"train/time(s)":2.996149}}"#);
        assert_eq!((f.step, f.duration), (Some(3), Some(2.996149)));
        let f = facts(
            r#"{"current_steps": 20, "total_steps": 6540, "elapsed_time": "0:00:52", "remaining_time": "4:44:38"}"#,
        );
        assert_eq!((f.step, f.elapsed), (Some(20), Some(52.0)));
        let f = facts(
            "[11/29/26 09:02:35] INFO     step 10 | loss 2.1656 | 2.19 s/step    train.py:118",
        );
        assert_eq!((f.step, f.duration), (Some(10), Some(2.19)));
        assert!(f.stamp.is_some());
        let f =
            facts("11/29/2026 09:02:33 - INFO - __main__ - step 10: loss 2.3655, step_time 1.989s");
        assert_eq!((f.step, f.duration), (Some(10), Some(1.989)));
        assert!(f.stamp.is_some());
        // PyMARL: the level inside the bracket before a time of day.
        let f = facts("[INFO 09:04:24] my_main t_env: 41157 / 2050000");
        assert_eq!(f.step, Some(41157));
        assert!(f.stamp.is_some_and(|s| s.dateless));
        // garage/dowel: every line of an epoch carries "epoch #N" and a stamp.
        let f = facts("2026-11-29 08:02:56 | [sac_half_cheetah_batch] epoch #12 | Saved");
        assert_eq!(f.step, Some(12));
        assert!(f.stamp.is_some());
    }

    #[test]
    fn prefixes_and_colours_come_off() {
        assert_eq!(clean(b"[default0]:iter 3: loss 1"), b"iter 3: loss 1");
        assert_eq!(clean(b"[1,0]<stdout>:step 2/9"), b"step 2/9");
        assert_eq!(
            clean(b"\x1b[32m[NeMo I 2026-11-29]\x1b[0m x"),
            b"[NeMo I 2026-11-29] x"
        );
        assert_eq!(clean(b"\x1b]8;;file:///a\x1b\\link\x1b]8;;\x1b\\"), b"link");
    }

    #[test]
    fn stamps_utc_and_local() {
        let s = find_stamp(b"2026-11-29T08:02:09.250000000Z [INFO|trainer.py:2414]").unwrap();
        assert!(s.utc);
        let l = find_stamp(b"[INFO] 2026-11-29 09:02:09,250 >> x").unwrap();
        assert!(!l.utc);
        assert_eq!(s.t + 3600.0, l.t);
    }

    #[test]
    fn a_year_in_glog_s_date_a_capital_iteration_and_json_behind_a_label() {
        // DINOv2 / fvcore: "I20261129 08:29:31 …".
        let f = facts(
            "I20261129 08:29:31 5123 dinov2 helpers.py:103] Training  [  1820/125000]  eta: 1 day, 6:47:37  lr: 0.0000 (0.0000)",
        );
        assert_eq!(f.step, Some(1820));
        let s = f.stamp.unwrap();
        assert!(!s.yearless);
        assert_eq!(s.t, civil(2026, 11, 29, 8, 29, 31.0).unwrap());
        // Caffe's solver inside glog's prefix.
        let f = facts(
            "I1129 09:09:29.402824 23817 solver.cpp:218] Iteration 1000 (0.240976 iter/s, 82.9958s/20 iters), loss = 6.56039",
        );
        assert_eq!(f.step, Some(1000));
        assert!(f.stamp.is_some_and(|s| s.yearless));
        // Detectron's "json_stats: {…}".
        let f = facts(
            r#"json_stats: {"eta": "2 days, 3:25:54", "iter": 4160, "loss": "2.105675", "time": "0.397"}"#,
        );
        assert_eq!((f.step, f.duration), (Some(4160), Some(0.397)));
        // A brace in a sentence is no JSON.
        assert_eq!(facts("saved {best} model at step 40").step, Some(40));
    }
}
