//! An `nvidia-smi -q` snapshot in the dialogue: which clock limits are on
//! now, how long each has held the clocks since the driver loaded, and what
//! that says about throttling on a Spark. One snapshot cannot say when.

use crate::calc::units::grouped;
use crate::extract::smi_query::SmiQuery;
use crate::knowledge::Knowledge;
use crate::reply::Block;

/// "50,284,264,713 µs = 50,284.26 s (13.97 h)".
fn duration(us: u64) -> String {
    let s = us as f64 / 1e6;
    if us == 0 {
        "0 µs".into()
    } else {
        // Hundredths of a second rounded to nearest (165,687 µs is 0.17 s,
        // not 0.16), in whole numbers so large counters keep every digit.
        let total_centis = (us + 5_000) / 10_000;
        format!(
            "{} µs = {}.{:02} s ({:.2} h)",
            grouped(us),
            grouped(total_centis / 100),
            total_centis % 100,
            s / 3600.0
        )
    }
}

pub fn smi_query_blocks(q: &SmiQuery, k: &Knowledge) -> Vec<Block> {
    let mut lines = Vec::new();
    if !q.reasons.is_empty() {
        let active: Vec<&str> = q
            .reasons
            .iter()
            .filter(|(_, on)| *on)
            .map(|(name, _)| name.as_str())
            .collect();
        lines.push(if active.is_empty() {
            format!(
                "clock limits active at that moment: none of the {} listed",
                q.reasons.len()
            )
        } else {
            format!("clock limits active at that moment: {}", active.join(", "))
        });
    }
    for (name, us) in &q.counters_us {
        lines.push(format!(
            "{name}, in total since the driver loaded: {}",
            duration(*us)
        ));
    }
    for (name, value) in &q.temperatures {
        lines.push(format!("{name}: {value}"));
    }
    let when = q
        .timestamp
        .as_ref()
        .map_or(String::new(), |t| format!(" ({t})"));
    let mut out = vec![
        Block::Text(format!("Your `nvidia-smi -q` snapshot{when}:")),
        Block::List(lines),
    ];
    let thermal_us: Option<u64> = {
        let thermal: Vec<u64> = q
            .counters_us
            .iter()
            .filter(|(n, _)| n.contains("Thermal"))
            .map(|(_, us)| *us)
            .collect();
        (!thermal.is_empty()).then(|| thermal.iter().sum())
    };
    let power_us = q
        .counters_us
        .iter()
        .find(|(n, _)| n.starts_with("SW Power Cap"))
        .map(|(_, us)| *us);
    let mut say = Vec::new();
    match thermal_us {
        Some(0) => say.push("The thermal slowdown counters are at 0 µs: the GPU has not throttled for heat since the driver loaded.".to_string()),
        Some(_) => say.push("A thermal slowdown counter is above zero: the GPU has throttled for heat at some point since the driver loaded. When, and whether it matches your slowdown, only samples lined up with the training log can say.".to_string()),
        None => {}
    }
    if let Some(us) = power_us.filter(|us| *us > 0) {
        say.push(format!(
            "The software power cap has held the clocks for {:.2} h in all: on a Spark that is the platform's sustained power ceiling (about {} W observed, {}, against the rated {} W, {}), not a fault to tune away.",
            us as f64 / 3.6e9,
            k.spark("observed sustained power").value,
            k.spark("observed sustained power").cite,
            k.spark("rated power").value,
            k.spark("rated power").cite
        ));
    }
    say.push(if q.reasons.is_empty() && q.counters_us.is_empty() {
        "A snapshot is one moment. For a slowdown, run the sampler beside the run and give me its log with the training log.".into()
    } else {
        "A snapshot cannot say when a limit was on. For a slowdown, run the sampler beside the run and give me its log with the training log.".into()
    });
    out.push(Block::Text(say.join(" ")));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn microseconds_are_rounded_to_the_nearest_hundredth() {
        assert_eq!(duration(165_687), "165,687 µs = 0.17 s (0.00 h)");
        assert_eq!(
            duration(50_284_264_713),
            "50,284,264,713 µs = 50,284.26 s (13.97 h)"
        );
        assert_eq!(
            duration(999_995_000),
            "999,995,000 µs = 1,000.00 s (0.28 h)"
        );
    }
}
