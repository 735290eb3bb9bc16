//! What the dialogue hands back for one turn: markdown for the owner plus the
//! structured facts it rests on (kept in the transcript, and later the
//! reference a phrasing model must not stray from).

use crate::calc::verdict::Verdict;
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

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Reply {
    pub kind: ReplyKind,
    pub markdown: String,
    /// Commands the reply suggests, each from knowledge/commands.md.
    pub commands: Vec<String>,
    pub verdict: Option<Verdict>,
    /// The structured facts behind the text (the plan as JSON for a plan).
    pub facts: serde_json::Value,
}

impl Reply {
    pub fn info(markdown: impl Into<String>) -> Reply {
        Reply {
            kind: ReplyKind::Info,
            markdown: markdown.into(),
            commands: Vec::new(),
            verdict: None,
            facts: serde_json::Value::Null,
        }
    }

    pub fn problem(markdown: impl Into<String>) -> Reply {
        Reply {
            kind: ReplyKind::Problem,
            ..Reply::info(markdown)
        }
    }
}

/// One input of a plan and where it came from, for the "Inputs" section.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct InputLine {
    pub name: &'static str,
    pub value: String,
    pub origin: String,
}
