//! The memory a run may use: the owner's `free` output minus a reserve.
//!
//! The budget comes from the `available` column (what the kernel can hand
//! out without swapping, page cache included), never from nvidia-smi, which
//! cannot see page cache on unified memory, nor from the 128 GB spec figure.

use crate::calc::units::{GB, GIB, centi_gb_down, centi_gb_up, plain, show_centi};
use crate::knowledge::Knowledge;
use crate::readings::memory::{FreeReading, FreeUnit};
use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BudgetBasis {
    /// From the owner's pasted `free` output.
    Pasted,
    /// No paste yet: an idle Spark's typical available memory.
    Nominal,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Budget {
    pub basis: BudgetBasis,
    /// Available memory in hundredths of a GB, rounded down.
    pub available_centi_gb: u64,
    pub reserve_centi_gb: u64,
    /// available − reserve.
    pub centi_gb: u64,
    /// How the figure was reached, with units and sources.
    pub explanation: String,
    /// Memory nothing uses right now (`free`, MemFree) less the reserve:
    /// what a CUDA allocation gets on GB10 before the kernel reclaims page
    /// cache. None without a memory paste.
    pub free_now_centi_gb: Option<u64>,
    /// The page cache a flush would return (buff/cache; Buffers + Cached).
    pub page_cache_centi_gb: Option<u64>,
    /// What pasted servers hold, taken off a nominal budget (a `free`
    /// paste already counts them): (who, hundredths of a GB).
    pub beside: Vec<(String, u64)>,
}

/// Whether the plan fits with what is free right now, or only once the
/// page cache is returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Now {
    /// The peak fits in memory nothing uses right now.
    FitsNow,
    /// It fits `available`, but only with page cache reclaimed: flush first.
    AfterFlush,
    /// It does not fit even with the page cache returned.
    DoesNotFit,
}

impl Now {
    pub fn label(self) -> &'static str {
        match self {
            Now::FitsNow => "fits now",
            Now::AfterFlush => "fits after a page-cache flush (OOM ladder step 1, needs root)",
            Now::DoesNotFit => "does not fit",
        }
    }
}

/// The three-way reading of a memory paste against a peak.
pub fn now(total_centi: u64, budget: &Budget) -> Option<Now> {
    let free_now = budget.free_now_centi_gb?;
    Some(if total_centi <= free_now {
        Now::FitsNow
    } else if total_centi <= budget.centi_gb {
        Now::AfterFlush
    } else {
        Now::DoesNotFit
    })
}

impl Budget {
    pub fn gb(&self) -> f64 {
        self.centi_gb as f64 / 100.0
    }

    /// The budget less what other processes hold that it does not count
    /// yet (`ollama ps` or a vLLM log beside a nominal budget, a model the
    /// owner says was loaded since the `free` paste), each term in the
    /// explanation.
    pub fn less_held(mut self, held: Vec<(String, u64)>) -> Budget {
        // The caller passes only what the budget does not already count: a
        // pasted `free` counts every server running when it was taken.
        if held.is_empty() {
            return self;
        }
        let mut text = format!("{} GB", show_centi(self.centi_gb));
        for (who, centi) in &held {
            self.centi_gb = self.centi_gb.saturating_sub(*centi);
            text.push_str(&format!(" − {} GB {who}", show_centi(*centi)));
        }
        self.explanation.push_str(&format!(
            "; beside what is loaded: {text} = {} GB",
            show_centi(self.centi_gb)
        ));
        self.beside = held;
        self
    }

    /// How a budget without a `free` paste is named after its figure.
    pub fn nominal_words(&self) -> String {
        if self.beside.is_empty() {
            " (an idle Spark's, no `free -g` yet)".into()
        } else {
            let who: Vec<&str> = self.beside.iter().map(|(w, _)| w.as_str()).collect();
            format!(
                " (an idle Spark's less {}, no `free -g` yet)",
                who.join(" and ")
            )
        }
    }
}

fn reserve(k: &Knowledge) -> (u64, String) {
    let f = k.spark("OS and driver reserve");
    (
        centi_gb_up(f.value * GB),
        format!("{} GB OS/driver reserve ({})", plain(f.value), f.cite),
    )
}

pub fn from_free(reading: &FreeReading, k: &Knowledge) -> Budget {
    let available = centi_gb_down(reading.available_bytes);
    let (reserve_centi, reserve_text) = reserve(k);
    let centi = available.saturating_sub(reserve_centi);
    let reading_text = match reading.unit {
        FreeUnit::Gib => format!(
            "`available` {} GiB from your `free -g` (free -g prints GiB, rounded down) = {} × 1.073741824 = {} GB",
            reading.available_text,
            reading.available_text,
            show_centi(available)
        ),
        FreeUnit::Human => format!(
            "`available` {} from your `free -h` (Gi = GiB = 1.073741824 GB) = {} GB",
            reading.available_text,
            show_centi(available)
        ),
        FreeUnit::Said => format!(
            "available {} in your words = {} GB",
            reading.available_text,
            show_centi(available)
        ),
        unit => format!(
            "`available` {} from your `{}` = {} GB",
            reading.available_text,
            unit.flag(),
            show_centi(available)
        ),
    };
    let remainder = if available >= reserve_centi {
        format!("{} GB", show_centi(centi))
    } else {
        format!(
            "-{} GB, so nothing is left: 0.00 GB",
            show_centi(reserve_centi - available)
        )
    };
    let mut explanation = format!("{reading_text}; minus {reserve_text} = {remainder}");
    if let (Some(used), Some(total)) = (reading.used_bytes, reading.total_bytes)
        && used > total / 2.0
    {
        explanation.push_str(&format!(
            ". Other processes hold {} GB of the {} GB total right now: find them with `{}` and paste what it prints",
            show_centi(centi_gb_down(used)),
            show_centi(centi_gb_down(total)),
            k.command("procs").command
        ));
    }
    Budget {
        basis: BudgetBasis::Pasted,
        available_centi_gb: available,
        reserve_centi_gb: reserve_centi,
        centi_gb: centi,
        explanation,
        beside: Vec::new(),
        free_now_centi_gb: reading
            .free_bytes
            .map(|f| centi_gb_down(f).saturating_sub(reserve_centi)),
        page_cache_centi_gb: reading.buff_cache_bytes.map(centi_gb_down),
    }
}

/// Used only when no `free` output was given, and said so.
pub fn nominal(k: &Knowledge) -> Budget {
    let f = k.spark("idle available memory");
    let available = centi_gb_down(f.value * GIB);
    let (reserve_centi, reserve_text) = reserve(k);
    let centi = available.saturating_sub(reserve_centi);
    Budget {
        basis: BudgetBasis::Nominal,
        available_centi_gb: available,
        reserve_centi_gb: reserve_centi,
        centi_gb: centi,
        explanation: format!(
            "no `free -g` given, so an idle Spark's {} GiB available ({}) = {} GB; minus {reserve_text} = {} GB",
            plain(f.value),
            f.cite,
            show_centi(available),
            show_centi(centi)
        ),
        free_now_centi_gb: None,
        page_cache_centi_gb: None,
        beside: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::free::parse_free;

    #[test]
    fn free_g_115_gib_is_123_48_gb_less_the_reserve() {
        let text = include_str!("../../tests/fixtures/free-g-spark.txt");
        let b = from_free(&parse_free(text).unwrap(), Knowledge::embedded());
        assert_eq!(b.available_centi_gb, 12348);
        assert_eq!(b.reserve_centi_gb, 400);
        assert_eq!(b.centi_gb, 11948);
        assert!(b.explanation.contains("115 × 1.073741824 = 123.48 GB"));
    }

    #[test]
    fn a_full_pool_leaves_no_budget_rather_than_a_negative_one() {
        let text = include_str!("../../tests/fixtures/free-h-spark-vllm-high.txt");
        let b = from_free(&parse_free(text).unwrap(), Knowledge::embedded());
        assert_eq!(b.available_centi_gb, 246);
        assert_eq!(b.centi_gb, 0);
    }
}
