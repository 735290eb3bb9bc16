//! Reads step timing out of training logs: tqdm progress bars (Hugging Face
//! Trainer, TRL, Unsloth, axolotl, torchtune, Lightning), and any log whose
//! lines carry a timestamp and a step number. Absolute time comes from a
//! timestamped line, torchtune's log-file name, or the owner's start time.
//!
//! Logs of a multi-hour run reach gigabytes of carriage-return progress
//! updates, so this is a byte scanner over fixed-size chunks (memchr for
//! line ends and the rate units) that keeps one sample per second of
//! progress, not a regex over every line.

pub use crate::readings::samples::{Marker, MarkerKind, TrainLog, TrainSample};

use memchr::memmem::FinderRev;
use std::collections::BTreeMap;
use std::io::Read;
use std::sync::LazyLock;

// Searchers are built once: building one per line would cost more than the
// search itself on a gigabyte of progress updates.
static IT_PER_S: LazyLock<FinderRev<'static>> = LazyLock::new(|| FinderRev::new(b"it/s"));
static S_PER_IT: LazyLock<FinderRev<'static>> = LazyLock::new(|| FinderRev::new(b"s/it"));
crate::extract::log_lines::needle!(
    STEP = b"step",
    EPOCH = b"Epoch ",
    BANNER = b"***** Running training *****",
    LOG_FILE = b"/log_",
    LOGGED_ELAPSED = b" elapsed:",
    LOGGED_RATE = b" rate:",
);

/// What a line's words say it is: found in one pass over the line for
/// every needle at once (a search per needle per line was most of the
/// time on a long structured log).
#[derive(Debug, Default, Clone, Copy)]
struct LineKind {
    /// A start banner, a traceback or a resume line.
    restart: bool,
    evaluation: bool,
    checkpoint: bool,
    /// Evaluation, validation or saving: the next printed duration may
    /// carry that pause.
    pause: bool,
    /// tqdm_loggable's log-line bar ("… elapsed:3:20:05 …") may be in it.
    logged_bar: bool,
}

/// What a needle found in a line says about it.
type Marks = fn(&mut LineKind);

const KIND_NEEDLES: &[(&str, Marks)] = &[
    ("Running training", |k| k.restart = true),
    ("Traceback (most recent call last)", |k| k.restart = true),
    ("Resuming", |k| k.restart = true),
    ("resume_from_checkpoint", |k| k.restart = true),
    ("Running Evaluation", |k| k.evaluation = true),
    ("'eval_loss'", |k| k.evaluation = true),
    ("Saving model checkpoint", |k| k.checkpoint = true),
    ("Saving checkpoint", |k| k.checkpoint = true),
    ("val loss", |k| k.pause = true),
    ("val_loss", |k| k.pause = true),
    ("alidation", |k| k.pause = true),
    ("valuat", |k| k.pause = true),
    ("heckpoint", |k| k.pause = true),
    (" elapsed:", |k| k.logged_bar = true),
];

// Leftmost-first, not overlapping: its SIMD prefilter skips most of a
// line at once, and a longer needle ("Saving model checkpoint") that
// starts first wins over the one inside it ("heckpoint").
static KINDS: LazyLock<aho_corasick::AhoCorasick> = LazyLock::new(|| {
    aho_corasick::AhoCorasick::builder()
        .match_kind(aho_corasick::MatchKind::LeftmostFirst)
        .build(KIND_NEEDLES.iter().map(|(n, _)| n))
        .expect("built-in needles")
});

fn line_kind(line: &[u8]) -> LineKind {
    let mut kind = LineKind::default();
    for m in KINDS.find_iter(line) {
        (KIND_NEEDLES[m.pattern().as_usize()].1)(&mut kind);
    }
    kind.pause |= kind.evaluation || kind.checkpoint;
    kind
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TrainLogError {
    #[error(
        "no step timing in it (no progress bar with it/s or s/it, and no timestamped step lines)"
    )]
    NoTiming,
    #[error("could not read it: {0}")]
    Io(String),
}

impl TrainLogError {
    pub fn hint(&self) -> &'static str {
        "Give me the training run's console log (the file stdout went to, with its progress bar), not only the metrics dicts."
    }
}

/// One progress bar (identified by its total), with epoch resets folded in.
#[derive(Debug, Default)]
struct Bar {
    samples: Vec<(f64, u64, f64)>,
    last_step: u64,
    last_elapsed: f64,
    offset: f64,
    /// Restarts of a resumed run: from this sample index on, times are
    /// relative to this absolute anchor (the restart's own stamp).
    restarts: Vec<(usize, f64)>,
    /// Lightning prints the epoch's average rate: per-step time comes from
    /// consecutive redraws instead.
    average_rate: bool,
    /// Steps of the epochs before this one, so steps keep counting up.
    step_offset: u64,
    /// Where the current segment (after a restart) begins in `samples`.
    segment_start: usize,
    /// Updates past the first 100 s whose rate was compared with the bar's
    /// own average (elapsed ÷ count), and how many of them equalled it.
    rates_compared: u32,
    rates_equal_to_average: u32,
}

impl Bar {
    /// The rate shown is the average since the bar began (tqdm with
    /// `smoothing=0`, kohya's sd-scripts): it lags a slowdown by hours,
    /// so the time per step comes from the elapsed field instead. An
    /// ordinary (smoothed) rate leaves the average once the pace changes.
    fn shows_average_rate(&self) -> bool {
        self.rates_compared >= 20
            && f64::from(self.rates_equal_to_average) >= 0.95 * f64::from(self.rates_compared)
    }
}

#[derive(Default)]
struct Scanner {
    bars: BTreeMap<u64, Bar>,
    /// Stamped step lines: (stamp, step, the bar's own rate when the line
    /// is a stamped bar update).
    stamped: Vec<(f64, u64, Option<f64>)>,
    anchor: Option<(f64, String)>,
    /// Elapsed seconds of the latest bar update, for anchoring a timestamp
    /// that follows it.
    latest_elapsed: Option<f64>,
    latest_total: Option<u64>,
    pending_markers: Vec<(f64, bool, MarkerKind)>,
    lines: u64,
    /// The elapsed field of the last bar update, as bytes.
    last_elapsed_text: Vec<u8>,
    /// Per-step durations (step, seconds) and the last stamp before them.
    durations: Vec<(u64, f64)>,
    /// For each duration: an evaluation or checkpoint line came before it
    /// (its value may carry that pause).
    after_pause_hint: Vec<bool>,
    /// An evaluation, validation or checkpoint line since the last duration.
    pause_hint: bool,
    duration_anchor: Option<f64>,
    /// Elapsed-since-start lines (step, seconds).
    elapsed_steps: Vec<(u64, f64)>,
    /// Tokens per second per step (torchtune), turned into durations with
    /// the tokens per step.
    tps_steps: Vec<(u64, f64)>,
    /// Values that are a duration or a time since the start (step, value).
    either_steps: Vec<(u64, f64)>,
    /// A line with both a stamp and a time since the start gives the start
    /// itself: stamp − elapsed (the first such line).
    elapsed_anchor: Option<f64>,
    either_anchor: Option<f64>,
    /// The step a block of metric lines belongs to (Composer prints
    /// "[batch=10/20000]:" and then one metric per line).
    block_step: Option<u64>,
    /// The last step a line gave an interval for (TF Estimator's "step =
    /// 200 (26.026 sec)": the seconds since the step printed before).
    interval_step: Option<u64>,
    /// A table's header row, for the rows under it (see `log_fields::Table`).
    table: Option<crate::extract::log_fields::Table>,
    /// The highest step a table row gave (rows redrawn again are skipped).
    table_last_step: Option<u64>,
    /// Epochs as steps, for a log that numbers nothing else: (epoch,
    /// seconds) durations, (stamp, epoch) stamps, and the epoch a line
    /// without one belongs to.
    epoch_durations: Vec<(u64, f64)>,
    epoch_stamped: Vec<(f64, u64, Option<f64>)>,
    current_epoch: Option<u64>,
    /// Keras's current epoch ("Epoch 6/60"), for its per-epoch lines.
    keras_epoch: Option<u64>,
    /// Keras's last frame used: (epoch, batches done, seconds into the epoch).
    keras_last: Option<(u64, u64, f64)>,
    /// A batch count that restarts each epoch (icefall): the current epoch,
    /// the steps of the epochs before it, and its highest batch so far.
    epoch_count: Option<(u64, u64, u64)>,
    /// A stamp without a year was used: the log is dated from the samples.
    yearless: bool,
    /// A time-of-day stamp was used (no date at all): dated the same way.
    dateless: bool,
    /// Days added to time-of-day stamps: one each time the clock goes back
    /// past midnight.
    day_offset: f64,
    /// The latest time-of-day stamp, for noticing midnight.
    last_dateless: Option<f64>,
    tokens_per_step: Option<f64>,
    /// The anchor came from torchtune's log-file name: a Unix (UTC) time.
    anchor_from_name: bool,
    /// The latest stamp seen, for anchoring what follows it.
    last_stamp: Option<f64>,
    /// A stamp seen since the last bar update: a restart, if the bar then
    /// goes back.
    stamp_since_bar: Option<f64>,
    /// A start banner, a traceback or a resume line since the last bar
    /// update: a bar that then goes back is a restarted run.
    restart_marker: bool,
    /// Any stamp was UTC.
    utc: bool,
    /// Seconds to add to UTC stamps (the owner's `--log-tz`).
    tz_offset: Option<f64>,
    /// The anchor came from a line printed right after a bar update.
    anchor_exact: bool,
    /// The anchor came from a stamp on a bar line.
    bar_stamped: bool,
    /// The chunk being scanned has an escape byte somewhere (checked once
    /// per megabyte, not per line).
    chunk_has_esc: bool,
    /// The Trainer's "Running training" banner was seen (it marks the
    /// start even when stdout and stderr interleave out of order).
    banner: bool,
}

fn parse_digits(b: &[u8]) -> Option<u64> {
    if b.is_empty() || !b.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(b).ok()?.parse().ok()
}

fn parse_float(b: &[u8]) -> Option<f64> {
    std::str::from_utf8(b).ok()?.trim().parse().ok()
}

/// "03:38", "2:48:45", "150:33:44" as seconds.
fn parse_interval(b: &[u8]) -> Option<f64> {
    let s = std::str::from_utf8(b).ok()?.trim();
    let mut total = 0.0;
    for part in s.split(':') {
        total = total * 60.0 + part.parse::<f64>().ok()?;
    }
    Some(total)
}

/// A tqdm update: "N/T [elapsed<remaining, 4.54it/s" or "…, 2.50s/it";
/// a bar that shows no rate ("[00:08<19:45]", ignite's ProgressBar) gives
/// NaN for it, and its pace comes from the elapsed field.
fn parse_bar(line: &[u8]) -> Option<(u64, u64, f64, f64)> {
    // Every tqdm bar has "[elapsed<remaining"; most log lines have no '<'.
    memchr::memchr(b'<', line)?;
    let rated = if let Some(i) = IT_PER_S.rfind(line) {
        Some((i, false))
    } else {
        S_PER_IT.rfind(line).map(|i| (i, true))
    };
    let (open, elapsed, sec_per_step) = match rated {
        Some((unit_at, per_it)) => {
            let open = memchr::memrchr(b'[', &line[..unit_at])?;
            let inner = &line[open + 1..unit_at];
            let lt = memchr::memchr(b'<', inner)?;
            let elapsed = parse_interval(&inner[..lt])?;
            let comma = memchr::memrchr(b',', inner)?;
            let rate = parse_float(&inner[comma + 1..])?;
            if rate <= 0.0 {
                return None;
            }
            (open, elapsed, if per_it { rate } else { 1.0 / rate })
        }
        None => {
            let open = memchr::memrchr(b'[', line)?;
            let close = open + memchr::memchr(b']', &line[open..])?;
            let inner = &line[open + 1..close];
            let lt = memchr::memchr(b'<', inner)?;
            (open, parse_interval(&inner[..lt])?, f64::NAN)
        }
    };
    let before = &line[..open];
    let slash = memchr::memrchr(b'/', before)?;
    let total_end = before[slash + 1..]
        .iter()
        .position(|c| !c.is_ascii_digit())
        .map_or(before.len(), |p| slash + 1 + p);
    let total = parse_digits(&before[slash + 1..total_end])?;
    let step_start = before[..slash]
        .iter()
        .rposition(|c| !c.is_ascii_digit())
        .map_or(0, |p| p + 1);
    let step = parse_digits(&before[step_start..slash])?;
    Some((step, total, elapsed, sec_per_step))
}

/// tqdm_loggable's log-line form of a bar, which replaces the redraws when
/// stderr is not a terminal (openpi): "Progress on: 4.62kit/30.0kit
/// rate:3.0s/it remaining:21:13:49 elapsed:3:20:05 postfix:-". The counts
/// come through tqdm's `format_sizeof` ("4.62k", three digits).
fn parse_logged_bar(line: &[u8]) -> Option<(u64, u64, f64, f64)> {
    let at_elapsed = LOGGED_ELAPSED.find(line)?;
    let at_rate = LOGGED_RATE.find(&line[..at_elapsed])?;
    let word = |from: usize| {
        let rest = &line[from..];
        let end = rest.iter().position(|c| *c == b' ').unwrap_or(rest.len());
        std::str::from_utf8(&rest[..end]).ok()
    };
    let elapsed = parse_interval(word(at_elapsed + 9)?.as_bytes())?;
    let rate = word(at_rate + 6)?;
    let sec = if let Some(v) = rate.strip_suffix("s/it") {
        v.parse::<f64>().ok()?
    } else {
        1.0 / rate.strip_suffix("it/s")?.parse::<f64>().ok()?
    };
    let count_start = line[..at_rate].iter().rposition(|c| *c == b' ')? + 1;
    let (done, total) = std::str::from_utf8(&line[count_start..at_rate])
        .ok()?
        .split_once('/')?;
    let (done, total) = (sized_count(done)?, sized_count(total)?);
    (sec.is_finite() && sec > 0.0 && done <= total).then_some((done, total, elapsed, sec))
}

/// "4.62kit", "30.0kit", "512it", "1.20M": a count with tqdm's SI suffix
/// and an optional unit.
fn sized_count(text: &str) -> Option<u64> {
    let digits_end = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let value: f64 = text[..digits_end].parse().ok()?;
    let scale = match text[digits_end..].chars().next() {
        Some('k') => 1e3,
        Some('M') => 1e6,
        Some('G') => 1e9,
        _ => 1.0,
    };
    Some((value * scale).round() as u64)
}

/// The trainer's line inside a docker json-file record, after the
/// record's own stamp.
fn docker_line(raw: &[u8]) -> Option<Vec<u8>> {
    let v: serde_json::Value = serde_json::from_slice(raw).ok()?;
    let log = v.get("log")?.as_str()?.trim_end_matches(['\n', '\r']);
    let time = v.get("time")?.as_str()?;
    Some(format!("{time} {log}").into_bytes())
}

/// "step 120", "Step 120", "global_step=120".
fn find_step(line: &[u8]) -> Option<u64> {
    let lower: Vec<u8> = line.iter().map(u8::to_ascii_lowercase).collect();
    let at = STEP.find(&lower)?;
    // "Steps 260480 @ 5119.0 SPS" (TorchBeast): the count after a plural.
    let skip = if lower.get(at + 4) == Some(&b's') {
        5
    } else {
        4
    };
    let rest = &line[at + skip..];
    let start = rest.iter().position(u8::is_ascii_digit)?;
    if rest[..start]
        .iter()
        .any(|c| !matches!(c, b' ' | b'=' | b':' | b'_'))
    {
        return None;
    }
    let end = rest[start..]
        .iter()
        .position(|c| !c.is_ascii_digit())
        .map_or(rest.len(), |p| start + p);
    parse_digits(&rest[start..end])
}

impl Scanner {
    fn line(&mut self, raw: &[u8]) {
        self.lines += 1;
        if raw.is_empty() {
            return;
        }
        // Docker's json-file driver wraps every line the trainer printed:
        // `{"log":"iter 10: …\n","stream":"stdout","time":"…Z"}`. The
        // trainer's line is read with the driver's stamp in front.
        let unwrapped;
        let raw = if raw.starts_with(b"{\"log\":") {
            match docker_line(raw) {
                Some(line) => {
                    unwrapped = line;
                    &unwrapped[..]
                }
                None => raw,
            }
        } else {
            raw
        };
        // Rank prefixes and colours come off only where there are any: most
        // lines of a gigabyte log are plain progress redraws.
        let cleaned;
        let line = if raw.first() == Some(&b'[')
            || (self.chunk_has_esc && memchr::memchr(0x1b, raw).is_some())
        {
            cleaned = crate::extract::log_lines::clean(raw);
            &cleaned[..]
        } else {
            raw
        };
        if line.is_empty() {
            return;
        }
        // tqdm redraws many times a second; a redraw whose elapsed time is
        // unchanged adds nothing (one sample per second is kept), so skip it
        // before any parsing. Lines with a '-' may carry a timestamp.
        if !self.last_elapsed_text.is_empty()
            && let Some(open) = memchr::memrchr(b'[', line)
            && let Some(lt) = memchr::memchr(b'<', &line[open..])
            && line[open + 1..open + lt] == self.last_elapsed_text[..]
            && memchr::memchr(b'-', line).is_none()
        {
            return;
        }
        let mut bar_elapsed = None;
        let mut bar_step = None;
        let mut bar_rate = None;
        // One pass over the line for every marker word, unless it is a
        // tqdm redraw (most lines of a bar's log).
        let bar = parse_bar(line);
        let early_kind = bar.is_none().then(|| line_kind(line));
        let bar = bar.or_else(|| {
            early_kind
                .filter(|k| k.logged_bar)
                .and_then(|_| parse_logged_bar(line))
        });
        if let Some((step, total, elapsed, sec)) = bar {
            // A restart: the run printed its start (or died) since the last
            // bar update, and a stamp says when it came back. Without such a
            // line a step going back is an epoch, or redraws out of order.
            let restart = self
                .stamp_since_bar
                .take()
                .filter(|_| std::mem::take(&mut self.restart_marker));
            let bar = self.bars.entry(total).or_default();
            if sec.is_nan() || EPOCH.find(line).is_some() {
                bar.average_rate = true;
            }
            // A step that goes back while the bar's clock keeps running is a
            // redraw cut in two (docker splits long lines), not a new epoch:
            // skip it.
            if step < bar.last_step && restart.is_none() && elapsed >= bar.last_elapsed {
                return;
            }
            if step < bar.last_step {
                match restart {
                    // A resumed run: its restart's stamp anchors the new
                    // segment, and the crash gap stays a gap.
                    Some(ts) => {
                        bar.offset = 0.0;
                        bar.step_offset = 0;
                        bar.restarts.push((bar.samples.len(), ts - elapsed));
                        bar.segment_start = bar.samples.len();
                    }
                    // A new epoch's bar (Lightning) restarts its clock and
                    // its step count.
                    None => {
                        bar.offset += bar.last_elapsed;
                        bar.step_offset += bar.last_step;
                    }
                }
            }
            let t = bar.offset + elapsed;
            let global_step = bar.step_offset + step;
            if elapsed >= 100.0 && step > 0 {
                let average = elapsed / step as f64;
                bar.rates_compared += 1;
                // Three printed digits and a whole-second elapsed field.
                if (sec - average).abs() <= 0.015 * average {
                    bar.rates_equal_to_average += 1;
                }
            }
            let sec = if bar.average_rate {
                // The shown rate is the epoch's average: take the time per
                // step between redraws at least 30 s apart.
                match bar.samples[bar.segment_start..].last() {
                    Some(&(lt, ls, _)) if global_step > ls && t - lt >= 30.0 => {
                        Some((t - lt) / (global_step - ls) as f64)
                    }
                    Some(_) => None,
                    // A bar that shows no rate: its average once 30 s in.
                    None if sec.is_nan() => {
                        (elapsed >= 30.0 && step > 0).then(|| elapsed / step as f64)
                    }
                    None => Some(sec),
                }
            } else {
                Some(sec)
            };
            // One sample per second of progress keeps memory bounded.
            if let Some(sec) = sec
                && bar.samples[bar.segment_start..]
                    .last()
                    .is_none_or(|&(lt, ls, _)| t > lt || global_step != ls && t >= lt)
            {
                bar.samples.push((t, global_step, sec));
            }
            bar.last_step = step;
            bar.last_elapsed = elapsed;
            if let Some(open) = memchr::memrchr(b'[', line)
                && let Some(lt) = memchr::memchr(b'<', &line[open..])
            {
                self.last_elapsed_text.clear();
                self.last_elapsed_text
                    .extend_from_slice(&line[open + 1..open + lt]);
            }
            bar_elapsed = Some(t);
            bar_step = Some(global_step);
            bar_rate = (!bar.average_rate).then_some(sec).flatten();
            self.latest_elapsed = Some(t);
            self.latest_total = Some(total);
        }
        let facts = if bar_elapsed.is_some() {
            crate::extract::log_lines::LineFacts {
                stamp: crate::extract::log_lines::find_stamp(line),
                ..Default::default()
            }
        } else {
            crate::extract::log_lines::read(line)
        };
        // A header row of column names, then rows read by their columns.
        // (Checked before the UTF-8 pass: most lines of a long log have a step.)
        let header_or_row = bar_elapsed.is_none() && facts.step.is_none();
        let facts = match header_or_row.then(|| std::str::from_utf8(line)) {
            Some(Ok(text)) => {
                if let Some(table) = crate::extract::log_fields::table_header(text) {
                    self.table = Some(table);
                    // A new run prints its header again, its steps from 0.
                    if self.restart_marker {
                        self.table_last_step = None;
                    }
                    facts
                } else if let Some(row) = self.table.as_ref().and_then(|t| t.row(text)) {
                    // A writer that redraws its last rows (nerfstudio's
                    // LocalWriter) prints each row many times: once counts.
                    if row.step <= self.table_last_step {
                        return;
                    }
                    self.table_last_step = row.step;
                    facts.or_fields(row)
                } else {
                    facts
                }
            }
            _ => facts,
        };
        // The owner's offset says the log is UTC: `Z` stamps and naive ones
        // (a container's) are shifted; a stamp with its own offset is not.
        let stamp = facts.stamp.map(|s| {
            if s.utc {
                self.utc = true;
            }
            self.yearless |= s.yearless;
            let t = if s.dateless {
                self.dateless = true;
                // A clock that goes back by more than half a day passed midnight.
                if self
                    .last_dateless
                    .is_some_and(|prev| s.t + self.day_offset < prev - 43_200.0)
                {
                    self.day_offset += 86_400.0;
                }
                let t = s.t + self.day_offset;
                self.last_dateless = Some(t);
                t
            } else {
                s.t
            };
            match self.tz_offset {
                Some(off) if s.utc || !s.zoned => t + off,
                _ => t,
            }
        });
        // A progress-bar update is never a marker line; skip the search.
        let kind = match early_kind {
            Some(kind) => kind,
            None if stamp.is_none() => LineKind::default(),
            None => line_kind(line),
        };
        if bar_elapsed.is_none() && kind.restart {
            self.restart_marker = true;
        }
        let mut facts = facts;
        // Batches that restart each epoch keep counting up across epochs; a
        // count that carries on past the epoch's turn is global already.
        if let (Some(epoch), Some(batch)) = (facts.epoch, facts.step) {
            let (current, before, highest) = self.epoch_count.unwrap_or((epoch, 0, 0));
            let (before, highest) = if epoch > current && batch <= highest {
                (before + highest, 0)
            } else {
                (before, highest)
            };
            self.epoch_count = Some((epoch.max(current), before, highest.max(batch)));
            facts.step = Some(before + batch);
        }
        if bar_elapsed.is_none()
            && facts.step.is_none()
            && let Ok(text) = std::str::from_utf8(line)
        {
            if let Some(e) = crate::extract::log_fields::keras_epoch_header(text) {
                self.keras_epoch = Some(e);
            } else if let Some(frame) = crate::extract::log_fields::keras_frame(text) {
                // Batches count on across epochs.
                let epoch = self.keras_epoch.unwrap_or(1);
                let before = epoch.saturating_sub(1) * frame.total;
                // Seconds since the epoch began: the last frame's own, or a
                // frame's count times its running average. The difference
                // between two frames is the time of the batches between.
                let since_epoch = frame.epoch_s.unwrap_or(frame.done as f64 * frame.per_step);
                let (last_done, last_s) = match self.keras_last {
                    Some((e, done, s)) if e == epoch && done < frame.done => (done, s),
                    _ => (0, 0.0),
                };
                if frame.epoch_s.is_some() || since_epoch - last_s >= 30.0 {
                    facts.step = Some(before + frame.done);
                    facts.duration =
                        Some((since_epoch - last_s).max(0.0) / (frame.done - last_done) as f64);
                    self.keras_last = Some((epoch, frame.done, since_epoch));
                } else {
                    // A frame's "ms/step" is the epoch's running average:
                    // only the frames kept above say what the steps took.
                    facts.duration = None;
                }
            }
        }
        if bar_elapsed.is_none()
            && let (Some(step), Some(secs)) = (facts.step, facts.interval)
        {
            // The interval covers every step since the last one printed.
            if facts.duration.is_none()
                && let Some(prev) = self.interval_step.filter(|p| step > *p)
            {
                facts.duration = Some(secs / (step - prev) as f64);
            }
            self.interval_step = Some(step);
        }
        // A log that counts only epochs (nnU-Net's "Epoch 14" then "Epoch
        // time: 120.22 s", RecBole's "epoch 8 training [time: 41.63s"):
        // kept apart, the timing when the log gives no steps at all.
        if bar_elapsed.is_none() && facts.step.is_none() {
            self.epoch_line(facts.epoch_alone, stamp, facts.duration);
        }
        if bar_elapsed.is_none() {
            match (facts.step, facts.timed_or_either()) {
                // Every step line moves the block on, timed or not: a
                // setting like "batch = 64" in the banner must not claim
                // a timing printed hours later (darknet's "Total Detection
                // Time: 38 Seconds" belongs to the iteration before it).
                (Some(step), _) => self.block_step = Some(step),
                // A line that numbers its own epoch ("epoch 8 training
                // [time: 41.63s") is its own unit: it borrows no step from
                // a config dump's "stopping_step = 50".
                (None, true) if facts.epoch_alone.is_none() => facts.step = self.block_step,
                _ => {}
            }
            if let Some(ts) = stamp {
                self.last_stamp = Some(ts);
                self.stamp_since_bar = Some(ts);
            }
            if let (Some(step), Some(v), None, None) =
                (facts.step, facts.either, facts.duration, facts.elapsed)
            {
                self.either_steps.push((step, v));
                if self.either_anchor.is_none() {
                    self.either_anchor = stamp.map(|ts| ts - v);
                }
            }
            if let (Some(e), Some(ts), None) = (facts.elapsed, stamp, self.elapsed_anchor) {
                self.elapsed_anchor = Some(ts - e);
            }
            if let (Some(step), Some(d)) = (facts.step, facts.duration)
                && d > 0.0
            {
                if self.durations.is_empty() {
                    self.duration_anchor = stamp.or(self.last_stamp);
                }
                // Several durations for the same step are its parts and its
                // whole (NeMo-RL's "Total validation time", then "Total
                // step time" with the validation in it): the whole counts.
                let same_step = self.durations.last().is_some_and(|l| l.0 == step);
                // One sample per second of progress keeps memory bounded;
                // the next kept line's duration covers the steps between.
                let keep = !same_step
                    && self.durations.last().is_none_or(|&(last, _)| {
                        step <= last || (step - last) as f64 * d >= 1.0 || self.pause_hint
                    });
                if let Some(last) = self.durations.last_mut().filter(|l| l.0 == step) {
                    last.1 = last.1.max(d);
                } else if keep {
                    self.durations.push((step, d));
                    self.after_pause_hint
                        .push(std::mem::take(&mut self.pause_hint));
                }
            }
            if let (Some(step), Some(e)) = (facts.step, facts.elapsed)
                && self
                    .elapsed_steps
                    .last()
                    .is_none_or(|&(last, le)| step <= last || e - le >= 1.0)
            {
                self.elapsed_steps.push((step, e));
            }
            if let (Some(step), Some(tps), None) = (facts.step, facts.tokens_per_s, facts.duration)
            {
                self.tps_steps.push((step, tps));
            }
        }
        if let Some(ts) = stamp {
            match (bar_elapsed, self.latest_elapsed) {
                // A line printed right after a bar update pins the bar's
                // clock: it was written at that update's elapsed time.
                (None, Some(e)) if !self.anchor_exact => {
                    self.anchor = Some((
                        ts - e,
                        "a timestamped log line next to the progress bar".into(),
                    ));
                    self.anchor_exact = true;
                }
                // A stamp on a bar line itself may be the time its whole
                // chunk of redraws was written (docker's log driver), so it
                // is used only until a better one comes.
                (Some(e), _) if !self.anchor_exact && !self.bar_stamped => {
                    self.anchor = Some((ts - e, "a timestamp on a progress-bar line".into()));
                    self.bar_stamped = true;
                }
                // Before the bar began: the Trainer's own banner marks the
                // start; failing that, the last stamp before the bar.
                (None, None) if !self.banner => {
                    self.banner = BANNER.find(line).is_some();
                    // The banner is printed as the loop starts: nothing later
                    // (out-of-order streams, chunked stamps) places it better.
                    self.anchor_exact |= self.banner;
                    self.bar_stamped |= self.banner;
                    self.anchor = Some((
                        ts,
                        if self.banner {
                            "the Trainer's \"Running training\" line".into()
                        } else {
                            "the last timestamped line before the progress bar began".into()
                        },
                    ));
                }
                _ => {}
            }
            // A bar line stamped by what carried it (`ts`, journald) is a
            // stamped step line too: its stamp is the wall clock, truer than
            // the bar's own elapsed field.
            let step = match bar_step {
                Some(step) => Some(step),
                None => facts.step.or_else(|| find_step(line)),
            };
            if let Some(step) = step
                && self
                    .stamped
                    .last()
                    .is_none_or(|&(lt, last, _)| step <= last || ts - lt >= 1.0)
            {
                self.stamped.push((ts, step, bar_rate));
            }
        }
        if self.anchor.is_none()
            && let Some(at) = LOG_FILE.find(line)
        {
            // torchtune names its log file after the Unix start time.
            let rest = &line[at + 5..];
            let end = rest
                .iter()
                .position(|c| !c.is_ascii_digit())
                .unwrap_or(rest.len());
            if let Some(unix) = parse_digits(&rest[..end]).filter(|v| *v > 1_000_000_000) {
                // A Unix time is UTC: shifted by the owner's offset if given.
                self.anchor = Some((
                    unix as f64 + self.tz_offset.unwrap_or(0.0),
                    "torchtune's log-file name (its start time)".into(),
                ));
                self.anchor_from_name = true;
                self.utc = true;
            }
        }
        // A line about evaluation or saving: the next printed duration may
        // carry its time (nanoGPT's dt runs from print to print).
        if bar_elapsed.is_none() && facts.duration.is_none() && kind.pause {
            self.pause_hint = true;
        }
        let marker = if kind.evaluation {
            Some(MarkerKind::Evaluation)
        } else if kind.checkpoint {
            Some(MarkerKind::Checkpoint)
        } else {
            None
        };
        if let Some(kind) = marker {
            match stamp {
                Some(ts) => self.pending_markers.push((ts, true, kind)),
                None => {
                    if let Some(e) = self.latest_elapsed {
                        self.pending_markers.push((e, false, kind));
                    }
                }
            }
        }
    }
}

impl Scanner {
    /// An epoch line ("Epoch 14"), or a timing line under one ("Epoch time:
    /// 120.22 s"), of a log whose unit may be the epoch.
    fn epoch_line(&mut self, epoch: Option<u64>, stamp: Option<f64>, duration: Option<f64>) {
        if let Some(e) = epoch {
            self.current_epoch = Some(e);
            if let Some(ts) = stamp
                && self.epoch_stamped.last().is_none_or(|l| l.1 != e)
            {
                self.epoch_stamped.push((ts, e, None));
            }
        }
        if let (Some(e), Some(d)) = (self.current_epoch, duration.filter(|d| *d > 0.0)) {
            // An epoch's training and its evaluation: the longer is its time.
            match self.epoch_durations.last_mut() {
                Some(last) if last.0 == e => last.1 = last.1.max(d),
                _ => {
                    if self.epoch_durations.is_empty() && self.durations.is_empty() {
                        self.duration_anchor = stamp.or(self.last_stamp);
                    }
                    self.epoch_durations.push((e, d));
                }
            }
        }
    }
}

/// Scan a whole log. `start` is the owner's run start, used when the log
/// itself carries no absolute time.
pub fn read_train_log(input: impl Read, start: Option<f64>) -> Result<TrainLog, TrainLogError> {
    read_train_log_tz(input, start, None)
}

/// The same, with the offset (seconds) that turns the log's UTC stamps into
/// the sampler's local time (`--log-tz`).
pub fn read_train_log_tz(
    input: impl Read,
    start: Option<f64>,
    tz_offset: Option<f64>,
) -> Result<TrainLog, TrainLogError> {
    read_train_log_with(input, start, tz_offset, None)
}

/// The same, with the tokens each step processes, for logs that print only
/// tokens per second (torchtune): step time = tokens per step ÷ tokens/s.
pub fn read_train_log_with(
    mut input: impl Read,
    start: Option<f64>,
    tz_offset: Option<f64>,
    tokens_per_step: Option<f64>,
) -> Result<TrainLog, TrainLogError> {
    let mut scanner = Scanner {
        tz_offset,
        tokens_per_step,
        ..Scanner::default()
    };
    let mut buf = vec![0u8; 128 << 10];
    let mut carry: Vec<u8> = Vec::new();
    loop {
        let n = input
            .read(&mut buf)
            .map_err(|e| TrainLogError::Io(e.to_string()))?;
        if n == 0 {
            break;
        }
        let chunk = &buf[..n];
        scanner.chunk_has_esc = memchr::memchr(0x1b, chunk).is_some() || carry.contains(&0x1b);
        let mut from = 0;
        while let Some(i) = memchr::memchr2(b'\n', b'\r', &chunk[from..]).map(|i| i + from) {
            if carry.is_empty() {
                scanner.line(&chunk[from..i]);
            } else {
                carry.extend_from_slice(&chunk[from..i]);
                scanner.line(&carry);
                carry.clear();
            }
            from = i + 1;
        }
        carry.extend_from_slice(&chunk[from..]);
        // A single "line" larger than a few MB is not a log line.
        if carry.len() > 8 << 20 {
            carry.clear();
        }
    }
    if !carry.is_empty() {
        scanner.line(&carry);
    }
    scanner.finish(start)
}

/// True when a paste is thermal samples / a training log.
pub fn looks_like_train_paste(text: &str) -> bool {
    if setup_bars_only(text) || python_source(text) {
        return false;
    }
    let several = text.lines().count() >= 2
        && (text.contains("it/s]")
            || text.contains("s/it]")
            || text.contains("{'loss'")
            || text.contains("Step "));
    // One line is a log only when it could not be the owner's words: a
    // metrics dict or a progress bar with its counter and timings.
    several
        || text.trim_start().starts_with("{'loss'")
        || PROGRESS_BAR.is_match(text)
        || steps_in(text)
}

/// Python source (a loader or a training script): its "# Step 1: load the
/// model" comments are no training steps. A log prints no `def` or
/// `import` line.
fn python_source(text: &str) -> bool {
    crate::extract::segment::python_start(text).is_some() && !PROGRESS_BAR.is_match(text)
}

/// Progress bars of the set-up before training ("Loading checkpoint
/// shards: 63%|…| 19/30 [02:41<01:33, 8.50s/it]", "Map: 100%|…"): every
/// bar in the paste is one, so it holds no training step.
fn setup_bars_only(text: &str) -> bool {
    let mut bars = text
        .lines()
        .filter(|l| l.contains("it/s") || l.contains("s/it"))
        .peekable();
    bars.peek().is_some() && bars.all(|l| SETUP_BAR.is_match(l))
}

static SETUP_BAR: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    crate::extract::re(
        r"(?i)(?:loading checkpoint shards|loading (?:dataset )?shards|downloading|fetching \d+ files|^\s*map(?: \(num_proc=\d+\))?|tokeniz\w*|generating \w+ split|resolving data files|filter\w*|extracting|converting|saving the dataset|applying chat template|loading weights)[^|:%]{0,40}:?\s*\d+%",
    )
});

/// Lines of any trainer the scanner reads steps and times from (`step=1000
/// … step_time=0.524s`, JSON lines, stamped step lines): a log, whatever
/// its shape, when it gives two timed steps or more.
fn steps_in(text: &str) -> bool {
    text.lines().filter(|l| !l.trim().is_empty()).count() >= 2
        && read_train_log(text.as_bytes(), None).is_ok_and(|log| log.samples.len() >= 2)
}

/// tqdm's "26/101 [06:45<17:27, 13.96s/it]" (Lightning adds ", v_num=…").
static PROGRESS_BAR: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    crate::extract::re(r"\d+/\d+ \[\d+:\d+(?::\d+)?<\d+:\d+(?::\d+)?, +[\d.]+(?:it/s|s/it)[],]")
});

/// The registry's reader for a training log (kept raw: the analysis re-reads it).
pub struct TrainLogPaste;

impl crate::extract::reading::Reader for TrainLogPaste {
    fn kind(&self) -> &'static str {
        "a training log"
    }
    fn claims(&self, text: &str) -> bool {
        looks_like_train_paste(text)
    }
    fn read(
        &self,
        _text: &str,
    ) -> Result<crate::extract::reading::Reading, crate::extract::reading::ReadProblem> {
        Ok(crate::extract::reading::Reading::TrainLog)
    }
}

mod timing;

#[cfg(test)]
mod tests;
