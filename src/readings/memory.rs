//! What a memory paste (`free` with any flag, `/proc/meminfo`) says, in bytes.

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FreeUnit {
    /// `free -g`: whole GiB.
    Gib,
    /// `free -m`: whole MiB.
    Mib,
    /// `free` / `free -k`: KiB.
    Kib,
    /// `free -b`: bytes.
    Bytes,
    /// `free -h`: each value carries its own binary suffix (`Gi`).
    Human,
    /// `free -h --si`: suffixes without `i` are powers of 1000 (`G` = GB).
    HumanSi,
    /// `/proc/meminfo`: kB that are KiB, by name (`MemAvailable`).
    Meminfo,
    /// The owner said the available figure in words ("116 GiB available").
    Said,
}

impl FreeUnit {
    pub fn flag(self) -> &'static str {
        match self {
            FreeUnit::Gib => "free -g",
            FreeUnit::Mib => "free -m",
            FreeUnit::Kib => "free",
            FreeUnit::Bytes => "free -b",
            FreeUnit::Human => "free -h",
            FreeUnit::HumanSi => "free -h --si",
            FreeUnit::Meminfo => "/proc/meminfo",
            FreeUnit::Said => "your words",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FreeReading {
    pub unit: FreeUnit,
    /// The `available` cell exactly as printed ("115", "114Gi", "2,3Gi").
    pub available_text: String,
    pub available_bytes: f64,
    /// `total` and `used`; None when the owner gave only the available figure.
    pub total_bytes: Option<f64>,
    pub used_bytes: Option<f64>,
    /// Memory nothing uses at all (`free`, MemFree): what CUDA's free
    /// figure reports on GB10 before the kernel reclaims page cache.
    pub free_bytes: Option<f64>,
    pub buff_cache_bytes: Option<f64>,
}
