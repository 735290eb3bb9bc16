//! What the dialogue hands back for one turn: typed content blocks plus the
//! facts they rest on. Only `render/` turns blocks into markdown, so the
//! dialogue never formats a worksheet, a comparison or a table itself.

use crate::calc::plan::Plan;
use crate::calc::pool::PoolReport;
use crate::calc::thermal::Analysis;
use crate::calc::verdict::Verdict;
use crate::readings::samples::ThermalSample;
use crate::readings::samples::TrainSample;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReplyKind {
    /// Asking the owner for missing inputs.
    Ask,
    /// A full headroom plan.
    Plan,
    /// Status, help, acknowledgements.
    Info,
    /// Input that could not be read, with what to paste instead.
    Problem,
}

/// One piece of a reply, in the order it is shown.
#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    /// A paragraph of prose (inline code and emphasis only).
    Text(String),
    /// A bulleted list.
    List(Vec<String>),
    /// The whole worksheet for a plan.
    Plan(Box<PlanView>),
    /// A changed answer: the old and new peak and verdict in a few lines.
    PlanChange(Box<PlanChange>),
    /// The run as it is beside a hypothetical one; nothing adopted.
    WhatIf(Box<WhatIf>),
    /// The current plan in one line.
    Summary(Box<PlanSummary>),
    /// The shared-pool report, process by process.
    Pool(Box<PoolView>),
    /// The thermal analysis and the samples its chart is drawn from.
    Thermal(Box<ThermalView>),
    /// A command or script the owner may copy, never run by headroom.
    Code(String),
}

/// A plan with the inputs it came from, and how much of it to show.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanView {
    pub plan: Plan,
    pub inputs: Vec<InputLine>,
    pub detail: PlanDetail,
}

/// How much of a plan a reply shows: one screen first, the rest on request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlanDetail {
    /// Verdict, the largest terms, the assumptions in a line, the next step.
    Brief,
    /// The whole worksheet ("full plan", "why?").
    Full,
    /// The load, eval, save and resume peaks ("phases").
    Phases,
    /// The seed's anchors recomputed ("anchors").
    Anchors,
    /// Where each input came from and every assumption ("assumptions").
    Assumptions,
    /// The largest value asked for, beside a plan the last reply already
    /// showed unchanged: the answer and the verdict's one line, not the
    /// table and assumptions again.
    Solution,
}

/// The figures of one plan that a short reply shows.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlanSummary {
    pub title: String,
    pub peak_centi_gb: u64,
    /// Which phase binds: "training step" or "load".
    pub binding: &'static str,
    pub budget_centi_gb: u64,
    /// How a budget without a `free` paste is named (" (an idle Spark's,
    /// no `free -g` yet)"); None for a pasted one.
    pub nominal_words: Option<String>,
    pub verdict: Verdict,
    /// "fits now", "fits after a page-cache flush …" when a memory paste
    /// says what is free right now.
    pub now: Option<&'static str>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct PlanChange {
    /// "pack 2048 → 8192", in the owner's terms.
    pub changes: Vec<String>,
    pub before: PlanSummary,
    pub after: PlanSummary,
    /// Why both peaks are the same, when they are.
    pub same_peak: Option<String>,
    /// The turn's "Noted:" line already says what changed and why, so the
    /// block shows only the two plans.
    pub already_noted: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct WhatIf {
    /// What the hypothetical changes, in the owner's terms.
    pub changes: Vec<String>,
    pub current: PlanSummary,
    pub hypothetical: PlanSummary,
    /// Why both peaks are the same, when they are ("per_device_train_batch_size
    /// counts completions …"): equal figures with no reason read as a bug.
    pub same_peak: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct PoolView {
    pub report: PoolReport,
    /// Where "your run needs X GB" comes from.
    pub need_source: String,
    /// Each process's reasoning in full ("details"), not the table.
    pub full: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ThermalView {
    pub analysis: Analysis,
    pub thermal: Vec<ThermalSample>,
    pub train: Vec<TrainSample>,
    /// The evidence list too ("details"), not only the verdict and chart.
    pub full: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    pub kind: ReplyKind,
    pub blocks: Vec<Block>,
    /// Commands the reply suggests, each from knowledge/commands.md.
    pub commands: Vec<String>,
    pub verdict: Option<Verdict>,
    /// The plan a short reply stands for, kept in the transcript's facts
    /// though only its change is shown.
    pub record: Option<Box<Plan>>,
}

impl Reply {
    pub fn info(text: impl Into<String>) -> Reply {
        Reply {
            kind: ReplyKind::Info,
            blocks: vec![Block::Text(text.into())],
            commands: Vec::new(),
            verdict: None,
            record: None,
        }
    }

    pub fn problem(text: impl Into<String>) -> Reply {
        Reply {
            kind: ReplyKind::Problem,
            ..Reply::info(text)
        }
    }

    pub fn of(kind: ReplyKind, blocks: Vec<Block>) -> Reply {
        Reply {
            kind,
            blocks,
            commands: Vec::new(),
            verdict: None,
            record: None,
        }
    }

    /// Put a paragraph first (an acknowledgement before the answer).
    pub fn lead(mut self, text: impl Into<String>) -> Reply {
        let text = text.into();
        if !text.is_empty() {
            self.blocks.insert(0, Block::Text(text));
        }
        self
    }

    /// Add a paragraph at the end.
    pub fn then(mut self, text: impl Into<String>) -> Reply {
        let text = text.into();
        if !text.is_empty() {
            self.blocks.push(Block::Text(text));
        }
        self
    }

    pub fn push(&mut self, block: Block) {
        self.blocks.push(block);
    }

    /// The full plan in this reply, if it has one.
    pub fn plan(&self) -> Option<&Plan> {
        self.blocks
            .iter()
            .find_map(|b| match b {
                Block::Plan(v) => Some(&v.plan),
                _ => None,
            })
            .or(self.record.as_deref())
    }

    /// All prose, for tests and the guard (not for display: see render).
    pub fn text(&self) -> String {
        self.blocks
            .iter()
            .filter_map(|b| match b {
                Block::Text(t) | Block::Code(t) => Some(t.clone()),
                Block::List(items) => Some(items.join("\n")),
                _ => None,
            })
            .collect::<Vec<_>>()
            .join("\n\n")
    }
}

/// One input of a plan and where it came from, for the "Inputs" section.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct InputLine {
    pub name: &'static str,
    pub value: String,
    pub origin: String,
}
