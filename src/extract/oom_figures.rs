//! The memory figures a PyTorch CUDA OOM message prints: what the process
//! held, what the allocator had reserved but not used, what the GPU had free.
//! Both message formats are read: PyTorch ≥ 2.1 ("GPU 0 has a total capacity
//! of … of which … is free. … this process has … memory in use. Of the
//! allocated memory … is allocated by PyTorch, and … is reserved by PyTorch
//! but unallocated.") and the older parenthesised one ("(GPU 0; … total
//! capacity; … already allocated; … free; … reserved in total by PyTorch)").

use crate::extract::re;
use regex::Regex;
use std::sync::LazyLock;

/// One size as PyTorch printed it, with its bytes.
#[derive(Debug, Clone, PartialEq)]
pub struct Printed {
    /// "102.33 GiB", verbatim.
    pub text: String,
    pub bytes: f64,
}

/// The process the kernel's OOM killer chose, from its "Killed process" line.
#[derive(Debug, Clone, PartialEq)]
pub struct Killed {
    pub pid: u64,
    pub name: String,
    /// anon-rss, kB as the kernel prints it (KiB).
    pub anon_rss_kib: Option<u64>,
}

/// What the OOM message said about memory when the allocation failed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OomFigures {
    /// The kernel OOM killer's victim.
    pub killed: Option<Killed>,
    /// "Tried to allocate 1.95 GiB": the request that failed.
    pub tried: Option<Printed>,
    pub capacity: Option<Printed>,
    pub free: Option<Printed>,
    /// This process's use, PyTorch's and CUDA's own ("non-PyTorch") together.
    pub process_in_use: Option<Printed>,
    pub allocated_by_pytorch: Option<Printed>,
    /// Reserved by the caching allocator but not handed out: fragmentation.
    pub reserved_unallocated: Option<Printed>,
    /// The older format's "reserved in total by PyTorch".
    pub reserved_total: Option<Printed>,
}

const SIZE: &str = r"([\d.]+ (?:GiB|MiB|KiB|bytes))";

fn size_after(pattern: &str) -> Regex {
    re(&pattern.replace("{SIZE}", SIZE))
}

static KILLED: LazyLock<Regex> =
    LazyLock::new(|| re(r"Killed process (\d+) \(([^)]+)\)(?:.*?anon-rss:(\d+)kB)?"));
static TRIED: LazyLock<Regex> = LazyLock::new(|| size_after(r"Tried to allocate {SIZE}"));
static CAPACITY: LazyLock<Regex> =
    LazyLock::new(|| size_after(r"(?:total capacity of {SIZE}|{SIZE} total capacity)"));
static FREE: LazyLock<Regex> =
    LazyLock::new(|| size_after(r"(?:of which {SIZE} is free|; {SIZE} free)"));
static PROCESS: LazyLock<Regex> =
    LazyLock::new(|| size_after(r"this process has {SIZE} memory in use"));
static ALLOCATED: LazyLock<Regex> =
    LazyLock::new(|| size_after(r"(?:{SIZE} is allocated by PyTorch|{SIZE} already allocated)"));
static UNALLOCATED: LazyLock<Regex> =
    LazyLock::new(|| size_after(r"{SIZE} is reserved by PyTorch but unallocated"));
static RESERVED_TOTAL: LazyLock<Regex> =
    LazyLock::new(|| size_after(r"{SIZE} reserved in total by PyTorch"));

fn printed(text: &str) -> Option<Printed> {
    let (number, unit) = text.split_once(' ')?;
    let n: f64 = number.parse().ok()?;
    let scale = match unit {
        "GiB" => crate::calc::units::GIB,
        "MiB" => crate::calc::units::MIB,
        "KiB" => crate::calc::units::KIB,
        _ => 1.0,
    };
    Some(Printed {
        text: text.to_string(),
        bytes: n * scale,
    })
}

fn find(pattern: &Regex, text: &str) -> Option<Printed> {
    let c = pattern.captures(text)?;
    let m = c.iter().skip(1).flatten().next()?;
    printed(m.as_str())
}

/// The figures of the first OOM message in the text; None when it names none.
pub fn oom_figures(text: &str) -> Option<OomFigures> {
    let f = OomFigures {
        killed: KILLED.captures(text).and_then(|c| {
            Some(Killed {
                pid: c[1].parse().ok()?,
                name: c[2].to_string(),
                anon_rss_kib: c.get(3).and_then(|m| m.as_str().parse().ok()),
            })
        }),
        tried: find(&TRIED, text),
        capacity: find(&CAPACITY, text),
        free: find(&FREE, text),
        process_in_use: find(&PROCESS, text),
        allocated_by_pytorch: find(&ALLOCATED, text),
        reserved_unallocated: find(&UNALLOCATED, text),
        reserved_total: find(&RESERVED_TOTAL, text),
    };
    (f != OomFigures::default()).then_some(f)
}

impl OomFigures {
    /// Memory the GPU counted as used outside this process: capacity less
    /// free less this process. On GB10 that includes other processes, the OS
    /// and page cache (CUDA's free figure leaves the page cache out).
    pub fn outside_process_bytes(&self) -> Option<f64> {
        let used = self.capacity.as_ref()?.bytes - self.free.as_ref()?.bytes;
        Some((used - self.process_in_use.as_ref()?.bytes).max(0.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NEW: &str = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.95 GiB. GPU 0 has a total capacity of 119.70 GiB of which 1.02 GiB is free. Including non-PyTorch memory, this process has 102.33 GiB memory in use. Of the allocated memory 98.10 GiB is allocated by PyTorch, and 2.71 GiB is reserved by PyTorch but unallocated.";
    const OLD: &str = "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 23.69 GiB total capacity; 20.18 GiB already allocated; 512.00 MiB free; 21.23 GiB reserved in total by PyTorch)";

    #[test]
    fn the_current_message_format() {
        let f = oom_figures(NEW).unwrap();
        assert_eq!(f.tried.as_ref().unwrap().text, "1.95 GiB");
        assert_eq!(f.capacity.as_ref().unwrap().text, "119.70 GiB");
        assert_eq!(f.free.as_ref().unwrap().text, "1.02 GiB");
        assert_eq!(f.process_in_use.as_ref().unwrap().text, "102.33 GiB");
        assert_eq!(f.allocated_by_pytorch.as_ref().unwrap().text, "98.10 GiB");
        assert_eq!(f.reserved_unallocated.as_ref().unwrap().text, "2.71 GiB");
        assert!(f.reserved_total.is_none());
        // 119.70 - 1.02 - 102.33 = 16.35 GiB outside the process.
        let outside = f.outside_process_bytes().unwrap() / crate::calc::units::GIB;
        assert!((outside - 16.35).abs() < 1e-9, "{outside}");
    }

    #[test]
    fn the_older_message_format() {
        let f = oom_figures(OLD).unwrap();
        assert_eq!(f.capacity.as_ref().unwrap().text, "23.69 GiB");
        assert_eq!(f.allocated_by_pytorch.as_ref().unwrap().text, "20.18 GiB");
        assert_eq!(f.free.as_ref().unwrap().bytes, 512.0 * 1_048_576.0);
        assert_eq!(f.reserved_total.as_ref().unwrap().text, "21.23 GiB");
        assert!(f.process_in_use.is_none());
        assert!(f.outside_process_bytes().is_none());
    }

    #[test]
    fn the_kernels_victim() {
        let text = "[Thu Aug 27 00:39:44 2026] Out of memory: Killed process 3742074 (lmcache) total-vm:81306880kB, anon-rss:1058560kB, file-rss:21412kB";
        let k = oom_figures(text).unwrap().killed.unwrap();
        assert_eq!(
            (k.pid, k.name.as_str(), k.anon_rss_kib),
            (3742074, "lmcache", Some(1058560))
        );
    }

    #[test]
    fn words_without_figures_give_none() {
        assert!(oom_figures("it OOMed at step 40").is_none());
    }
}
