//! Transcripts are the memory: every turn is appended as one JSON line and
//! synced to disk before its reply is shown; on start they are replayed.

use crate::calc::verdict::Verdict;
use crate::dialogue::engine::absorb;
use crate::dialogue::facts::SlotName;
use crate::dialogue::session::{PlanRecord, Session};
use crate::knowledge::Knowledge;
use crate::memory::datadir::open_private_append;
use crate::render::reply::Shown;
use crate::reply::ReplyKind;
use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

pub const FILE_NAME: &str = "transcript.jsonl";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    SessionStart {
        at: Timestamp,
        session: String,
        version: String,
    },
    /// The owner's words or paste, exactly as received.
    Owner {
        at: Timestamp,
        session: String,
        text: String,
    },
    /// What headroom answered and the facts it rests on.
    Reply {
        at: Timestamp,
        session: String,
        kind: ReplyKind,
        text: String,
        #[serde(default)]
        commands: Vec<String>,
        #[serde(default)]
        facts: serde_json::Value,
        /// The model whose phrasing was shown (the deterministic text is
        /// `text` either way).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        phrased_by: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        phrased_text: Option<String>,
        /// Why a model's phrasing was not shown.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        llm_fallback: Option<String>,
        /// A phrasing the guard rejected, kept for review, never shown.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        llm_rejected: Option<String>,
    },
    Forget {
        at: Timestamp,
        session: String,
        slot: String,
    },
    /// The owner pressed Ctrl-C while an answer was being made.
    Cancelled { at: Timestamp, session: String },
}

impl Event {
    pub fn session(&self) -> &str {
        match self {
            Event::SessionStart { session, .. }
            | Event::Owner { session, .. }
            | Event::Reply { session, .. }
            | Event::Forget { session, .. }
            | Event::Cancelled { session, .. } => session,
        }
    }

    pub fn reply(at: Timestamp, session: &str, reply: &Shown) -> Event {
        Event::Reply {
            at,
            session: session.to_string(),
            kind: reply.kind,
            text: reply.markdown.clone(),
            commands: reply.commands.clone(),
            facts: reply.facts.clone(),
            phrased_by: None,
            phrased_text: None,
            llm_fallback: None,
            llm_rejected: None,
        }
    }
}

/// The append-only log of this data directory.
#[derive(Debug)]
pub struct Transcript {
    path: PathBuf,
    file: File,
}

impl Transcript {
    pub fn open(dir: &Path) -> std::io::Result<Transcript> {
        let path = dir.join(FILE_NAME);
        let file = open_private_append(&path)?;
        Ok(Transcript { path, file })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Append one event and sync it, so a crash after this returns loses
    /// nothing the owner saw.
    pub fn append(&mut self, event: &Event) -> std::io::Result<()> {
        let mut line = serde_json::to_string(event).map_err(std::io::Error::other)?;
        line.push('\n');
        self.file.write_all(line.as_bytes())?;
        self.file.flush()?;
        self.file.sync_data()
    }
}

/// Every readable event in the file, and how many lines could not be read.
pub fn load(dir: &Path) -> std::io::Result<(Vec<Event>, usize)> {
    let path = dir.join(FILE_NAME);
    let file = match File::open(&path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((Vec::new(), 0)),
        Err(e) => return Err(e),
    };
    let mut events = Vec::new();
    let mut unreadable = 0;
    for line in BufReader::new(file).lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Event>(&line) {
            Ok(e) => events.push(e),
            Err(_) => unreadable += 1,
        }
    }
    Ok((events, unreadable))
}

fn plan_record(at: Timestamp, facts: &serde_json::Value) -> Option<PlanRecord> {
    let verdict = match facts.get("verdict")?.as_str()? {
        "fits" => Verdict::Fits,
        "tight" => Verdict::Tight,
        "does_not_fit" => Verdict::DoesNotFit,
        _ => return None,
    };
    let centi = |key: &str| {
        facts
            .get(key)
            .and_then(serde_json::Value::as_f64)
            .map(|v| (v * 100.0).round() as u64)
    };
    let method = match facts.get("method")?.as_str()? {
        "full" => "full fine-tune",
        "lora" => "LoRA",
        "qlora" => "QLoRA",
        other => other,
    };
    Some(PlanRecord {
        at,
        title: format!("{} {method}", facts.get("model")?.as_str()?),
        verdict,
        total_centi_gb: centi("total_gb")?,
        budget_centi_gb: centi("verdict_budget_gb")?,
    })
}

/// Rebuild the session from the raw events: owner words are re-read with
/// today's extractors, forgets are re-applied, plans are kept as records.
pub fn replay(events: &[Event], k: &Knowledge) -> Session {
    let mut session = Session::default();
    for event in events {
        match event {
            Event::Owner { at, text, .. } => {
                absorb(&mut session, text, *at, k);
            }
            Event::Forget { slot, .. } => {
                if let Some(s) = SlotName::parse(slot) {
                    session.facts.forget(s);
                }
            }
            Event::Reply {
                at,
                kind: ReplyKind::Plan,
                facts,
                ..
            } => {
                if let Some(record) = plan_record(*at, facts) {
                    session.last_plan = Some(record);
                }
            }
            _ => {}
        }
    }
    session
}
