//! Thermal samples and training-log step samples, placed in time.

use serde::Serialize;

/// One sample; a field the GPU did not report is `None`.
impl ThermalSample {
    /// A sample with nothing read yet and no time (NaN until placed).
    pub fn untimed() -> ThermalSample {
        ThermalSample {
            t: f64::NAN,
            temp_c: None,
            power_w: None,
            sm_clock_mhz: None,
            util_pct: None,
            thermal_flag: None,
            power_cap_flag: None,
            cpu_temp_c: None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ThermalSample {
    /// Seconds since 1970 of the sample's local wall-clock time (nvidia-smi
    /// prints local time without a zone; training logs do the same).
    pub t: f64,
    pub temp_c: Option<f32>,
    pub power_w: Option<f32>,
    pub sm_clock_mhz: Option<f32>,
    pub util_pct: Option<f32>,
    /// Thermal slowdown (SW or HW) reported active, when sampled.
    pub thermal_flag: Option<bool>,
    /// SW power cap reported active, when sampled.
    pub power_cap_flag: Option<bool>,
    /// The hottest CPU thermal zone, when sampled (GB10's CPU cluster
    /// heats too).
    pub cpu_temp_c: Option<f32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct TrainSample {
    /// Seconds: absolute (like the thermal samples) when the log is
    /// anchored, else since the progress bar started.
    pub t: f64,
    pub step: u64,
    pub sec_per_step: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MarkerKind {
    Evaluation,
    Checkpoint,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Marker {
    pub t: f64,
    pub kind: MarkerKind,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TrainLog {
    pub samples: Vec<TrainSample>,
    /// Whether `t` is absolute time.
    pub anchored: bool,
    /// How the absolute time was found.
    pub anchor_source: Option<String>,
    pub markers: Vec<Marker>,
    pub lines_read: u64,
    /// The log's times are UTC (`…Z` or Unix stamps) and no offset was
    /// given, so they may be whole hours off the sampler's local time.
    pub utc_unshifted: bool,
    /// The owner gave the start time: the log's clock is theirs, never
    /// shifted.
    pub owner_anchored: bool,
    /// Pauses (evaluation, checkpoint saves) found in a sparse log's step
    /// durations, each counted once: (when it ended, seconds).
    pub pauses: Vec<(f64, f64)>,
    /// Its stamps carry no year (read in `log_lines::YEARLESS`): the year
    /// comes from the samples it is set beside (`line_up::dated`).
    pub yearless: bool,
    /// Its stamps are times of day only (on 1 January `YEARLESS`): the day
    /// comes from the samples too.
    pub dateless: bool,
}
