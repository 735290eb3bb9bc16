//! Structured log lines whatever their key names: JSON objects, logfmt and
//! `key=value`, and `key: value` pairs. A step, a time stamp and a duration
//! or an elapsed time are found from one table of key patterns, not from
//! per-format code; an unknown key set says which keys it saw.

use crate::extract::log_lines::{Stamp, find_stamp};
use serde_json::Value;

/// What a key says about timing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Role {
    Step,
    Stamp,
    /// The step's duration, in seconds per unit of the value.
    Duration(f64),
    /// Time since training began, in seconds per unit.
    Elapsed(f64),
    /// "elapsed_ms", "wall": a duration or a time since the start, told
    /// apart by how the values move over the log.
    Either(f64),
    /// The step's own duration where the line also prints a window's
    /// average under another key (detectron2's `last_time` beside `time`):
    /// it wins.
    OwnDuration,
    /// Steps per second (mlx-lm's "It/sec"): the duration is its inverse.
    Rate,
    /// A rate whose unit is in its value: "2.4s/it" or "0.42it/s".
    Pace,
    /// Time since training began, only when its value says so with units
    /// ("1h 4m 10s", "4m 10s"): the key alone ("total") names too much.
    Clock,
    /// The epoch a batch count belongs to ("epoch: [2]  [1450/2834]",
    /// "(epoch: 18, iters: 1222"): the scanner counts on across epochs
    /// where the count restarts.
    Epoch,
    /// Seconds since the step printed before (the steps between share it).
    Interval,
}

/// Keys by their normalised name (lower case, spaces as `_`): exact names
/// first, then suffix rules for units. Sources: the trainers' own logging
/// code (tests/fixtures/logs/README.md and wide/README.md name each).
const EXACT: &[(&str, Role)] = &[
    ("step", Role::Step),
    ("steps", Role::Step),
    ("global_step", Role::Step),
    ("globalstep", Role::Step),
    ("trainer/global_step", Role::Step),
    ("global_step/max_steps", Role::Step),
    ("current_steps", Role::Step),
    ("iter", Role::Step),
    ("iteration", Role::Step),
    ("it", Role::Step),
    ("num_updates", Role::Step),
    ("batch", Role::Step),
    // ParlAI's "time:3825s total_exs:165984 total_steps:10374".
    ("total_steps", Role::Step),
    // OpenPCDet's train_utils: "acc_iter=800, cur_iter=799/928": the
    // accumulated iteration counts on across epochs.
    ("acc_iter", Role::Step),
    // pix2pix/CycleGAN's print_current_losses: "(epoch: 18, iters: 1222,
    // time: 0.210, data: 0.003)", iters within the epoch.
    ("iters", Role::Step),
    // flashlight's train log: "nupdates: 12000 | … | bch(ms): 750.28".
    ("nupdates", Role::Step),
    // Nematus's train loop: "Epoch: 0 Update: 1200 Loss/word: 8.41"
    // (nematus/train.py), an update being one optimizer step.
    ("update", Role::Step),
    ("updates", Role::Step),
    // Ray Tune / RLlib result rows: "training_iteration", "time_this_iter_s".
    ("training_iteration", Role::Step),
    // PyMARL's run loop: "t_env: 41157 / 2050000", environment steps.
    ("t_env", Role::Step),
    ("time_this_iter_s", Role::Duration(1.0)),
    ("epoch", Role::Epoch),
    ("ts", Role::Stamp),
    // TensorBoard's scalar CSV export: "Wall time,Step,Value" (epoch s).
    ("wall_time", Role::Stamp),
    ("walltime", Role::Stamp),
    ("timestamp", Role::Stamp),
    ("@timestamp", Role::Stamp),
    ("time", Role::Stamp),
    ("datetime", Role::Stamp),
    ("asctime", Role::Stamp),
    ("date", Role::Stamp),
    ("dt", Role::Duration(1.0)),
    // minGPT's "iter_dt 265.06ms; iter 14190: train loss 1.02".
    ("iter_dt", Role::Duration(1.0)),
    // The PyTorch word_language_model example's "| ms/batch 24.51 |";
    // PhysicsNeMo's "Time/Iter:  1.451e+03ms".
    ("ms/batch", Role::Duration(0.001)),
    ("ms/step", Role::Duration(0.001)),
    ("ms/iter", Role::Duration(0.001)),
    ("s/iter", Role::Duration(1.0)),
    ("sec/iter", Role::Duration(1.0)),
    ("s/step", Role::Duration(1.0)),
    ("time/iter", Role::Duration(1.0)),
    ("time/step", Role::Duration(1.0)),
    // char-rnn's "time/batch = 0.1590s"; HiFi-GAN's "s/b : 0.444".
    ("time/batch", Role::Duration(1.0)),
    ("s/b", Role::Duration(1.0)),
    ("s/batch", Role::Duration(1.0)),
    // skorch's epoch table: "dur", the epoch's seconds.
    ("dur", Role::Duration(1.0)),
    // CatBoost's "total: 1h 4m 10s" (time since fit began, with units).
    ("total", Role::Clock),
    // MaxText's metric_logger: "completed step: 35, seconds: 6.048".
    ("seconds", Role::Duration(1.0)),
    // detectron2's CommonMetricPrinter: "time" is the window's median,
    // "last_time" the iteration's own (utils/events.py).
    ("last_time", Role::OwnDuration),
    // pycls's json_stats: "time_diff" is the last iteration's own time,
    // "time_avg" the window's mean (pycls/core/meters.py).
    ("time_diff", Role::OwnDuration),
    // mlx-lm lora: "It/sec 0.312" over the last report's iterations.
    ("it/sec", Role::Rate),
    ("it/s", Role::Rate),
    ("its/sec", Role::Rate),
    ("iters/sec", Role::Rate),
    ("iter/s", Role::Rate),
    ("iterations/sec", Role::Rate),
    ("steps/sec", Role::Rate),
    ("steps/s", Role::Rate),
    ("steps_per_second", Role::Rate),
    // CLU's metric writer: "[512] steps_per_sec=1.20652" (clu/metric_writers).
    ("steps_per_sec", Role::Rate),
    // Sockeye's "E=0 B=11800\ts/sec=838.76 tok/sec=25720.90 u/sec=3.22":
    // updates (its batches) per second.
    ("u/sec", Role::Rate),
    // DeepSpeed-Chat's print_throughput: "Latency: 1.83s" of the step.
    ("latency", Role::Duration(1.0)),
    // Stable-Baselines3's logger table: "| iterations | 1 |" then
    // "| time_elapsed | 21 |" (whole seconds since learn() began).
    ("iterations", Role::Step),
    ("time_elapsed", Role::Elapsed(1.0)),
    // TF Estimator's StepCounterHook: "global_step/sec: 3.84232".
    ("global_step/sec", Role::Rate),
    // tqdm's loggable form: "rate:2.4s/it" (the unit is in the value).
    ("rate", Role::Pace),
    ("step_time", Role::Duration(1.0)),
    // MindSpore's TimeMonitor: "epoch time: 80952.366 ms, per step time:
    // 51.826 ms" (train/callback/_time_monitor.py): the step's own time
    // wins over the epoch's printed before it.
    ("per_step_time", Role::OwnDuration),
    // nnU-Net v2: "Epoch time: 120.22 s" under its "Epoch 14" line
    // (nnunetv2/training/nnUNetTrainer/nnUNetTrainer.py, on_epoch_end).
    ("epoch_time", Role::Duration(1.0)),
    // MXNet Gluon's LoggingHandler: "time/interval: 14.385s" since the
    // batch printed before (gluon/contrib/estimator/event_handler.py).
    ("time/interval", Role::Interval),
    ("steptime", Role::Duration(1.0)),
    ("iter_time", Role::Duration(1.0)),
    ("iteration_time", Role::Duration(1.0)),
    ("time_per_step", Role::Duration(1.0)),
    ("sec_per_step", Role::Duration(1.0)),
    ("s_per_step", Role::Duration(1.0)),
    ("step_duration", Role::Duration(1.0)),
    ("batch_time", Role::Duration(1.0)),
    ("time(s)", Role::Duration(1.0)),
    ("train/time(s)", Role::Duration(1.0)),
    ("train_step_timing_in_s", Role::Duration(1.0)),
    // Not listed: ms-swift's "train_speed(s/it)" is the running mean
    // elapsed / steps (swift/trainers/patcher.py), too slow to show a
    // slowdown; its "elapsed_time" is read instead.
    ("elapsed_time", Role::Elapsed(1.0)),
    // modded-nanogpt: "train_time:30726ms", the training clock since the
    // start (it stops during validation).
    ("train_time", Role::Either(1.0)),
    ("elapsedtime", Role::Elapsed(1.0)),
    // Composer logs its clocks in hours (loggers/console_logger.py).
    ("train_time/total", Role::Elapsed(3600.0)),
    ("time/total", Role::Elapsed(3600.0)),
    ("wall", Role::Either(1.0)),
    ("elapsed", Role::Either(1.0)),
];

/// Keys a logger adds for itself, by a leading underscore (W&B's history
/// rows: `_timestamp` is the wall clock, `_runtime` the seconds since the
/// run began, `_step` the row's own index, not the training step).
const INTERNAL: &[(&str, Option<Role>)] = &[
    ("_timestamp", Some(Role::Stamp)),
    ("_runtime", Some(Role::Elapsed(1.0))),
    ("_step", None),
];

fn role(key: &str) -> Option<Role> {
    // "(epoch: 18, iters: …", "[epoch:  3, iter: …": an opening bracket
    // belongs to the line.
    let k: String = key
        .trim()
        .trim_start_matches(['(', '['])
        // A pretty-printed JSON line: `"iteration": 7000,` (Chainer's log).
        .trim_matches('"')
        .to_ascii_lowercase()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join("_");
    if let Some((_, r)) = INTERNAL.iter().find(|(name, _)| *name == k) {
        return *r;
    }
    if let Some((_, r)) = EXACT.iter().find(|(name, _)| *name == k) {
        return Some(*r);
    }
    // A namespace before the name ("train/global_step", "perf.step_time"):
    // the name decides, when it names a step or a time on its own.
    if let Some(tail) = k
        .rsplit(['/', '.'])
        .next()
        .filter(|t| t.len() < k.len() && !t.is_empty())
        && let Some(r) = role(tail)
    {
        return Some(r);
    }
    // "train_iter_time": a training prefix before a step's duration.
    if let Some(rest) = k.strip_prefix("train_")
        && let Some(r @ Role::Duration(_)) = role(rest)
    {
        return Some(r);
    }
    // A unit in the key: "step_time_s", "iter_time_ms", "iter_time_(s)".
    let (stem, unit) = [
        ("_(ms)", 0.001),
        ("(ms)", 0.001),
        ("_ms", 0.001),
        ("_(s)", 1.0),
        ("(s)", 1.0),
        ("_secs", 1.0),
        ("_sec", 1.0),
        ("_s", 1.0),
    ]
    .iter()
    .find_map(|(suffix, u)| k.strip_suffix(suffix).map(|stem| (stem.to_string(), *u)))?;
    let stem = stem.trim_end_matches('_');
    if stem.starts_with("elapsed") || stem == "wall" {
        return Some(Role::Either(unit));
    }
    let timing = [
        "step_time",
        "iter_time",
        "iteration_time",
        "time_per_step",
        "batch_time",
        "step_duration",
        "dt",
        "time",
        // flashlight's "bch(ms)": the batch's time.
        "bch",
    ];
    timing
        .iter()
        .any(|t| stem == *t || stem.ends_with(&format!("_{t}")) || stem.ends_with(&format!("/{t}")))
        .then_some(Role::Duration(unit))
}

/// What a structured line says, before the scanner places it.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Fields {
    pub step: Option<u64>,
    pub stamp: Option<Stamp>,
    pub duration: Option<f64>,
    pub elapsed: Option<f64>,
    /// A duration or an elapsed time (see [`Role::Either`]).
    pub either: Option<f64>,
    /// The epoch of a batch count that restarts each epoch and prints no
    /// total (icefall): the scanner keeps the steps counting on.
    pub epoch: Option<u64>,
    /// Seconds since the step printed before this one (TF Estimator's
    /// "step = 200 (26.026 sec)", basic_session_run_hooks.LoggingTensorHook).
    pub interval: Option<f64>,
    /// An epoch number with no step beside it ("Epoch 14", "epoch 8
    /// training [time: 41.63s"): the unit of a log that counts only epochs.
    pub epoch_alone: Option<u64>,
}

/// A number with an optional unit: "2.763", "2.763s", "333ms", "1848.38 ms".
fn seconds(text: &str, per_unit: f64) -> Option<f64> {
    let t = text.trim().trim_matches('"');
    let (num, scale) = if let Some(n) = t.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = t.strip_suffix("us").or_else(|| t.strip_suffix("µs")) {
        (n, 0.000_001)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1.0)
    } else {
        (t, per_unit)
    };
    let v: f64 = num.trim().parse().ok()?;
    (v.is_finite() && v >= 0.0).then_some(v * scale)
}

/// "1:02:03", "5m 34s", "4h 15m 12s", "52" as seconds.
fn span(text: &str) -> Option<f64> {
    let t = text.trim().trim_matches('"');
    if t.contains(':') {
        let mut total = 0.0;
        for part in t.split(':') {
            total = total * 60.0 + part.trim().parse::<f64>().ok()?;
        }
        return Some(total);
    }
    if t.chars().any(|c| matches!(c, 'h' | 'm' | 'd')) && !t.ends_with("ms") {
        let mut total = 0.0;
        for part in t.split_whitespace() {
            let (n, unit) = part.split_at(part.find(|c: char| c.is_alphabetic())?);
            let n: f64 = n.parse().ok()?;
            total += n * match unit {
                "d" => 86400.0,
                "h" => 3600.0,
                "m" | "min" => 60.0,
                "s" => 1.0,
                _ => return None,
            };
        }
        return Some(total);
    }
    t.parse().ok()
}

fn set(f: &mut Fields, role: Role, value: &str) {
    match role {
        Role::Step if f.step.is_none() => {
            // "10/20000" (a step of a total) or "10".
            let head = value
                .trim()
                .trim_matches('"')
                .split('/')
                .next()
                .unwrap_or("");
            // "20,100": thousands separators (see `with_thousands`); ML-Agents
            // ends its "Step: 510000." with the sentence's full stop.
            let head = head
                .trim()
                .trim_end_matches(['.', ',', ';'])
                .replace(',', "");
            // "1.23e+04": OpenAI's logger prints every value with "%-8.3g",
            // the step too (a whole number, to three digits).
            f.step = head.parse().ok().or_else(|| {
                head.parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite() && *v >= 0.0 && v.fract() == 0.0 && *v < 1e15)
                    .map(|v| v as u64)
            });
        }
        Role::Stamp if f.stamp.is_none() => {
            let v = value.trim().trim_matches('"');
            f.stamp = find_stamp(v.as_bytes()).or_else(|| {
                let n: f64 = v.parse().ok()?;
                let secs = if n > 1e12 { n / 1000.0 } else { n };
                (secs > 1e9).then_some(Stamp {
                    yearless: false,
                    dateless: false,
                    t: secs,
                    utc: true,
                    zoned: false,
                })
            });
            // "time: 0.6245" (mmengine, detectron2), "Time: 0.775s" (timm):
            // a number far too small to be a clock is the step's duration.
            if f.stamp.is_none()
                && f.duration.is_none()
                && let Some(d) = seconds(v, 1.0).filter(|d| *d < 1e5)
            {
                f.duration = Some(d);
            }
        }
        Role::OwnDuration => {
            if let Some(d) = seconds(value, 1.0) {
                f.duration = Some(d);
            }
        }
        Role::Pace if f.duration.is_none() => {
            let v = value.trim();
            f.duration = if let Some(n) = v.strip_suffix("s/it") {
                n.trim().parse::<f64>().ok().filter(|d| *d > 0.0)
            } else if let Some(n) = v.strip_suffix("it/s") {
                n.trim()
                    .parse::<f64>()
                    .ok()
                    .filter(|r| *r > 0.0)
                    .map(|r| 1.0 / r)
            } else {
                None
            };
        }
        Role::Rate if f.duration.is_none() => {
            f.duration = seconds(value, 1.0).filter(|r| *r > 0.0).map(|r| 1.0 / r);
        }
        Role::Duration(u) if f.duration.is_none() => f.duration = seconds(value, u),
        Role::Elapsed(u) if f.elapsed.is_none() => f.elapsed = span(value).map(|s| s * u),
        Role::Clock if f.elapsed.is_none() && value.chars().any(|c| c.is_ascii_alphabetic()) => {
            f.elapsed = span(value);
        }
        Role::Either(u) if f.either.is_none() => f.either = seconds(value, u),
        Role::Interval if f.interval.is_none() => f.interval = seconds(value, 1.0),
        // Only a whole epoch number: "epoch 0.476" is progress, not a count.
        Role::Epoch if f.epoch.is_none() => {
            f.epoch = value
                .trim()
                .trim_matches(|c: char| matches!(c, '[' | ']' | '"' | '(' | ')'))
                .parse()
                .ok();
        }
        _ => {}
    }
}

fn json_value_text(v: &Value) -> Option<String> {
    match v {
        Value::Number(n) => Some(n.to_string()),
        Value::String(s) => Some(s.clone()),
        _ => None,
    }
}

/// The fields of one JSON object (nested objects' keys included, as
/// `outer/inner` and as `inner`).
pub fn json_fields(v: &Value) -> Fields {
    let mut f = Fields::default();
    fn walk(v: &Value, prefix: &str, f: &mut Fields, depth: usize) {
        let Some(map) = v.as_object() else { return };
        for (k, x) in map {
            if depth < 2 && x.is_object() {
                walk(x, k, f, depth + 1);
                continue;
            }
            let Some(text) = json_value_text(x) else {
                continue;
            };
            let full = if prefix.is_empty() {
                k.clone()
            } else {
                format!("{prefix}/{k}")
            };
            if let Some(r) = role(&full).or_else(|| role(k)) {
                set(f, r, &text);
            }
        }
    }
    walk(v, "", &mut f, 0);
    f
}

/// The fields of a text line: `key=value` (logfmt, structlog, fairseq) and
/// `key: value` pairs (DeepSpeed's "iter time (s): 3.179", Composer's
/// "Train time/total: 0.0103", litgpt's "iter time: 1848.38 ms").
pub fn text_fields(line: &str) -> Fields {
    let mut f = Fields::default();
    let line = line.trim_matches(|c: char| c == '[' || c == ']' || c == ':' || c.is_whitespace());
    for token in line.split([' ', ',', '|', '\t', '[', ']']) {
        if let Some((k, v)) = token.split_once('=')
            && !k.is_empty()
            && let Some(r) = role(k)
        {
            set(&mut f, r, v.trim_end_matches(':'));
        }
    }
    // "step:15/8000 train_time:30726ms": `key:value` with no space, the key
    // a word (a clock "09:04:13" or a source "trainer.py:48" names none).
    for token in line.split_whitespace() {
        if let Some((k, v)) = token.split_once(':')
            && !v.is_empty()
            && k.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && let Some(r) = role(k)
        {
            set(&mut f, r, v.trim_end_matches([',', ';']));
        }
    }
    // "| time_elapsed | 21 |": a logger table's row.
    let mut cells: Vec<&str> = line
        .split('|')
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect();
    // A stamp that a wrapper put before the row (`kubectl logs
    // --timestamps`, `docker logs -t`) is no cell of the table.
    if cells.len() == 3 && is_only_stamp(cells[0]) {
        cells.remove(0);
    }
    if let [key, value] = cells.as_slice() {
        let words: Vec<&str> = key.split_whitespace().collect();
        set_by_key_words(&mut f, &words, value);
    }
    if let Some(c) = STEP_INTERVAL.captures(line) {
        f.interval = c[1].parse().ok();
    }
    // "loss = 6.28, step = 200 (26.026 sec)": `key = value` spaced.
    for c in SPACED_PAIR.captures_iter(line) {
        if let Some(r) = role(&c[1]) {
            set(&mut f, r, &c[2]);
        }
    }
    // "key: value": the key is the words since the last separator.
    let mut rest = line;
    while let Some(colon) = rest.find(": ") {
        let before = &rest[..colon];
        // "epoch 8 training [time: 41.63s": a bracket opens the key too.
        let key_start = before
            .rfind(['|', ',', '\t', ']', '['])
            .map_or(0, |i| i + 1);
        let key = before[key_start..].trim();
        let after = rest[colon + 2..].trim_start();
        let value_end = with_thousands(after, after.find(['|', ',', '\t']).unwrap_or(after.len()));
        let value = after[..value_end].trim();
        // A key is a few words; a value its first one or two ("1848.38 ms").
        let words: Vec<&str> = key.split_whitespace().collect();
        let value_first: Vec<&str> = value.split_whitespace().take(2).collect();
        let v = match value_first.as_slice() {
            // "1h 4m 10s": a span in units is read whole.
            [_, second, ..]
                if second.ends_with(['h', 'm', 's']) && SPAN_IN_UNITS.is_match(value) =>
            {
                value.to_string()
            }
            [n, unit] if matches!(*unit, "ms" | "s" | "sec") => {
                format!("{n}{}", if *unit == "ms" { "ms" } else { "s" })
            }
            [n, ..] => n.to_string(),
            [] => String::new(),
        };
        set_by_key_words(&mut f, &words, &v);
        rest = &rest[colon + 2..];
    }
    for segment in line.split([',', '\t', '|', ';']) {
        if let Some(c) = KEY_VALUE.captures(segment) {
            let words: Vec<&str> = c[1].split_whitespace().collect();
            set_by_key_words(&mut f, &words, &c[2]);
        } else if let Some(c) = VALUE_THEN_KEY.captures(segment) {
            let words: Vec<&str> = c[2].split_whitespace().collect();
            set_by_key_words(&mut f, &words, &c[1]);
        }
    }
    // "Finished training it 13312/19187 of epoch 3, 45.22 ms/it": a
    // duration with its unit per step after the number.
    // The regex only where its unit is: most lines of a long log have none.
    if f.duration.is_none()
        && ["s/it", "s/step", "s/batch", "sec/"]
            .iter()
            .any(|u| line.contains(u))
        && let Some(c) = PER_STEP_UNIT.captures(line)
        && let Ok(v) = c[1].parse::<f64>()
    {
        f.duration = Some(v * if &c[2] == "ms" { 0.001 } else { 1.0 });
    }
    if f.step.is_none()
        && let Some(c) = STEP_FORMS.captures(line)
    {
        f.step = (1..=11)
            .find_map(|i| c.get(i))
            .and_then(|m| m.as_str().parse().ok());
    }
    // "[  1820/125000]" (a metric logger's count of its total) or a line
    // opening with "2260/237500 (epoch 0.476)": the step of a total.
    if f.step.is_none()
        && !EVALUATION.is_match(line)
        // The last count: "Epoch [1/30] Step [100/500]" counts steps last.
        && let Some(c) = COUNT_OF_TOTAL.captures_iter(line).last()
        && let (Some(n), Some(total)) = (
            c.get(1).or(c.get(3)).and_then(|m| m.as_str().parse::<u64>().ok()),
            c.get(2).or(c.get(4)).and_then(|m| m.as_str().parse::<u64>().ok()),
        )
        && n <= total
        && total >= 10
    {
        f.step = Some(n);
    }
    // A batch within an epoch is more specific than a bare "batch N".
    epoch_and_batch(line, &mut f);
    // An epoch number without a count beside it says nothing about steps;
    // it is kept apart for a log that counts nothing else.
    if f.step.is_none() {
        f.epoch_alone = f.epoch.take().or_else(|| {
            // The regex only where the word is: most lines have none.
            line.contains("poch")
                .then(|| EPOCH_WORD.captures(line))
                .flatten()
                .and_then(|c| c[1].parse().ok())
        });
    }
    // HugeCTR's "Time(1000 iters): 12.342s": the seconds of the last N steps.
    if f.duration.is_none()
        && f.interval.is_none()
        && line.contains("ime")
        && let Some(c) = TIME_PER_N.captures(line)
        && let (Ok(n), Some(secs)) = (c[1].parse::<f64>(), seconds(&c[2], 1.0))
        && n >= 1.0
    {
        f.duration = Some(secs / n);
    }
    if f.step.is_none()
        && f.duration.is_none()
        && line.contains(" run")
        && let Some(c) = COUNT_THEN_RUN_TIME.captures(line)
    {
        f.step = c[1].parse().ok();
        f.duration = seconds(&format!("{}{}", &c[2], &c[3]), 1.0);
    }
    if f.elapsed.is_none()
        && line.contains("s elapsed")
        && let Some(c) = ELAPSED_WORDS.captures(line)
    {
        f.elapsed = c[1].parse().ok();
    }
    f
}

/// A cell that is a timestamp and nothing more ("2026-11-29T08:02:13.79Z").
fn is_only_stamp(cell: &str) -> bool {
    !cell.contains(' ') && cell.len() >= 19 && find_stamp(cell.as_bytes()).is_some()
}

/// "epoch 8 training", "Epoch 14": an epoch's number, not a share of one
/// ("epoch 0.476") nor a count of a total ("Epoch 1/30").
static EPOCH_WORD: std::sync::LazyLock<regex::Regex> =
    std::sync::LazyLock::new(|| crate::extract::re(r"(?i)\bepoch\s*[:=]?\s*(\d+)\b(?:[^./\d]|$)"));

/// "   94 1189.41 ms run, 2.20 ms python, …" (tinygrad's MLPerf trainer):
/// a leading count, then the step's own time named as its run.
static COUNT_THEN_RUN_TIME: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    crate::extract::re(r"^\s*(\d+)\s+(\d+(?:\.\d+)?)\s*(ms|s)\s+(?:run|step|iter|total)\b")
});

/// "2.356809 seconds elapsed" (LightGBM's CLI after each iteration): the
/// time since training began, its value before its words.
static ELAPSED_WORDS: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    crate::extract::re(r"(?i)\b(\d+(?:\.\d+)?)\s*(?:seconds|secs?|s)\s+elapsed\b")
});

/// "Time(1000 iters): 12.342s", "time (100 steps) = 4.2 s".
static TIME_PER_N: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    crate::extract::re(
        r"(?i)\btime\s*\(\s*(\d+)\s*(?:iters?|iterations|steps|batches)\s*\)\s*[:=]\s*(\d+(?:\.\d+)?\s*(?:ms|s)?)",
    )
});

/// A count of a total: bracketed anywhere ("Training  [  1820/125000]"), or
/// opening the line with at least three digits of total ("2260/237500
/// (epoch …)"), never a date ("11/29 09:02") or a clock.
static COUNT_OF_TOTAL: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    crate::extract::re(r"\[\s*(\d+)\s*/\s*(\d+)\s*\]|^\s*(\d+)/(\d{3,})\s+\(")
});

/// An evaluation pass counts its own batches ("Test: [ 10/196]"): they are
/// not training steps.
static EVALUATION: std::sync::LazyLock<regex::Regex> =
    std::sync::LazyLock::new(|| crate::extract::re(r"(?i)\b(?:test|eval\w*|val|valid\w*)\b"));

/// "iter:  20,100": a count printed with thousands separators runs on
/// past its commas (three digits after each), where a list would not.
fn with_thousands(value: &str, mut end: usize) -> usize {
    let head = value[..end].trim();
    if head.is_empty() || head.len() > 3 || !head.bytes().all(|b| b.is_ascii_digit()) {
        return end;
    }
    let bytes = value.as_bytes();
    while bytes.get(end) == Some(&b',')
        && bytes.len() >= end + 4
        && bytes[end + 1..end + 4].iter().all(u8::is_ascii_digit)
        && !bytes.get(end + 4).is_some_and(u8::is_ascii_digit)
    {
        end += 4;
    }
    end
}

/// A key of a few words: the longest ending that names a role wins
/// ("iter time (s)" before "(s)").
fn set_by_key_words(f: &mut Fields, words: &[&str], value: &str) {
    // The last four words at most: a key is what precedes its colon.
    for skip in words.len().saturating_sub(4)..words.len() {
        if let Some(r) = role(&words[skip..].join(" ")) {
            set(f, r, value);
            return;
        }
    }
}

/// "Key value" and "Key value (average)" pairs between commas or tabs
/// (mlx-lm's "It/sec 0.312", the PyTorch examples' ProgressMeter
/// "Time  6.245 ( 6.245)": the first number is the step's own).
static KEY_VALUE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    crate::extract::re(
        r"^\s*([A-Za-z][A-Za-z/_@ ]*?)\s+([-+]?\d[\d.]*(?:[eE][-+]?\d+)?(?:ms|s)?)\s*(?:\(.*\)?)?\s*$",
    )
});

/// "3.433466 seconds" between commas: the value before its key (darknet's
/// "1383.44 avg loss, 0.000000 rate, 3.433466 seconds, 64 images").
static VALUE_THEN_KEY: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    crate::extract::re(r"^\s*(\d+(?:\.\d+)?)\s+([A-Za-z][A-Za-z/_ ]*?)\s*$")
});

static SPAN_IN_UNITS: std::sync::LazyLock<regex::Regex> =
    std::sync::LazyLock::new(|| crate::extract::re(r"^(?:\d+(?:\.\d+)?(?:d|h|m|min|s)\s*){2,}$"));

static PER_STEP_UNIT: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    crate::extract::re(r"\b(\d+(?:\.\d+)?)\s*(ms|s|sec)/(?:it|iter|step|batch)\b")
});

static STEP_INTERVAL: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    crate::extract::re(r"\bstep\s*=\s*\d+\s*\(\s*(\d+(?:\.\d+)?)\s*sec\)")
});

static SPACED_PAIR: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    crate::extract::re(r"\b([A-Za-z_][\w/]*)\s+=\s+([-+]?\d[\d.]*(?:[eE][-+]?\d+)?)")
});

/// Step forms that are not `key: value`: mlx-lm's "Iter 310:", mmengine's
/// "Iter(train) [  10/160000]", CLU's "logging_writer.py:48] [512]",
/// tqdm's loggable "Progress on: 50.0it/30.0kit", darknet's " 1: 1383.44,
/// 1383.44 avg loss, …" (the iteration, then its loss), XGBoost's
/// EvaluationMonitor "[10]\ttrain-logloss:0.687" (the round, a tab, its
/// metrics; also after a journald "host proc[pid]: " prefix), and
/// neuraloperator's Trainer "[3] time=31.65, avg_loss=…" (the epoch, then
/// its pairs);
/// detectron2-style "iter: 19" is a key.
static STEP_FORMS: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    crate::extract::re(
        r"^\s*=+\s*Step\s+(\d+)\s*/\s*\d+\s*=+|^\s*Iter(?:ation)?\s+(\d+)\s*:|\bIter\(train\)\s*\[\s*(\d+)\s*/\s*\d+\s*\]|\.py:\d+\]\s+\[(\d+)\]\s|\bProgress on:\s*(\d+)(?:\.0)?it/|;\s*(?i:iter|step)\s+(\d+)\s*:|\bUp\.\s+(\d+)\b|^\s*(\d+):\t|\bE=\d+\s+B=(\d+)\b|^\s*(\d+):\s+[-+]?\d[\d.]*,\s|(?:^|:\s)\[?(\d+)\](?:\t|\s+[A-Za-z_][\w-]*=)",
    )
});

/// Batches within epochs: timm's "Train: 0 [1750/5004 ( 35%)]", the
/// PyTorch ImageNet example's "Epoch: [0][  1/5005]" and mmcv's
/// "Epoch(train) [1][50/7330]" (epoch, batch, batches per epoch); icefall's
/// "Epoch 1, batch 1500", MXNet's Speedometer "Epoch[0] Batch [360-380]"
/// and ESPnet's "1epoch:train:1-120batch" (no total: the last batch of the
/// range); the PyTorch word_language_model example's "| epoch 2 |
/// 9800/147467 batches |" and DLRM's "Finished training it 13312/19187 of
/// epoch 3"; MXNet Gluon's "[Epoch 1][Batch 250]" (no total).
static EPOCH_FORMS: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    crate::extract::re(
        r"^\s*Train:\s*(\d+)\s*\[\s*(\d+)\s*/\s*(\d+)|\bEpoch(?::|\(train\))?\s*\[(\d+)\]\s*\[\s*(\d+)\s*/\s*(\d+)\s*\]|\bEpoch\s+(\d+),\s*batch\s+(\d+)\b|\bEpoch\[(\d+)\]\s*Batch\s*\[\s*\d+\s*-\s*(\d+)\s*\]|\b(\d+)epoch:train:\d+-(\d+)batch\b|\|\s*epoch\s+(\d+)\s*\|\s*(\d+)\s*/\s*(\d+)\s+batches|\bit\s+(\d+)\s*/\s*(\d+)\s+of epoch\s+(\d+)|\bTrain Epoch:\s*(\d+)\s*\[\s*(\d+)\s*/\s*(\d+)|\[?Epoch\s+(\d+)\]\s*\[Batch\s+(\d+)\]",
    )
});

fn epoch_and_batch(line: &str, f: &mut Fields) {
    let Some(c) = EPOCH_FORMS.captures(line) else {
        return;
    };
    let n = |i: usize| c.get(i).and_then(|m| m.as_str().parse::<u64>().ok());
    match (
        n(1).or(n(4)).or(n(13)).or(n(18)).or(n(19)),
        n(2).or(n(5)).or(n(14)).or(n(16)).or(n(20)),
        n(3).or(n(6)).or(n(15)).or(n(17)).or(n(21)),
    ) {
        (Some(e), Some(b), Some(total)) => f.step = Some(e * total + b),
        _ => {
            if let (Some(e), Some(b)) = (
                n(7).or(n(9)).or(n(11)).or(n(22)),
                n(8).or(n(10)).or(n(12)).or(n(23)),
            ) {
                f.step = Some(b);
                f.epoch = Some(e);
            }
        }
    }
}

/// A table printed under a header row of column names (pytorch-pfn-extras'
/// `PrintReport`: "epoch  iteration  train/loss  …  elapsed_time"; fastai's
/// "epoch  train_loss  valid_loss  accuracy  time"; skorch's tabulate
/// "epoch  train_loss  …  cp  dur"; nerfstudio's "Step (% Done)  Train Iter
/// (time)"; a TSV of "timestamp  step  loss"): each row's values are read by
/// the column they sit under, left- or right-aligned.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// Each column's span in the header and what it says about timing.
    columns: Vec<(usize, usize, Option<Role>)>,
    /// Cells are split at tabs and runs of two or more spaces, so a name or
    /// a value may hold one space ("Train Iter (time)", "117.596 ms").
    wide: bool,
    /// Tab-separated: a value belongs to the column of its index, as tabs
    /// do not line up.
    tabbed: bool,
    /// Comma-separated (a CSV export, TensorBoard's "Wall time,Step,Value"):
    /// read as tab-separated.
    csv: bool,
}

/// A CSV line: no tabs, and two or more commas between non-empty cells.
fn comma_separated(t: &str) -> bool {
    let t = t.trim_end();
    !t.contains('\t')
        && t.matches(',').count() >= 2
        && t.split(',')
            .all(|c| !c.trim().is_empty() && !c.starts_with(' '))
}

/// The text after a progress bar's last redraw (`█\r0  1.53 …`), without
/// the bar's leftovers at its start or a CRLF's carriage return.
fn last_redraw(line: &str) -> &str {
    let line = line.trim_end_matches('\r');
    let t = line.rsplit('\r').next().unwrap_or(line);
    let t = t.trim_start_matches(|c: char| !c.is_ascii());
    // An ANSI control sequence in front (`\x1b[J`, ppe's line clear).
    match t.strip_prefix("\u{1b}[") {
        Some(rest) => rest
            .trim_start_matches(|c: char| c.is_ascii_digit() || c == ';')
            .get(1..)
            .unwrap_or(""),
        None => t,
    }
}

/// A line's cells as (start, end, text): split at any whitespace, or, when
/// `wide`, only at tabs and runs of two or more spaces.
fn cells(t: &str, wide: bool) -> Vec<(usize, usize, &str)> {
    let mut out = Vec::new();
    let bytes = t.as_bytes();
    let mut start = None;
    let mut i = 0;
    while i <= bytes.len() {
        let gap = match bytes.get(i) {
            None => true,
            Some(b'\t') => true,
            // One space inside a wide cell joins its words; two split.
            Some(b' ') => {
                !wide
                    || bytes.get(i + 1).is_none_or(u8::is_ascii_whitespace)
                    || i.checked_sub(1)
                        .is_none_or(|p| bytes[p].is_ascii_whitespace())
            }
            Some(c) => c.is_ascii_whitespace(),
        };
        match (gap, start) {
            (true, Some(s)) => {
                out.push((s, i, &t[s..i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
        i += 1;
    }
    out
}

fn table_role(name: &str) -> Option<Role> {
    let lower = name.to_ascii_lowercase();
    match lower.as_str() {
        // One row per epoch, its wall time as mm:ss (fastai's `time`).
        "time" => return Some(Role::Duration(1.0)),
        "epoch" => return Some(Role::Step),
        _ => {}
    }
    if let Some(r) = role(&lower) {
        return Some(r);
    }
    // "Train Iter (time)", "Step (% Done)": what the column holds in brackets.
    let (stem, inside) = lower.split_once('(')?;
    match inside.trim_end_matches(')').trim() {
        "time" => role(&format!("{stem} time")),
        _ => role(stem),
    }
}

/// A header row: three or more column names, one of them a step (or the
/// epoch) and one a time (a duration, a clock since the start, or a stamp).
pub fn table_header(line: &str) -> Option<Table> {
    let t = last_redraw(line);
    let csv = comma_separated(t);
    let owned = csv.then(|| t.replace(',', "\t"));
    let t = owned.as_deref().unwrap_or(t);
    [true, false].into_iter().find_map(|wide| {
        let allowed = if wide { "_/.()%- " } else { "_/.()" };
        let mut columns = Vec::new();
        for (start, end, name) in cells(t, wide) {
            let name_like = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || allowed.contains(c));
            if !name_like {
                return None;
            }
            columns.push((start, end, table_role(name)));
        }
        let has = |f: fn(&Role) -> bool| columns.iter().any(|(_, _, r)| r.as_ref().is_some_and(f));
        let step = has(|r| matches!(r, Role::Step));
        let timed = has(|r| {
            matches!(
                r,
                Role::Duration(_) | Role::Elapsed(_) | Role::Either(_) | Role::Stamp
            )
        });
        (columns.len() >= 3 && step && timed).then_some(Table {
            columns,
            wide,
            tabbed: t.contains('\t'),
            csv,
        })
    })
}

impl Table {
    /// The column a cell sits under: the one it starts with (left-aligned)
    /// or ends with (right-aligned), else the one it overlaps most, else
    /// the nearest.
    fn column_of(&self, start: usize, end: usize) -> Option<Role> {
        let by_edge = self
            .columns
            .iter()
            .find(|(s, _, _)| *s == start)
            .or_else(|| self.columns.iter().find(|(_, e, _)| *e == end));
        let overlap =
            |&&(s, e, _): &&(usize, usize, Option<Role>)| end.min(e) as i64 - start.max(s) as i64;
        by_edge
            .or_else(|| self.columns.iter().max_by_key(overlap))
            .and_then(|(_, _, r)| *r)
    }

    /// A row's fields: every value under its column (a blank cell, like a
    /// validation column between evaluations, is skipped). The step is the
    /// last step column's (`iteration` after `epoch`).
    pub fn row(&self, line: &str) -> Option<Fields> {
        let t = last_redraw(line);
        let owned = self.csv.then(|| t.replace(',', "\t"));
        let t = owned.as_deref().unwrap_or(t);
        if !t.trim_start().starts_with(|c: char| c.is_ascii_digit()) {
            return None;
        }
        let mut f = Fields::default();
        for (i, (start, end, value)) in cells(t, self.wide).into_iter().enumerate() {
            let column = if self.tabbed {
                self.columns.get(i).and_then(|c| c.2)
            } else {
                self.column_of(start, end)
            };
            match column {
                Some(Role::Step) => f.step = leading_count(value).or(f.step),
                Some(Role::Duration(u)) if value.contains(':') => {
                    f.duration = span(value).map(|s| s * u)
                }
                Some(r) => set(&mut f, r, value),
                None => {}
            }
        }
        f.step.is_some().then_some(f)
    }
}

/// "12300 (12.30%)", "200": the count a step cell starts with.
fn leading_count(cell: &str) -> Option<u64> {
    cell.split_whitespace().next()?.parse().ok()
}

/// One line of Keras's progress output: batches done of the epoch's
/// total, the running average time per batch, and, on the epoch's last
/// line, the seconds the whole epoch took (validation included).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KerasFrame {
    pub done: u64,
    pub total: u64,
    pub per_step: f64,
    pub epoch_s: Option<f64>,
}

/// Keras's per-epoch line (`verbose=2`, "1200/1200 - 753s - 627ms/step") or
/// a frame of its `verbose=1` bar (keras/src/utils/progbar.py).
pub fn keras_frame(line: &str) -> Option<KerasFrame> {
    keras_verbose2(line).or_else(|| keras_bar(line))
}

/// A `verbose=1` frame: "  17/1200 ━━━━ 12:20 620ms/step - loss: …" shows an
/// ETA ("12:20", "1:02:03" or "45s") and the average since the epoch began;
/// the last, "1200/1200 ━━━━ 753s 627ms/step - …", the epoch's seconds.
fn keras_bar(line: &str) -> Option<KerasFrame> {
    let head = line.trim().split(" - ").next()?;
    let mut words = head.split_whitespace();
    let (done, total) = words.next()?.split_once('/')?;
    let (done, total): (u64, u64) = (done.parse().ok()?, total.parse().ok()?);
    if done == 0 || done > total {
        return None;
    }
    let rest: Vec<&str> = words.collect();
    let per_step = seconds(
        rest.iter().rev().find_map(|w| w.strip_suffix("/step"))?,
        1.0,
    )?;
    let whole_seconds = |w: &&str| w.strip_suffix('s').and_then(|n| n.parse::<u64>().ok());
    let eta = |w: &&str| {
        whole_seconds(w).is_some()
            || (w.contains(':') && w.split(':').all(|p| p.parse::<u64>().is_ok()))
    };
    let epoch_s = if done == total {
        Some(rest.iter().find_map(whole_seconds)? as f64)
    } else {
        rest.iter().any(eta).then_some(())?;
        None
    };
    Some(KerasFrame {
        done,
        total,
        per_step,
        epoch_s,
    })
}

fn keras_verbose2(line: &str) -> Option<KerasFrame> {
    let mut parts = line.trim().split(" - ");
    let (done, total) = parts.next()?.trim().split_once('/')?;
    let (done, total) = (done.parse().ok()?, total.parse().ok()?);
    let epoch_s = parts
        .next()?
        .trim()
        .strip_suffix('s')?
        .parse::<u64>()
        .ok()? as f64;
    let per_step = parts.next()?.trim().strip_suffix("/step")?;
    Some(KerasFrame {
        done,
        total,
        per_step: seconds(per_step, 1.0)?,
        epoch_s: Some(epoch_s),
    })
}

/// Keras's "Epoch 6/60" (progbar_logger.py `on_epoch_begin`).
pub fn keras_epoch_header(line: &str) -> Option<u64> {
    let (epoch, total) = line.trim().strip_prefix("Epoch ")?.split_once('/')?;
    total.trim().parse::<u64>().ok()?;
    epoch.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(line: &str) -> Fields {
        text_fields(line)
    }

    #[test]
    fn json_with_any_key_names() {
        let v: Value = serde_json::from_str(r#"{"step": 180, "loss": 2.18, "step_time_s": 2.432, "event": "train", "ts": "2026-11-29T08:09:31.858100Z"}"#).unwrap();
        let f = json_fields(&v);
        assert_eq!((f.step, f.duration), (Some(180), Some(2.432)));
        assert!(f.stamp.unwrap().utc);
        let v: Value = serde_json::from_str(r#"{"loss": 1.54, "global_step/max_steps": "100/4680", "elapsed_time": "5m 34s", "train_speed(s/it)": 3.3}"#).unwrap();
        let f = json_fields(&v);
        assert_eq!(
            (f.step, f.elapsed, f.duration),
            (Some(100), Some(334.0), None)
        );
        let v: Value =
            serde_json::from_str(r#"{"it": 7, "time_ms": 512.5, "time": 1795939362.25}"#).unwrap();
        let f = json_fields(&v);
        assert_eq!((f.step, f.duration), (Some(7), Some(0.5125)));
        assert!(f.stamp.is_some());
    }

    #[test]
    fn a_namespace_or_a_loggers_own_underscore_key() {
        // W&B history: the step is the trainer's, `_step` the row's index.
        let v: Value = serde_json::from_str(r#"{"train/loss": 1.29, "train/global_step": 290, "_timestamp": 1795940046.31, "_runtime": 744.79, "_step": 29}"#).unwrap();
        let f = json_fields(&v);
        assert_eq!((f.step, f.elapsed), (Some(290), Some(744.79)));
        assert!(f.stamp.unwrap().utc);
        let f = text("perf.step_time_ms=512 trainer.iteration=40");
        assert_eq!((f.step, f.duration), (Some(40), Some(0.512)));
        let f = text("epoch: 0/80, acc_iter=800, cur_iter=799/928, batch_size=4");
        assert_eq!(f.step, Some(800));
        // A namespaced word that is no timing stays none.
        assert_eq!(text("train/loss=1.2 eval/acc=0.5").step, None);
    }

    #[test]
    fn steps_and_durations_of_other_shapes() {
        let f = text(
            "Iter 310: Train loss 2.039, Learning Rate 9.969e-06, It/sec 0.312, Tokens/sec 2489.406",
        );
        assert_eq!(f.step, Some(310));
        assert!((f.duration.unwrap() - 1.0 / 0.312).abs() < 1e-9);
        let f = text(
            "Iter(train) [    10/160000]  lr: 4.0006e-07  eta: 1 day, 20:50:16  time: 1.0089  data_time: 0.2755",
        );
        assert_eq!((f.step, f.duration), (Some(10), Some(1.0089)));
        let f = text(
            " eta: 13:06:12  iter: 19  total_loss: 3.27  time: 0.5558  last_time: 0.5276  data_time: 0.01",
        );
        assert_eq!((f.step, f.duration), (Some(19), Some(0.5276)));
        let f = text(
            "Train: 1 [1750/5004 ( 35%)]  Loss: 5.23 (5.98)  Time: 0.775s,  330.43/s  (0.786s,  325.56/s)",
        );
        assert_eq!((f.step, f.duration), (Some(5004 + 1750), Some(0.775)));
        let f = text("Epoch: [2][   1/5005]\tTime  6.245 ( 6.245)\tData  3.100 ( 3.100)");
        assert_eq!((f.step, f.duration), (Some(2 * 5005 + 1), Some(6.245)));
        let f = text("Epoch 3, batch 1500, loss[loss=3.547, simple_loss=3.116]");
        assert_eq!((f.step, f.epoch), (Some(1500), Some(3)));
        let f = text("completed step: 35, seconds: 6.048, TFLOP/s/device: 68.209");
        assert_eq!((f.step, f.duration), (Some(35), Some(6.048)));
        // Nematus counts optimizer updates; pycls prints the iteration's
        // own time beside the window's mean.
        let f = text(
            "INFO: [2026-11-29 08:09:25] Epoch: 0 Update: 1200 Loss/word: 8.41 Words/sec: 9891.1",
        );
        assert_eq!(f.step, Some(1200));
        let v = serde_json::from_str(
            r#"{"_type": "train_iter", "iter": "140/5004", "time_avg": 0.5212, "time_diff": 0.5230}"#,
        )
        .unwrap();
        let f = json_fields(&v);
        assert_eq!(f.duration, Some(0.5230));
    }

    #[test]
    fn key_value_and_key_colon_lines() {
        let f = text(
            "ts=2026-11-29T09:08:55.638997 level=info event=train step=180 loss=2.1373 elapsed_ms=2214 tok_s=3700.5",
        );
        assert_eq!((f.step, f.either), (Some(180), Some(2.214)));
        assert!(f.stamp.is_some());
        let f = text("steps: 100 loss: 1.9676 iter time (s): 3.179 samples/sec: 10.065");
        assert_eq!((f.step, f.duration), (Some(100), Some(3.179)));
        let f = text(
            "Epoch 1 | iter 16 step 1 | loss train: 1.582, val: n/a | iter time: 2147.44 ms (step)",
        );
        assert_eq!(f.duration, Some(2.14744));
        let f = text("\t Train time/total: 0.0103");
        assert_eq!(f.elapsed, Some(0.0103 * 3600.0));
        assert_eq!(text("[batch=10/20000]:").step, Some(10));
        let f = text(
            "epoch 001:    900 / 3150 loss=11.623, ups=0.62, num_updates=900, lr=0.0001, train_wall=160, wall=1488",
        );
        assert_eq!((f.step, f.either), (Some(900), Some(1488.0)));
        let f = text("2026-11-29 09:02:23 [info     ] train  loss=2.34 step=10 step_time=2.763");
        assert_eq!((f.step, f.duration), (Some(10), Some(2.763)));
    }

    #[test]
    fn keras_epochs() {
        assert_eq!(keras_epoch_header("Epoch 6/60"), Some(6));
        assert_eq!(keras_epoch_header("Epoch 6: val_loss improved"), None);
        let frame = |done, total, per_step, epoch_s| KerasFrame {
            done,
            total,
            per_step,
            epoch_s,
        };
        assert_eq!(
            keras_frame("750/750 - 250s - 333ms/step - accuracy: 0.7094 - loss: 0.8723"),
            Some(frame(750, 750, 0.333, Some(250.0)))
        );
        assert_eq!(keras_frame("step 2/9 - loss"), None);
    }

    #[test]
    fn words_are_not_keys() {
        let f = text("Saving model checkpoint to out: done in 3 s");
        assert_eq!(f, Fields::default());
    }

    #[test]
    fn held_out_shapes_of_steps_and_times() {
        // `key:value` with no space (modded-nanogpt), a rate with its unit
        // in the value (tqdm's loggable form).
        let f = text("step:15/8000 train_time:30726ms step_avg:2048.39ms");
        assert_eq!((f.step, f.either), (Some(15), Some(30.726)));
        let f =
            text("09:04:13.153 [I] Progress on: 50.0it/30.0kit rate:2.4s/it remaining:19:59:04");
        assert_eq!((f.step, f.duration), (Some(50), Some(2.4)));
        // CLU's "[512] steps_per_sec=…", TF Estimator's spaced pair and its
        // interval, NeMo-RL's step banner and "Total step time".
        let f = text(
            "I1129 09:09:18.016195 281473098641440 logging_writer.py:48] [512] steps_per_sec=1.25",
        );
        assert_eq!((f.step, f.duration), (Some(512), Some(0.8)));
        let f = text("INFO:tensorflow:loss = 6.2893708, step = 200 (26.026 sec)");
        assert_eq!((f.step, f.interval), (Some(200), Some(26.026)));
        assert_eq!(
            text("========================= Step 12/500 =========================").step,
            Some(12)
        );
        assert_eq!(text("  • Total step time: 92.38s").duration, Some(92.38));
        // Epoch and batch: mmcv, MXNet's Speedometer, ESPnet.
        let f = text(
            "2026-11-29 09:02:36,360 - mmdet - INFO - Epoch(train) [1][50/7330]\tlr: 2.018e-03, time: 0.462",
        );
        assert_eq!((f.step, f.duration), (Some(7380), Some(0.462)));
        let f = text(
            "2026-11-29 09:04:05,527 Node[0] Epoch[0] Batch [380-400]\tSpeed: 456.15 samples/sec",
        );
        assert_eq!((f.step, f.epoch), (Some(400), Some(0)));
        let f = text(
            "[spark-7f3a] 2026-11-29 09:03:08,534 (trainer:762) INFO: 1epoch:train:1-120batch: iter_time=1.914e-04",
        );
        assert_eq!((f.step, f.epoch), (Some(120), Some(1)));
        // A logger table's row (Stable-Baselines3), DeepSpeed-Chat's latency.
        assert_eq!(
            text("|    time_elapsed    | 21        |").elapsed,
            Some(21.0)
        );
        assert_eq!(text("|    iterations      | 4         |").step, Some(4));
        assert_eq!(
            text("Model Parameters: 1.316 B, Latency: 1.83s, TFLOPs: 106.37").duration,
            Some(1.83)
        );
    }

    #[test]
    fn keras_verbose_one_frames_carry_the_running_average() {
        let frame = |done, per_step, epoch_s| KerasFrame {
            done,
            total: 1200,
            per_step,
            epoch_s,
        };
        // The epoch's last frame: its seconds, validation included.
        assert_eq!(
            keras_frame(
                "1200/1200 ━━━━━━━━━━━━━━━━━━━━ 753s 627ms/step - accuracy: 0.2028 - loss: 2.0726"
            ),
            Some(frame(1200, 0.627, Some(753.0)))
        );
        // A frame mid-epoch: an ETA in any of Keras's three forms and the
        // average since the epoch began.
        for (eta, line) in [
            (
                "12:41",
                "   2/1200 ━━━━━━━━━━━━━━━━━━━━ 12:41 630ms/step - accuracy: 0.2672",
            ),
            (
                "1:02:03",
                " 600/1200 ━━━━━━━━━━━━━━━━━━━━ 1:02:03 6s/step - loss: 1.2",
            ),
            (
                "45s",
                "1130/1200 ━━━━━━━━━━━━━━━━━━━━ 45s 640ms/step - loss: 1.1",
            ),
        ] {
            let f = keras_frame(line).unwrap_or_else(|| panic!("{eta}"));
            assert_eq!(f.epoch_s, None, "{eta}");
        }
        // A last frame without its seconds, or a count past the total, is
        // not Keras.
        assert_eq!(keras_frame("1200/1200 ━━━━ 627ms/step - loss: 2.0"), None);
        assert_eq!(keras_frame("1300/1200 ━━━━ 12:41 627ms/step"), None);
        assert_eq!(keras_frame("5/9 files copied"), None);
    }

    #[test]
    fn a_table_under_its_header_row_is_read_by_column() {
        // pytorch-pfn-extras' PrintReport: blank validation cells between
        // evaluations; the iteration is the step, elapsed_time the clock.
        let ppe = table_header("epoch       iteration   train/loss  lr          val/loss    val/accuracy  elapsed_time").unwrap();
        let f = ppe
            .row("\u{1b}[J0           200         1.38469     0.0999973                             144.442       ")
            .unwrap();
        assert_eq!((f.step, f.elapsed), (Some(200), Some(144.442)));
        let f = ppe
            .row("2           2000        1.1437      0.0997261   1.17193     0.267544      1508.08       ")
            .unwrap();
        assert_eq!((f.step, f.elapsed), (Some(2000), Some(1508.08)));
        // fastai: one row per epoch, its wall time as mm:ss, after the
        // progress bar's last redraw.
        let fastai =
            table_header("█\repoch     train_loss  valid_loss  accuracy  time    ").unwrap();
        let f = fastai
            .row("█\r█\r12        0.997291    1.031334    0.457193  03:06     ")
            .unwrap();
        assert_eq!((f.step, f.duration), (Some(12), Some(186.0)));
        // skorch (tabulate): numbers right-aligned under their names, a
        // blank "cp" cell; colours already stripped by the scanner.
        let skorch =
            table_header("  epoch    train_loss    valid_acc    valid_loss    cp      dur")
                .unwrap();
        let f = skorch
            .row("     12        1.5341       0.4903        1.5168     +  45.3240")
            .unwrap();
        assert_eq!((f.step, f.duration), (Some(12), Some(45.324)));
        let f = skorch
            .row("    113        0.9321       0.7144        0.8862          46.1022")
            .unwrap();
        assert_eq!((f.step, f.duration), (Some(113), Some(46.1022)));
        // A CSV export (TensorBoard's scalars "Download CSV"; pandas
        // `to_csv`): comma-separated, epoch seconds as the stamp.
        let tb = table_header("Wall time,Step,Value").unwrap();
        let f = tb.row("1795939341.919558,50,1.1504181623458862").unwrap();
        assert_eq!(f.step, Some(50));
        assert!((f.stamp.unwrap().t - 1795939341.919558).abs() < 1e-6);
        let pd = table_header("step,loss,step_time_s\r").unwrap();
        let f = pd.row("120,2.31,0.842").unwrap();
        assert_eq!((f.step, f.duration), (Some(120), Some(0.842)));
        // A sentence with commas is no header.
        assert_eq!(table_header("loss went up, then down, then up"), None);
        // Names and values of more than one word, two spaces apart
        // (nerfstudio's LocalWriter): the unit comes with the value.
        let nerf = table_header(
            "Step (% Done)       Train Iter (time)    ETA (time)           Train Rays / Sec",
        )
        .unwrap();
        let f = nerf
            .row("12300 (12.30%)      118.204 ms           2 h, 51 m, 2 s       34.65 K")
            .unwrap();
        assert_eq!(f.step, Some(12300));
        assert!((f.duration.unwrap() - 0.118204).abs() < 1e-9);
        // Tab-separated, CRLF (dvclive's metric TSV): by index, and a Unix
        // time in milliseconds is the stamp.
        let tsv = table_header("timestamp\tstep\tloss\r").unwrap();
        let f = tsv.row("1795939360796\t1\t2.173009572184628\r").unwrap();
        assert_eq!(f.step, Some(1));
        assert!((f.stamp.unwrap().t - 1_795_939_360.796).abs() < 1e-3);
        // Words are no header; a header's rows start with a number.
        assert_eq!(table_header("the run is slow since this morning"), None);
        assert_eq!(
            table_header("Step (% Done)  Train Rays / Sec  Test PSNR"),
            None
        );
        assert_eq!(fastai.row("Better model found at epoch 3"), None);
    }

    #[test]
    fn a_value_before_its_key() {
        // darknet: the iteration, then "value key" pairs between commas.
        let f = text(
            " 998: 7.116265, 6.854899 avg loss, 0.000992 rate, 3.455095 seconds, 63872 images, 18.032743 hours left",
        );
        assert_eq!((f.step, f.duration), (Some(998), Some(3.455095)));
        // Not a step or a time: a count of images, a rate with no unit, a
        // clock at the start of a line.
        let f = text("Loaded: 0.000045 seconds");
        assert_eq!((f.step, f.duration), (None, None));
        assert_eq!(text("09:02: 1.5, 64 images").step, None);
    }

    #[test]
    fn step_keys_and_counts_of_other_trainers() {
        // CycleGAN's losses line: iters within the epoch, the epoch beside.
        let f = text("(epoch: 18, iters: 1222, time: 0.210, data: 0.003) D_A: 0.205 G_A: 0.763");
        assert_eq!(
            (f.step, f.epoch, f.duration),
            (Some(1222), Some(18), Some(0.21))
        );
        // flashlight: updates and the batch's milliseconds.
        let f = text(
            "epoch:        1 | nupdates:        12000 | lr: 0.300000 | runtime: 00:02:30 | bch(ms): 750.28 | smp(ms): 2.38",
        );
        assert_eq!(f.step, Some(12000));
        assert!((f.duration.unwrap() - 0.75028).abs() < 1e-9);
        // char-rnn: a count of the total opening the line.
        let f = text(
            "2260/237500 (epoch 0.476), train_loss = 3.31220374, grad/param norm = 2.3800e-02, time/batch = 0.1590s",
        );
        assert_eq!(
            (f.step, f.epoch, f.duration),
            (Some(2260), None, Some(0.159))
        );
        // HiFi-GAN: spaced keys.
        let f = text("Steps : 1115, Gen Loss Total : 87.564, Mel-Spec. Error : 1.452, s/b : 0.444");
        assert_eq!((f.step, f.duration), (Some(1115), Some(0.444)));
        // A metric logger's bracketed count, after its epoch.
        let f = text(
            "Train: data epoch: [2]  [1450/2834]  eta: 0:14:18  lr: 0.000009  loss: 2.7206  time: 0.6218  data: 0.0011",
        );
        assert_eq!(
            (f.step, f.epoch, f.duration),
            (Some(1450), Some(2), Some(0.6218))
        );
        let f = text("Epoch [1/30] Step [100/500] loss 0.3");
        assert_eq!(f.step, Some(100));
    }

    #[test]
    fn counts_that_are_not_training_steps() {
        // An evaluation pass's batches.
        assert_eq!(
            text("Test: [ 10/196]  Time  0.207 ( 0.312)  Loss 1.2").step,
            None
        );
        assert_eq!(text("Eval [30/100] loss 0.4").step, None);
        // Keras' epoch frame is read by its own reader, not as a count.
        assert_eq!(
            text("750/750 - 250s - 333ms/step - accuracy: 0.7060").step,
            None
        );
        // A date is no count; an epoch with no count sets nothing.
        assert_eq!(text("11/29 09:02:13 loss 2.1").step, None);
        assert_eq!(text("epoch: 3 | lr: 0.1").epoch, None);
        assert_eq!(text("[3/5] done").step, None);
    }

    #[test]
    fn result_rows_of_a_tuner() {
        let v: serde_json::Value = serde_json::from_str(
            r#"{"info": {"learner": {"x": 1}}, "training_iteration": 3, "timestamp": 1795939365, "time_this_iter_s": 32.59}"#,
        )
        .unwrap();
        let f = json_fields(&v);
        assert_eq!((f.step, f.duration), (Some(3), Some(32.59)));
        assert!(f.stamp.is_some_and(|s| s.utc));
    }

    #[test]
    fn a_count_with_thousands_separators() {
        let f = text(
            "[EDSR_..][epoch:  3, iter:  20,100, lr:(1.000e-04,)] [eta: 1 day, 2:03:04, time (data): 0.312 (0.002)] l_pix: 1.2e-02",
        );
        assert_eq!((f.step, f.epoch), (Some(20100), Some(3)));
        // A list of figures is not one number.
        assert_eq!(text("step: 12, 3456 tokens").step, Some(12));
    }
    #[test]
    fn held_out_shapes_of_other_toolkits() {
        // ML-Agents: a step count closed by a full stop.
        let f =
            text("[INFO] Walker. Step: 600000. Time Elapsed: 1042.989 s. Mean Reward: 585.963.");
        assert_eq!((f.step, f.elapsed), (Some(600000), Some(1042.989)));
        // TF-Slim: seconds per step in brackets (the step itself is the
        // scanner's "step N" rule).
        let f = text("INFO:tensorflow:global step 250: loss = 16.4292 (0.356 sec/step)");
        assert_eq!(f.duration, Some(0.356));
        // MindSpore: a per-step time in milliseconds, the epoch's time beside.
        let f = text("epoch time: 139191.428 ms, per step time: 89.111 ms");
        assert!((f.duration.unwrap() - 0.089111).abs() < 1e-9);
        // HugeCTR: the time of a block of iterations is per iteration.
        let f = text(
            "[HCTR][08:04:32.857][INFO][RK0][main]: Iter: 11000 Time(1000 iters): 16.2278s Loss: 0.132279",
        );
        assert_eq!(f.step, Some(11000));
        assert!((f.duration.unwrap() - 0.0162278).abs() < 1e-9);
        // MXNet's estimator: epoch and batch in brackets, the interval since the last line.
        let f = text(
            "[Epoch 1][Batch 950][Samples 248448] time/interval: 14.370s training accuracy: 0.0889",
        );
        assert_eq!(
            (f.step, f.epoch, f.interval),
            (Some(950), Some(1), Some(14.37))
        );
        // Chainer's pretty-printed log: quoted keys, one per line.
        assert_eq!(text("        \"iteration\": 1000,").step, Some(1000));
        assert_eq!(
            text("        \"elapsed_time\": 120.89078151243582").elapsed,
            Some(120.89078151243582)
        );
        // An epoch with no step beside it.
        let f =
            text("29 Nov 09:02    INFO  epoch 0 training [time: 41.96s, train loss: 9874.8881]");
        assert_eq!(
            (f.epoch_alone, f.duration, f.step),
            (Some(0), Some(41.96), None)
        );
        assert_eq!(
            text("2026-11-29 08:02:13.250600: Epoch 12").epoch_alone,
            Some(12)
        );
        assert_eq!(text("2026-11-29 08:02:13.250600: Epoch 12").step, None);
    }
}
