//! The peak memory a trainer reports about itself: axolotl's
//! `memory/max_allocated (GiB)` and `memory/device_reserved (GiB)`, and
//! torchtune's "GPU peak memory allocation: …" lines (recent torchtune
//! prints GiB, older releases divided by 1e9 and printed GB: the unit on the
//! line decides). Measured on the owner's own run, so worth setting beside
//! the plan.

use crate::extract::re;
use regex::Regex;
use std::sync::LazyLock;

/// One figure as the trainer printed it.
#[derive(Debug, Clone, PartialEq)]
pub struct Reported {
    pub value: f64,
    /// "GiB" or "GB", from the line itself.
    pub unit: &'static str,
}

impl Reported {
    pub fn bytes(&self) -> f64 {
        if self.unit == "GiB" {
            self.value * crate::calc::units::GIB
        } else {
            self.value * crate::calc::units::GB
        }
    }
}

/// The last of each figure in the paste.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TrainerMemory {
    /// Peak of what PyTorch handed to tensors.
    pub max_allocated: Option<Reported>,
    /// What PyTorch's caching allocator held from the device (allocated
    /// plus its cache): the larger and truer share of the pool.
    pub reserved: Option<Reported>,
}

static ALLOCATED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?:'memory/max_allocated \((GiB)\)':\s*'?([\d.]+)|GPU peak memory alloc(?:ation)?:\s*([\d.]+)\s*(GiB|GB))",
    )
});
static RESERVED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?:'memory/device_reserved \((GiB)\)':\s*'?([\d.]+)|GPU peak memory reserved:\s*([\d.]+)\s*(GiB|GB))",
    )
});

fn last(pattern: &Regex, text: &str) -> Option<Reported> {
    let c = pattern.captures_iter(text).last()?;
    let (value, unit) = match (c.get(2), c.get(3)) {
        (Some(v), _) => (v.as_str(), "GiB"),
        (None, Some(v)) => (v.as_str(), c.get(4).map_or("GB", |u| u.as_str())),
        _ => return None,
    };
    Some(Reported {
        value: value.parse().ok()?,
        unit: if unit == "GiB" { "GiB" } else { "GB" },
    })
}

/// The trainer's own memory report, when the paste has one.
pub fn trainer_memory(text: &str) -> Option<TrainerMemory> {
    let m = TrainerMemory {
        max_allocated: last(&ALLOCATED, text),
        reserved: last(&RESERVED, text),
    };
    (m != TrainerMemory::default()).then_some(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axolotls_summary_line() {
        let m = trainer_memory(&crate::extract::shared_fixture("axolotl-summary.txt")).unwrap();
        assert_eq!(m.max_allocated.unwrap().value, 2.42);
        let r = m.reserved.unwrap();
        assert_eq!((r.value, r.unit), (7.89, "GiB"));
    }

    #[test]
    fn torchtunes_memory_stats() {
        let m = trainer_memory("INFO:torchtune.utils._log:Memory stats after model init:\n\tGPU peak memory allocation: 16.83 GiB\n\tGPU peak memory reserved: 16.98 GiB\n\tGPU peak memory active: 16.83 GiB").unwrap();
        assert_eq!(m.max_allocated.unwrap().value, 16.83);
        assert_eq!(m.reserved.unwrap().value, 16.98);
        // Older torchtune divided by 1e9 and said GB.
        let old = trainer_memory("Memory stats after model init:\n\tGPU peak memory allocation: 13.96 GB\n\tGPU peak memory reserved: 13.98 GB").unwrap();
        let r = old.reserved.unwrap();
        assert_eq!((r.value, r.unit), (13.98, "GB"));
        assert_eq!(r.bytes(), 13.98e9);
    }

    #[test]
    fn a_log_without_a_memory_report() {
        assert!(trainer_memory("Step 1 | loss:2.08 lr:2e-05").is_none());
    }
}
