//! Reads temperature and power samples: the seed sampler's CSV
//! (`timestamp,temperature.gpu,power.draw`), this project's richer one, and
//! plain `nvidia-smi --query-gpu=… --format=csv` output with or without
//! units and header. Repeated headers (a restarted sampler), `[N/A]`,
//! `[Not Supported]`, blank lines and CRLF are all taken in stride.
//!
//! Reads line by line, so a day of 1 Hz samples costs a few MB.

pub use crate::readings::samples::ThermalSample;

use std::io::BufRead;

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ThermalCsvError {
    #[error("no timestamped samples in it")]
    NoSamples,
    #[error("line {line}: {what}")]
    BadLine { line: usize, what: String },
    #[error("could not read it: {0}")]
    Io(String),
    #[error("{0}")]
    Implausible(String),
}

impl ThermalCsvError {
    pub fn hint(&self) -> &'static str {
        "Sample with `bash assets/thermal-sample.sh 30 thermal.log` (or `nvidia-smi --query-gpu=timestamp,temperature.gpu,power.draw --format=csv -l 30 > thermal.csv`) and give me the file."
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Field {
    Timestamp,
    Temp,
    Power,
    SmClock,
    Util,
    ReasonsMask,
    ThermalFlag,
    PowerCapFlag,
    /// A cumulative thermal-slowdown counter (µs): rising means active.
    ThermalCounter,
    CpuTemp,
    Other,
}

fn field_of(name: &str) -> Field {
    let n = name
        .trim()
        .split(" [")
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    match n.as_str() {
        "timestamp" => Field::Timestamp,
        "temperature.gpu" => Field::Temp,
        "power.draw" | "power.draw.average" | "power.draw.instant" => Field::Power,
        "clocks.sm" | "clocks.current.sm" => Field::SmClock,
        "utilization.gpu" => Field::Util,
        "clocks_event_reasons.active" | "clocks_throttle_reasons.active" => Field::ReasonsMask,
        "clocks_event_reasons.sw_thermal_slowdown"
        | "clocks_throttle_reasons.sw_thermal_slowdown"
        | "clocks_event_reasons.hw_thermal_slowdown"
        | "clocks_throttle_reasons.hw_thermal_slowdown" => Field::ThermalFlag,
        "clocks_event_reasons.sw_power_cap" | "clocks_throttle_reasons.sw_power_cap" => {
            Field::PowerCapFlag
        }
        "clocks_event_reasons_counters.sw_thermal_slowdown"
        | "clocks_event_reasons_counters.hw_thermal_slowdown" => Field::ThermalCounter,
        "cpu.temp.max" | "cpu_temp_max" => Field::CpuTemp,
        _ => field_by_pattern(&n),
    }
}

/// Other samplers' own column names (`gpu_temp_c`, `power_w`,
/// `sm_clock_mhz`, `time`): the field from the words in the name, so a
/// hand-rolled logger is read like nvidia-smi's CSV.
fn field_by_pattern(n: &str) -> Field {
    let parts: Vec<&str> = n
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|p| !p.is_empty())
        .collect();
    let has = |w: &str| parts.contains(&w);
    let any = |ws: &[&str]| ws.iter().any(|w| has(w));
    if any(&["limit", "cap", "max", "min", "enforced", "default"]) && !any(&["temp", "temperature"])
    {
        return Field::Other;
    }
    if any(&["cpu", "mem", "memory", "hbm"]) {
        return if any(&["temp", "temperature"]) && has("cpu") {
            Field::CpuTemp
        } else {
            Field::Other
        };
    }
    if any(&["timestamp", "time", "ts", "datetime", "date"]) && parts.len() <= 2 {
        return Field::Timestamp;
    }
    if any(&["temp", "temperature", "gtemp"]) {
        return Field::Temp;
    }
    if any(&["power", "pwr", "watts", "watt"]) {
        return Field::Power;
    }
    if any(&["clock", "clk", "clocks", "sclk", "mhz"]) && !any(&["mem", "memory"]) {
        return Field::SmClock;
    }
    if any(&["util", "utilization", "utilisation"]) {
        return Field::Util;
    }
    Field::Other
}

/// The seed sampler's columns, used when a file has no header.
const SEED_COLUMNS: [Field; 3] = [Field::Timestamp, Field::Temp, Field::Power];

fn is_header(line: &str) -> bool {
    // A row starts with its time or a number; a header with a name. The
    // test runs on every row, so the cheap part comes first.
    if line.trim_start().starts_with(|c: char| c.is_ascii_digit()) {
        return false;
    }
    line.split(',').any(|c| field_of(c) == Field::Timestamp)
        || line.to_ascii_lowercase().contains("temperature.gpu")
}

/// A CSV header naming a time and a temperature or a power column, in any
/// sampler's words.
fn names_thermal_columns(line: &str) -> bool {
    let fields: Vec<Field> = line.split(',').map(field_of).collect();
    fields.len() >= 2
        && fields.contains(&Field::Timestamp)
        && (fields.contains(&Field::Temp) || fields.contains(&Field::Power))
}

/// "62", "98.45 W", "1545 MHz", "100 %"; `None` for [N/A] and friends.
/// A finite number, or nothing: NaN and inf never reach the analysis or
/// the chart.
pub(crate) fn number(cell: &str) -> Option<f32> {
    let c = cell.trim();
    let c = c.split_whitespace().next()?;
    c.parse::<f32>().ok().filter(|v| v.is_finite())
}

/// Values outside what a GB10 can report are dropped (a Kelvin
/// temperature, milliwatts, a clock in Hz), never analysed as °C, W or MHz.
pub(crate) fn plausible(v: Option<f32>, lo: f32, hi: f32) -> Option<f32> {
    v.filter(|x| (lo..=hi).contains(x))
}

fn flag(cell: &str) -> Option<bool> {
    match cell.trim().to_ascii_lowercase().as_str() {
        "active" => Some(true),
        "not active" => Some(false),
        _ => None,
    }
}

/// NVML bits: SW thermal 0x20, HW thermal 0x40, SW power cap 0x04.
fn mask(cell: &str) -> Option<(bool, bool)> {
    let c = cell.trim();
    let hex = c.strip_prefix("0x").or_else(|| c.strip_prefix("0X"))?;
    let v = u64::from_str_radix(hex, 16).ok()?;
    Some((v & 0x60 != 0, v & 0x04 != 0))
}

/// "2025/10/20 14:03:11.123" (or with dashes) as seconds.
pub fn parse_time(cell: &str) -> Option<f64> {
    let c = cell.trim().replace('/', "-");
    let (date, time) = c.split_once([' ', 'T'])?;
    let mut d = date.split('-').map(|p| p.parse::<i32>().ok());
    let (y, mo, da) = (d.next()??, d.next()??, d.next()??);
    let mut t = time.trim_end_matches('Z').split(':');
    let h: i32 = t.next()?.parse().ok()?;
    let mi: i32 = t.next()?.parse().ok()?;
    let s: f64 = t.next()?.replace(',', ".").parse().ok()?;
    crate::extract::log_lines::civil(y.into(), mo.into(), da.into(), h.into(), mi.into(), s)
}

/// No sample line is this long; a longer one is not a thermal CSV.
const MAX_LINE_BYTES: u64 = 64 * 1024;

/// Read every sample; lines that are not samples (headers, blanks, the
/// `$ nvidia-smi …` command line) are skipped.
pub fn read_thermal(input: impl BufRead) -> Result<Vec<ThermalSample>, ThermalCsvError> {
    let mut columns: Vec<Field> = SEED_COLUMNS.to_vec();
    // Set by a `nvidia-smi dmon` header: its rows are whitespace columns.
    let mut dmon: Option<Vec<crate::extract::dmon::DmonColumn>> = None;
    // Bounded: a file of any length is held as at most a fixed number of
    // samples (a day at 1 Hz whole), so reading it never takes the pool.
    let mut out = crate::readings::bounded::Bounded::new();
    // The first line skipped for its length, if any.
    let mut overlong: Option<usize> = None;
    // Values dropped as impossible, by field, to say so when none is left.
    let (mut odd_temp, mut odd_power) = (None::<f32>, None::<f32>);
    // The last value of each cumulative counter column, in column order.
    let mut counters: Vec<Option<f32>> = Vec::new();
    let mut input = input;
    let mut raw = Vec::new();
    for i in 0.. {
        raw.clear();
        let n = std::io::Read::take(&mut input, MAX_LINE_BYTES)
            .read_until(b'\n', &mut raw)
            .map_err(|e| ThermalCsvError::Io(e.to_string()))?;
        if n == 0 {
            break;
        }
        if raw.last() != Some(&b'\n') && n as u64 == MAX_LINE_BYTES {
            // A line longer than any sample line is junk among samples:
            // skipped to its end, not a reason to refuse the whole file.
            // Only a file that is nothing but such lines is refused.
            loop {
                raw.clear();
                let m = std::io::Read::take(&mut input, MAX_LINE_BYTES)
                    .read_until(b'\n', &mut raw)
                    .map_err(|e| ThermalCsvError::Io(e.to_string()))?;
                if m == 0 || raw.last() == Some(&b'\n') {
                    break;
                }
            }
            overlong = Some(overlong.unwrap_or(i + 1));
            continue;
        }
        // Valid UTF-8 (every sampler's output) is checked by the fast path;
        // only a damaged line pays for the lossy copy.
        let text = match std::str::from_utf8(&raw) {
            Ok(t) => std::borrow::Cow::Borrowed(t),
            Err(_) => String::from_utf8_lossy(&raw),
        };
        let line = text.trim_end_matches(['\n', '\r']).trim();
        if line.starts_with('#') {
            if let Some(cols) = crate::extract::dmon::dmon_header(line) {
                dmon = Some(cols);
            }
            continue;
        }
        if line.is_empty() || line.starts_with('$') {
            continue;
        }
        if let Some(cols) = &dmon {
            match crate::extract::dmon::dmon_row(line, cols) {
                crate::extract::dmon::DmonRow::Sample(s) => out.push(s),
                crate::extract::dmon::DmonRow::NoTime => {
                    return Err(ThermalCsvError::BadLine {
                        line: i + 1,
                        what: crate::extract::dmon::NO_TIME.into(),
                    });
                }
                crate::extract::dmon::DmonRow::Skip => {}
            }
            continue;
        }
        if is_header(line) {
            columns = line.split(',').map(field_of).collect();
            continue;
        }
        let mut s = ThermalSample::untimed();
        let mut counter_slot = 0usize;
        // No Vec per row: a day at 1 Hz is 86,400 of them.
        for (field, cell) in columns.iter().zip(line.split(',')) {
            match field {
                Field::Timestamp => s.t = parse_time(cell).unwrap_or(f64::NAN),
                Field::Temp => {
                    let v = number(cell);
                    s.temp_c = plausible(v, -40.0, 130.0);
                    if s.temp_c.is_none() && v.is_some() {
                        odd_temp = v;
                    }
                }
                Field::Power => {
                    let v = number(cell);
                    s.power_w = plausible(v, 0.0, 2000.0);
                    if s.power_w.is_none() && v.is_some() {
                        odd_power = v;
                    }
                }
                Field::SmClock => s.sm_clock_mhz = plausible(number(cell), 0.0, 10_000.0),
                Field::Util => s.util_pct = plausible(number(cell), 0.0, 100.0),
                Field::ReasonsMask => {
                    if let Some((thermal, cap)) = mask(cell) {
                        s.thermal_flag = Some(s.thermal_flag.unwrap_or(false) || thermal);
                        s.power_cap_flag = Some(s.power_cap_flag.unwrap_or(false) || cap);
                    }
                }
                Field::ThermalFlag => {
                    if let Some(f) = flag(cell) {
                        s.thermal_flag = Some(s.thermal_flag.unwrap_or(false) || f);
                    }
                }
                Field::PowerCapFlag => {
                    if let Some(f) = flag(cell) {
                        s.power_cap_flag = Some(s.power_cap_flag.unwrap_or(false) || f);
                    }
                }
                Field::ThermalCounter => {
                    // Counters only ever grow: growth since the last sample
                    // means thermal slowdown was active in between, even if
                    // the instantaneous flag missed it.
                    if let Some(v) = number(cell) {
                        let key = counter_slot;
                        counter_slot += 1;
                        if let Some(prev) = counters.get(key).copied().flatten() {
                            if v > prev {
                                s.thermal_flag = Some(true);
                            } else if s.thermal_flag.is_none() {
                                s.thermal_flag = Some(false);
                            }
                        }
                        if counters.len() <= key {
                            counters.resize(key + 1, None);
                        }
                        counters[key] = Some(v);
                    }
                }
                Field::CpuTemp => s.cpu_temp_c = plausible(number(cell), -40.0, 130.0),
                Field::Other => {}
            }
        }
        if s.t.is_nan() {
            // A line with a value but no readable time cannot be placed.
            let cells: Vec<&str> = line.split(',').collect();
            if cells.len() >= 2
                && cells.iter().any(|c| number(c).is_some())
                && !columns.contains(&Field::Timestamp)
            {
                return Err(ThermalCsvError::BadLine {
                    line: i + 1,
                    what: "the header has no timestamp column".into(),
                });
            }
            continue;
        }
        out.push(s);
    }
    let mut out = out.finish();
    if out.is_empty()
        && let Some(line) = overlong
    {
        return Err(ThermalCsvError::BadLine {
            line,
            what: format!(
                "it is longer than {} KiB, which no sample line is (is this the right file?)",
                MAX_LINE_BYTES / 1024
            ),
        });
    }
    if out.is_empty() {
        return Err(ThermalCsvError::NoSamples);
    }
    if let Some(v) = odd_temp
        && out.iter().all(|s| s.temp_c.is_none())
    {
        return Err(ThermalCsvError::Implausible(format!(
            "every temperature is outside -40 to 130 °C (for example {v}): Kelvin or another unit, not the °C nvidia-smi prints"
        )));
    }
    if let Some(v) = odd_power
        && out.iter().all(|s| s.power_w.is_none())
    {
        return Err(ThermalCsvError::Implausible(format!(
            "every power reading is outside 0 to 2000 W (for example {v}): milliwatts or another unit, not the W nvidia-smi prints"
        )));
    }
    out.sort_by(|a, b| a.t.total_cmp(&b.t));
    Ok(out)
}

/// True when a paste is thermal samples / a training log.
pub fn looks_like_thermal_paste(text: &str) -> bool {
    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    first.contains("temperature.gpu")
        || first.contains("power.draw")
        || names_thermal_columns(first)
        || crate::extract::dmon::dmon_header(first.trim()).is_some()
        || {
            let rows = text
                .lines()
                .filter(|l| {
                    let b = l.trim().as_bytes();
                    b.len() > 20 && b[4] == b'/' && b[7] == b'/' && l.contains(',')
                })
                .count();
            rows >= 2
        }
}

const DMON_HINT: &str = "Sample with `bash assets/thermal-sample.sh 30 thermal.log` (timestamps, power, temperature, clocks and the throttle flags) and give me the file; `nvidia-smi dmon` works too when it has power and temperature and runs with `-o DT`.";

/// The registry's reader for thermal samples (CSV) (kept raw: the analysis re-reads it).
pub struct ThermalPaste;

impl crate::extract::reading::Reader for ThermalPaste {
    fn kind(&self) -> &'static str {
        "thermal samples (CSV)"
    }
    fn claims(&self, text: &str) -> bool {
        looks_like_thermal_paste(text)
    }
    fn read(
        &self,
        text: &str,
    ) -> Result<crate::extract::reading::Reading, crate::extract::reading::ReadProblem> {
        // dmon output is checked here, so a paste that cannot be placed in
        // time or has no power or temperature is said so at once.
        let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        if let Some(cols) = crate::extract::dmon::dmon_header(first.trim()) {
            if !crate::extract::dmon::has_power_or_temperature(&cols) {
                return Err(crate::extract::reading::problem(
                    self.kind(),
                    "this `nvidia-smi dmon` output has no power or temperature column (`-s p` adds them)",
                    DMON_HINT,
                ));
            }
            if let Err(e) = read_thermal(text.as_bytes()) {
                return Err(crate::extract::reading::problem(self.kind(), &e, DMON_HINT));
            }
        }
        Ok(crate::extract::reading::Reading::ThermalCsv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Vec<ThermalSample> {
        read_thermal(text.as_bytes()).unwrap()
    }

    #[test]
    fn the_seed_sampler_format() {
        let s =
            read("timestamp,temperature.gpu,power.draw\n2025/10/20 14:03:11.123, 62, 98.45 W\n");
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].temp_c, Some(62.0));
        assert_eq!(s[0].power_w, Some(98.45));
        assert_eq!(s[0].t, parse_time("2025-10-20 14:03:11.123").unwrap());
    }

    #[test]
    fn other_samplers_column_names() {
        for (header, row) in [
            (
                "timestamp,gpu_temp_c,power_w,gpu_clock_mhz",
                "2025-11-24T09:01:00Z,58,95.7,2418",
            ),
            (
                "time,temp_c,power_w,sm_clock_mhz",
                "2025-11-24 09:01:00,58,95.7,2418",
            ),
            (
                "ts,gpu_temperature,gpu_power_watts,power_limit_w,mem_temp_c",
                "2025-11-24T09:01:00,58,95.7,240,70",
            ),
            (
                "datetime, GPU Temp (C), Power (W), SM Clock (MHz)",
                "2025-11-24 09:01:00, 58, 95.7, 2418",
            ),
        ] {
            let text = format!("{header}\n{row}\n");
            assert!(looks_like_thermal_paste(&text), "{header}");
            let s = read(&text);
            assert_eq!(s.len(), 1, "{header}");
            assert_eq!(s[0].temp_c, Some(58.0), "{header}");
            assert_eq!(s[0].power_w, Some(95.7), "{header}");
        }
        assert_eq!(field_of("cpu_temp_c"), Field::CpuTemp);
        assert_eq!(field_of("power.limit"), Field::Other);
        assert_eq!(field_of("memory_clock_mhz"), Field::Other);
        assert_eq!(field_of("gpu_clock_mhz"), Field::SmClock);
    }

    #[test]
    fn headerless_rows_are_read_as_the_seed_columns() {
        let s = read(
            "2025/10/20 14:03:11.123, 62, 98.45 W\r\n2025/10/20 14:03:41.123, 63, 99.10 W\r\n",
        );
        assert_eq!(s.len(), 2);
        assert_eq!(s[1].temp_c, Some(63.0));
    }

    #[test]
    fn real_nvidia_smi_query_loop_with_units_and_its_command_line() {
        let s = read(include_str!(
            "../../tests/fixtures/nvidia-smi-query-timestamp-loop.txt"
        ));
        assert!(s.len() >= 2);
        assert_eq!(s[0].power_w, Some(44.94));
        assert_eq!(s[0].util_pct, Some(100.0));
        assert_eq!(s[0].temp_c, None);
    }

    #[test]
    fn restarts_na_and_event_reasons() {
        let text = "timestamp,temperature.gpu,power.draw,clocks.sm,utilization.gpu,clocks_event_reasons.active,clocks_event_reasons.sw_thermal_slowdown,clocks_event_reasons.hw_thermal_slowdown,clocks_event_reasons.sw_power_cap\n\
2026/11/29 10:00:00.000, 70, 98.1, 2400, 99, 0x0000000000000000, Not Active, Not Active, Not Active\n\
\n\
timestamp,temperature.gpu,power.draw,clocks.sm,utilization.gpu,clocks_event_reasons.active,clocks_event_reasons.sw_thermal_slowdown,clocks_event_reasons.hw_thermal_slowdown,clocks_event_reasons.sw_power_cap\n\
2026/11/29 10:00:30.000, [N/A], [Not Supported], 1200, 99, 0x0000000000000020, Active, Not Active, Not Active\n";
        let s = read(text);
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].thermal_flag, Some(false));
        assert_eq!(s[1].thermal_flag, Some(true));
        assert_eq!(s[1].temp_c, None);
        assert_eq!(s[1].power_w, None);
        assert_eq!(s[1].sm_clock_mhz, Some(1200.0));
    }

    #[test]
    fn nothing_readable_says_so() {
        assert_eq!(
            read_thermal("hello\n".as_bytes()),
            Err(ThermalCsvError::NoSamples)
        );
    }
}
