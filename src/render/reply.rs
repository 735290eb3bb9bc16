//! A reply's typed blocks as markdown, and the structured facts stored with
//! it. The only place a dialogue reply becomes text.

use crate::calc::units::show_centi;
use crate::knowledge::Knowledge;
use crate::render::chart::{Glyphs, chart};
use crate::render::plan_json::plan_json;
use crate::render::plan_md::render_plan;
use crate::render::procs::procs_markdown;
use crate::render::thermal_md::thermal_markdown;
use crate::reply::{Block, PlanSummary, Reply};
use std::fmt::Write;

/// The whole reply as markdown, blocks separated by blank lines.
pub fn markdown(reply: &Reply) -> String {
    joined(&parts(reply))
}

/// Each block as markdown, marked with whether a model may phrase it: only
/// prose paragraphs; worksheets, lists, tables, summaries and code are
/// headroom's and always shown as rendered.
pub fn parts(reply: &Reply) -> Vec<Part> {
    let k = Knowledge::embedded();
    reply
        .blocks
        .iter()
        .map(|b| Part {
            markdown: block(b, k),
            phrasable: matches!(b, Block::Text(t) if is_prose(t)),
        })
        .filter(|p| !p.markdown.trim().is_empty())
        .collect()
}

/// A paragraph with no list, table, heading or code: an order of steps or
/// rows is a decision, and only headroom renders it.
fn is_prose(text: &str) -> bool {
    !text.lines().any(|l| {
        let l = l.trim_start();
        l.starts_with(['-', '*', '|', '#', '>'])
            || l.starts_with("```")
            || l.split_once(['.', ')'])
                .is_some_and(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
    })
}

/// Parts as one markdown text.
pub fn joined(parts: &[Part]) -> String {
    parts
        .iter()
        .map(|p| p.markdown.as_str())
        .collect::<Vec<_>>()
        .join("\n\n")
        .trim_end()
        .to_string()
}

/// One block as rendered, and whether its prose may be phrased.
#[derive(Debug, Clone, PartialEq)]
pub struct Part {
    pub markdown: String,
    pub phrasable: bool,
}

/// "The same peak: …" between two equal plans, or nothing.
fn same_peak_line(why: Option<&str>) -> String {
    why.map_or(String::new(), |why| format!("\nThe same peak: {why}.\n"))
}

fn block(b: &Block, k: &Knowledge) -> String {
    match b {
        Block::Text(t) => t.trim_end().to_string(),
        Block::List(items) => items
            .iter()
            .map(|i| format!("- {i}"))
            .collect::<Vec<_>>()
            .join("\n"),
        Block::Code(c) => format!("```\n{}\n```", c.trim_end()),
        Block::Plan(v) => plan_part(v).trim_end().to_string(),
        Block::PlanChange(c) => {
            let mut md = if c.already_noted {
                String::new()
            } else {
                format!("Changed: {}.\n\n", c.changes.join(", "))
            };
            let _ = write!(
                md,
                "- before: {}\n- now: {}\n{}\nThe full worksheet is one request away: say \"full plan\".",
                summary(&c.before),
                summary(&c.after),
                same_peak_line(c.same_peak.as_deref())
            );
            md
        }
        Block::WhatIf(w) => format!(
            "What if {} — side by side, nothing changed yet:\n\n- your run as it is: {}\n- what if: {}\n{}\nSay \"ok, do that\" to adopt it; anything else keeps the run as it is.",
            w.changes.join(", "),
            summary(&w.current),
            summary(&w.hypothetical),
            same_peak_line(w.same_peak.as_deref())
        ),
        Block::Summary(s) => format!(
            "Your run: {}.\n\nThe full worksheet is one request away: say \"full plan\".",
            summary(s)
        ),
        Block::Pool(p) if p.full => procs_markdown(&p.report, &p.need_source),
        Block::Pool(p) => crate::render::procs::procs_table(&p.report, &p.need_source),
        Block::Thermal(t) => {
            let mut md = if t.full {
                thermal_markdown(&t.analysis, k)
            } else {
                crate::render::thermal_md::thermal_brief(&t.analysis, k)
            };
            if t.analysis.insufficient.is_empty() {
                let _ = write!(
                    md,
                    "\n```\n{}\n```",
                    chart(
                        &t.thermal,
                        &t.train,
                        &t.analysis,
                        chart_columns(),
                        Glyphs::Unicode
                    )
                );
                if !t.full {
                    md.push_str("\n\nSay \"details\" for the evidence (sample spans, each event, the rules).");
                }
            }
            md
        }
    }
}

fn plan_part(v: &crate::reply::PlanView) -> String {
    use crate::render::plan_md::{anchors_section, inputs_section, phases_section};
    use crate::reply::PlanDetail;
    let title = format!(
        "{} {}",
        v.plan.input.model.display,
        v.plan.input.method.label()
    );
    match v.detail {
        PlanDetail::Brief => crate::render::plan_brief::brief_plan(&v.plan),
        PlanDetail::Solution => crate::render::plan_brief::solution_only(&v.plan),
        PlanDetail::Full => render_plan(&v.plan, &v.inputs),
        PlanDetail::Phases => phases_section(&v.plan),
        PlanDetail::Anchors if v.plan.anchors.is_empty() => {
            format!("No seed anchor is close to {title}.")
        }
        PlanDetail::Anchors => anchors_section(&v.plan),
        PlanDetail::Assumptions => inputs_section(&v.plan, &v.inputs),
    }
}

/// The terminal's width for a chart drawn inside a reply (80 when unknown),
/// so it never wraps; very wide terminals get at most 160 columns.
fn chart_columns() -> usize {
    crate::render::terminal::width(crate::render::terminal::Style::Plain)
        .unwrap_or(80)
        .clamp(48, 160)
}

/// "Llama 3.1 8B LoRA: peak 20.43 GB (training step) against the 119.48 GB
/// budget: **fits**".
fn summary(s: &PlanSummary) -> String {
    let pct = if s.budget_centi_gb > 0 {
        format!(
            ", {:.1} % of it",
            crate::calc::verdict::share_of_budget(s.peak_centi_gb, s.budget_centi_gb)
        )
    } else {
        String::new()
    };
    let now = s
        .now
        .map(|n| format!(" (right now: {n})"))
        .unwrap_or_default();
    format!(
        "{}: peak {} GB ({} binds) against the {} GB budget{}{pct}: **{}**{now}",
        s.title,
        show_centi(s.peak_centi_gb),
        s.binding,
        show_centi(s.budget_centi_gb),
        s.nominal_words.as_deref().unwrap_or(""),
        s.verdict.label()
    )
}

/// The structured facts kept in the transcript beside the text: the plan
/// as JSON when the reply has one.
pub fn facts(reply: &Reply) -> serde_json::Value {
    let mut facts = reply.plan().map_or(serde_json::Value::Null, plan_json);
    // The thermal verdict, so a restart's greeting can name it.
    if let Some(verdict) = reply.blocks.iter().find_map(|b| match b {
        Block::Thermal(t) => Some(t.analysis.verdict.key()),
        _ => None,
    }) {
        match &mut facts {
            serde_json::Value::Object(map) => {
                map.insert("thermal_verdict".into(), verdict.into());
            }
            other => *other = serde_json::json!({ "thermal_verdict": verdict }),
        }
    }
    facts
}

/// A reply as shown and stored: its markdown with the figures a phrasing
/// model must keep (the guard's reference) and the structured facts.
#[derive(Debug, Clone, PartialEq)]
pub struct Shown {
    pub kind: crate::reply::ReplyKind,
    pub markdown: String,
    /// The same markdown block by block, for phrasing.
    pub parts: Vec<Part>,
    pub commands: Vec<String>,
    pub verdict: Option<crate::calc::verdict::Verdict>,
    pub facts: serde_json::Value,
}

impl Shown {
    /// Text with nothing else: status, help, a problem.
    pub fn text(markdown: impl Into<String>) -> Shown {
        let markdown = markdown.into();
        Shown {
            kind: crate::reply::ReplyKind::Info,
            parts: vec![Part {
                markdown: markdown.clone(),
                phrasable: false,
            }],
            markdown,
            commands: Vec::new(),
            verdict: None,
            facts: serde_json::Value::Null,
        }
    }
}

/// Render a reply once, at the edge.
pub fn show(reply: &Reply) -> Shown {
    let parts = parts(reply);
    Shown {
        kind: reply.kind,
        markdown: joined(&parts),
        parts,
        commands: reply.commands.clone(),
        verdict: reply.verdict,
        facts: facts(reply),
    }
}
