//! The thermal verdict first, then the evidence, as markdown and as JSON.

use crate::calc::thermal::{Analysis, EventKind, ThermalVerdict};
use crate::knowledge::Knowledge;
use crate::readings::samples::MarkerKind;
use crate::render::chart::{clock, datetime, figure};
use serde_json::{Value, json};
use std::fmt::Write;

fn mins(s: f64) -> String {
    format!("{:.1} min", s / 60.0)
}

fn opt(v: Option<f32>, unit: &str) -> String {
    v.map_or("n/a".into(), |x| format!("{x:.1} {unit}"))
}

/// The whole report: the verdict, the slowdown, then the evidence.
pub fn thermal_markdown(a: &Analysis, k: &Knowledge) -> String {
    let mut md = thermal_brief(a, k);
    if a.verdict != ThermalVerdict::InsufficientData {
        md.push_str(&thermal_evidence(a, k));
    }
    md
}

/// The verdict and how the slowdown lines up with it; the evidence is
/// one request away ("details").
pub fn thermal_brief(a: &Analysis, k: &Knowledge) -> String {
    let mut md = format!("## Thermal check: {}\n\n", a.verdict.label());
    if a.verdict == ThermalVerdict::InsufficientData {
        for why in &a.insufficient {
            let _ = writeln!(md, "- {why}");
        }
        return md;
    }
    // The verdict, first and plainly.
    match a.verdict {
        ThermalVerdict::ThermalThrottling => {
            let _ = writeln!(
                md,
                "**{} thermal event(s)** {}.",
                a.events.len(),
                if a.reasons_sampled {
                    "reported by the sampled clock-event reasons (thermal slowdown active)"
                } else if a
                    .events
                    .iter()
                    .all(|e| e.kind == crate::calc::thermal::EventKind::ClockFallHot)
                {
                    "with the throttling signature: the SM clock falling while the GPU is at its hottest and power stays flat under the rated 240 W"
                } else {
                    "with the throttling signature: temperature climbing while power stays flat under the rated 240 W"
                }
            );
        }
        ThermalVerdict::LowPowerState => {
            let _ = writeln!(
                md,
                "**Not thermal: the GPU is stuck in a low-power state.** It is busy (≥ {:.0} % utilisation) while drawing about {:.0} W or less with the SM clock ≤ {:.0} MHz and no thermal flag, {} ({}). That is the power-delivery fault reported on GB10 units, not heat: cooling does not clear it. A full AC power cycle does: shut down, unplug the power brick from the wall and the Spark for 60 s, reconnect ({}).",
                k.rule("low-power state busy").value,
                k.rule("low-power state power").value,
                k.rule("low-power state clock").value,
                match a.events.as_slice() {
                    [e] if e.end - e.start < k.rule("sustained").value => format!(
                        "in every busy sample over {:.0} s (a level, not a trend, so few samples show it)",
                        e.end - e.start
                    ),
                    events => format!("for {} span(s) of 10 minutes or more", events.len()),
                },
                k.rule("low-power state power").cite,
                k.rule("low-power state clock").cite
            );
        }
        ThermalVerdict::PowerCapOnly => {
            md.push_str("**No thermal event.** Power sits on a plateau near 100 W: that is the platform's sustained cap, not a configuration bug. Do not re-tune batch size or precision to fix it.\n");
        }
        ThermalVerdict::NoThermalEvent if !a.power_sampled => md.push_str(
            "**No thermal event** in the samples, on the driver's word alone: its clock-event reasons show no thermal slowdown in any sample, and power was not sampled (it reads [N/A] or is missing), so nothing else can confirm it. Sample power.draw too (`bash assets/thermal-sample.sh 30 thermal.log` does).\n",
        ),
        ThermalVerdict::NoThermalEvent => md.push_str("**No thermal event** in the samples.\n"),
        ThermalVerdict::InsufficientData => {}
    }
    match (&a.slowdown, a.matches_thermal_event) {
        (Some(s), Some(true)) => {
            let _ = writeln!(
                md,
                "\nThe slowdown matches: step time rose from {} to {} s/step from {} ({}), {} from the nearest thermal event.",
                figure(s.baseline_s_per_step),
                figure(s.after_s_per_step),
                clock(s.onset),
                datetime(s.onset),
                mins(a.nearest_event_gap_s.unwrap_or(0.0))
            );
        }
        (Some(s), _) => {
            let _ = write!(
                md,
                "\nThe slowdown does not match a thermal event: step time rose from {} to {} s/step from {} ({}){}. Look elsewhere: ",
                figure(s.baseline_s_per_step),
                figure(s.after_s_per_step),
                clock(s.onset),
                datetime(s.onset),
                a.nearest_event_gap_s
                    .map(|g| format!(", {} from the nearest thermal event", mins(g)))
                    .unwrap_or_else(|| ", with no thermal event at all".into())
            );
            let mut leads = Vec::new();
            for m in &a.markers_near_onset {
                leads.push(format!(
                    "{} at {} (within 10 minutes of the onset)",
                    match m.kind {
                        MarkerKind::Evaluation => "an evaluation",
                        MarkerKind::Checkpoint => "a checkpoint save",
                    },
                    clock(m.t)
                ));
            }
            if let Some((b, after)) = a.util_before_after
                && after + 10.0 < b
            {
                leads.push(format!(
                    "GPU utilisation fell from {b:.0} % to {after:.0} %: the GPU is waiting (data loading, or another process on the pool)"
                ));
            }
            leads.push("contention on the shared pool (paste `ps aux | grep -E 'vllm|ollama|trl|axolotl' | grep -v grep` taken near the slowdown: a server that loaded a model then is the usual cause)".into());
            leads.push("evaluation or checkpoint steps, and data loading".into());
            let _ = writeln!(md, "{}.", leads.join("; "));
            let _ = writeln!(
                md,
                "\nNone of the four causes headroom checks shows here (thermal throttling, the ~100 W plateau, a power-delivery low-power state, contention you pasted). To tell the rest apart, sample GPU utilisation and SM clock too (the sampler does) and keep it running through the next slowdown."
            );
        }
        (None, _) if a.train_samples > 0 => {
            md.push_str("\nThe training log shows no sustained slowdown (step time within 15 % of its start for the whole overlap).\n");
        }
        _ => md.push_str("\nNo training log lined up with the samples, so no slowdown to correlate: add `--train-log LOG` (or paste it), with the run's start when the log carries no time.\n"),
    }
    if a.pauses.0 > 0 {
        let _ = writeln!(
            md,
            "\nThe log's step times carry {} pause(s) for evaluation or saving, {:.1} s in all; each counts once, as a pause, not as slow steps.",
            a.pauses.0, a.pauses.1
        );
    }
    md
}

/// Each sample span, plateau, event and rule the verdict rests on.
pub fn thermal_evidence(a: &Analysis, k: &Knowledge) -> String {
    let sustained = k.rule("sustained");
    let mut md = String::new();

    md.push_str("\nEvidence:\n\n");
    if let Some((lo, hi)) = a.cpu_temp_range {
        let _ = writeln!(
            md,
            "- CPU (hottest thermal zone): {lo:.1}–{hi:.1} °C over the samples (GB10's CPU cluster shares the package's heat)"
        );
    }
    if let Some((a0, a1)) = a.thermal_span {
        let _ = writeln!(
            md,
            "- thermal samples: {} from {} to {}",
            a.thermal_samples,
            datetime(a0),
            datetime(a1)
        );
    }
    if let Some((t0, t1)) = a.train_span {
        let _ = writeln!(
            md,
            "- training log: {} step samples from {} to {}",
            a.train_samples,
            datetime(t0),
            datetime(t1)
        );
    }
    if let Some((lo, hi, at)) = a.gpu_temp {
        let clock = a.sm_clock_range.map_or(String::new(), |(lo, hi)| {
            format!("; SM clock {hi:.0} MHz at most, {lo:.0} MHz at least")
        });
        let _ = writeln!(
            md,
            "- GPU temperature: {lo:.1}–{hi:.1} °C, peak {hi:.1} °C at {}{clock}",
            datetime(at)
        );
    }
    if let Some(p) = &a.plateau {
        let _ = writeln!(
            md,
            "- power plateau: mean {:.1} W on {:.0} % of loaded samples, longest stretch {} ({})",
            p.mean_w,
            p.share * 100.0,
            mins(p.longest_s),
            k.rule("platform power plateau").cite
        );
    }
    for (i, e) in a.events.iter().enumerate() {
        let _ = writeln!(
            md,
            "- event {}: {} from {} to {} ({}); temperature {} → {} (max {}), power mean {}{}",
            i + 1,
            match e.kind {
                EventKind::ReportedThermalSlowdown => "thermal slowdown reported",
                EventKind::TempClimbFlatPower => "temperature climbing at flat power",
                EventKind::ClockFallHot => "SM clock falling at flat power while hottest",
                EventKind::LowPowerState => "busy at low power and low clock, no thermal flag",
            },
            datetime(e.start),
            datetime(e.end),
            mins(e.end - e.start),
            opt(e.temp_start_c, "°C"),
            opt(e.temp_end_c, "°C"),
            opt(e.temp_max_c, "°C"),
            opt(e.power_mean_w, "W"),
            e.clock_change_pct
                .map(|c| format!(", SM clock {c:+.0} %"))
                .unwrap_or_default()
        );
    }
    for e in &a.unflagged_climbs {
        let _ = writeln!(
            md,
            "- temperature climbed {} → {} at flat power from {} to {}, but the sampled clock-event reasons report no thermal slowdown there (GB10 drivers often leave these flags off; the SM clock is the other witness)",
            opt(e.temp_start_c, "°C"),
            opt(e.temp_end_c, "°C"),
            datetime(e.start),
            datetime(e.end)
        );
    }
    let _ = writeln!(
        md,
        "- rules: sustained means {} ({}); see knowledge/thermal.md",
        mins(sustained.value),
        sustained.cite
    );
    md
}

pub fn thermal_json(a: &Analysis) -> Value {
    json!({
        "verdict": a.verdict,
        "events": a.events.iter().map(|e| json!({
            "start": datetime(e.start),
            "end": datetime(e.end),
            "kind": e.kind,
            "temp_start_c": e.temp_start_c,
            "temp_end_c": e.temp_end_c,
            "temp_max_c": e.temp_max_c,
            "power_mean_w": e.power_mean_w,
            "clock_change_pct": e.clock_change_pct,
        })).collect::<Vec<_>>(),
        "slowdown_onset": a.slowdown.as_ref().map(|s| datetime(s.onset)),
        "slowdown": a.slowdown.as_ref().map(|s| json!({
            "baseline_s_per_step": s.baseline_s_per_step,
            "after_s_per_step": s.after_s_per_step,
        })),
        "matches_thermal_event": a.matches_thermal_event,
        "nearest_event_gap_s": a.nearest_event_gap_s,
        "power_plateau": a.plateau.as_ref().map(|p| json!({"mean_w": p.mean_w, "share": p.share, "longest_s": p.longest_s})),
        "reasons_sampled": a.reasons_sampled,
        "unflagged_climbs": a.unflagged_climbs.len(),
        "thermal_samples": a.thermal_samples,
        "train_samples": a.train_samples,
        "insufficient": a.insufficient,
        "pauses": {"count": a.pauses.0, "total_s": a.pauses.1},
    })
}
