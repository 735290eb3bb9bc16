//! Transcripts are the memory: every turn is appended as one JSON line and
//! synced to disk before its reply is shown; on start they are replayed.

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
    /// The owner's words or paste, exactly as received. A large paste is
    /// kept once in `pastes/` and named here instead, so the transcript
    /// stays small and a restart stays fast.
    Owner {
        at: Timestamp,
        session: String,
        text: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        paste: Option<String>,
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
    /// The file at `path` was replaced while this session ran (an editor
    /// that saves by rename); set once, taken by the conversation to say so.
    replaced: bool,
    /// Its length after this session's last write: any other length means
    /// the file changed under the session (cut in place, or written to by
    /// something else).
    end: u64,
    /// The file changed under this session since its last write: `true`
    /// when it was cut shorter, `false` when something else wrote to it;
    /// taken to say so.
    changed: Option<bool>,
}

impl Transcript {
    pub fn open(dir: &Path) -> std::io::Result<Transcript> {
        let path = dir.join(FILE_NAME);
        let file = open_private_append(&path)?;
        let end = file.metadata()?.len();
        Ok(Transcript {
            path,
            file,
            replaced: false,
            end,
            changed: None,
        })
    }

    /// A transcript that takes no records, for a session that cannot write
    /// (a read-only or full filesystem): what was saved before is read by
    /// replay, and every append fails, so nothing claims to be saved.
    pub fn unwritable(dir: &Path) -> std::io::Result<Transcript> {
        let path = dir.join(FILE_NAME);
        let file = File::open("/dev/null")?;
        Ok(Transcript {
            path,
            file,
            replaced: false,
            end: 0,
            changed: None,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Append one event and sync it, so a crash after this returns loses
    /// nothing the owner saw. A failed write (a full disk) is cut back off,
    /// so the file never ends inside a record.
    pub fn append(&mut self, event: &Event) -> std::io::Result<()> {
        self.follow_replacement()?;
        let mut line = serde_json::to_string(event).map_err(std::io::Error::other)?;
        line.push('\n');
        let before = self.file.metadata()?.len();
        // Changed under this session: cut short (truncated in place,
        // perhaps mid-record) or written to by something else (perhaps a
        // torn record). Start on a line of its own, so this record is
        // whole on replay.
        if before != self.end {
            self.changed = Some(before < self.end);
            if before > 0 && !ends_with_newline(&self.path, before) {
                line.insert(0, '\n');
            }
        }
        let written = self
            .file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.flush())
            .and_then(|()| self.file.sync_data());
        match written {
            Ok(()) => self.end = before + line.len() as u64,
            Err(_) => {
                let _ = self.file.set_len(before);
            }
        }
        written
    }

    /// Whether the file changed under this session since the last time
    /// this was asked: `Some(true)` cut shorter, `Some(false)` written to by
    /// something else.
    pub fn take_changed(&mut self) -> Option<bool> {
        self.changed.take()
    }

    /// Whether the file was replaced since the last time this was asked.
    pub fn take_replaced(&mut self) -> bool {
        std::mem::take(&mut self.replaced)
    }

    /// When the path no longer names the file this session holds open (an
    /// editor saved by rename, or it was deleted), reopen the path and
    /// append there: otherwise every later turn would go to a file no one
    /// can see.
    fn follow_replacement(&mut self) -> std::io::Result<()> {
        use std::os::unix::fs::MetadataExt;
        let ours = self.file.metadata()?;
        let same = std::fs::symlink_metadata(&self.path)
            .is_ok_and(|m| m.ino() == ours.ino() && m.dev() == ours.dev());
        if !same {
            self.file = open_private_append(&self.path)?;
            // A replaced file may end without a newline; start on a line.
            let len = self.file.metadata()?.len();
            if len > 0 && !ends_with_newline(&self.path, len) {
                self.file.write_all(b"\n")?;
            }
            self.replaced = true;
            self.end = self.file.metadata()?.len();
        }
        Ok(())
    }
}

fn ends_with_newline(path: &Path, len: u64) -> bool {
    use std::io::{Read, Seek, SeekFrom};
    let mut last = [0u8; 1];
    crate::memory::datadir::open_read_no_follow(path)
        .and_then(|mut f| {
            f.seek(SeekFrom::Start(len - 1))?;
            f.read_exact(&mut last)
        })
        .is_ok_and(|()| last[0] == b'\n')
}

/// The longest transcript record read; a longer line (an old transcript's
/// giant paste) is skipped without being held in memory.
pub const MAX_RECORD_BYTES: usize = 16 * 1024 * 1024;

/// What a start found in the transcript.
#[derive(Debug, Default)]
pub struct Loaded {
    pub events: Vec<Event>,
    /// Lines that could not be read (skipped; everything else kept).
    pub unreadable: usize,
    /// The file ended inside a record (a crash mid-write): it was cut back
    /// to the last whole record and the original kept at this path.
    pub repaired: Option<PathBuf>,
    /// The file ends inside a record and could not be repaired (a full
    /// disk): the session must not append after it.
    pub unrepaired: Option<String>,
}

/// Read one line of at most `MAX_RECORD_BYTES`; a longer one is consumed
/// and reported as `None`. Returns the bytes read from the file.
fn bounded_line(r: &mut impl BufRead, buf: &mut Vec<u8>) -> std::io::Result<(usize, bool)> {
    buf.clear();
    let mut total = 0;
    let mut too_long = false;
    loop {
        let chunk = r.fill_buf()?;
        if chunk.is_empty() {
            return Ok((total, too_long));
        }
        let (take, done) = match memchr::memchr(b'\n', chunk) {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        if !too_long && buf.len() + take <= MAX_RECORD_BYTES {
            buf.extend_from_slice(&chunk[..take]);
        } else {
            too_long = true;
            buf.clear();
        }
        r.consume(take);
        total += take;
        if done {
            return Ok((total, too_long));
        }
    }
}

/// Every readable event in the file. A torn last record is repaired: the
/// file is cut back to the last whole record, the original kept beside it.
pub fn load(dir: &Path) -> std::io::Result<Loaded> {
    let path = dir.join(FILE_NAME);
    let file = match crate::memory::datadir::open_read_no_follow(&path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Loaded::default()),
        Err(e) => return Err(e),
    };
    let mut reader = BufReader::new(file);
    let mut loaded = Loaded::default();
    let mut buf = Vec::new();
    let mut offset: u64 = 0;
    let mut whole_until: u64 = 0;
    let mut torn = false;
    let mut missing_newline = false;
    loop {
        let (n, too_long) = bounded_line(&mut reader, &mut buf)?;
        if n == 0 {
            break;
        }
        offset += n as u64;
        let complete = too_long || buf.last() == Some(&b'\n');
        let parsed = if too_long {
            None
        } else {
            std::str::from_utf8(&buf)
                .ok()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(|l| serde_json::from_str::<Event>(l).ok())
        };
        match parsed {
            Some(Some(event)) => {
                // A whole record without its final newline (an editor, or
                // a writer that stopped just short) is kept, not cut.
                loaded.events.push(event);
                whole_until = offset;
                if !complete {
                    missing_newline = true;
                }
            }
            // A blank line.
            None if !too_long && complete && buf.iter().all(u8::is_ascii_whitespace) => {
                whole_until = offset;
            }
            _ if !complete => torn = true,
            _ => {
                loaded.unreadable += 1;
                whole_until = offset;
            }
        }
    }
    if torn {
        match repair(dir, &path, whole_until) {
            Ok(kept) => loaded.repaired = Some(kept),
            Err(e) => loaded.unrepaired = Some(e.to_string()),
        }
    } else if missing_newline {
        let mut f = open_private_append(&path)?;
        if f.write_all(b"\n").and_then(|()| f.sync_data()).is_err() {
            loaded.unrepaired =
                Some("its last record has no newline and none could be added".into());
        }
    }
    Ok(loaded)
}

/// Keep the torn original beside the transcript, then cut the transcript
/// back to its last whole record.
fn repair(dir: &Path, path: &Path, whole_until: u64) -> std::io::Result<PathBuf> {
    let kept = dir.join(format!("{FILE_NAME}.torn-{}", Timestamp::now().as_second()));
    if let Err(e) = std::fs::copy(path, &kept) {
        let _ = std::fs::remove_file(&kept);
        return Err(e);
    }
    let f = crate::memory::datadir::open_write_in_place(path)?;
    f.set_len(whole_until)?;
    f.sync_all()?;
    crate::memory::datadir::sync_dir(dir)?;
    Ok(kept)
}

/// The owner's text of an Owner event, reading a paste kept by reference.
pub fn owner_text(dir: &Path, text: &str, paste: Option<&str>) -> Option<String> {
    match paste {
        None => Some(text.to_string()),
        Some(name) => crate::memory::pastes::read(dir, name).ok(),
    }
}

/// The kept pastes of `events` that cannot be read back (cut short,
/// edited, or gone), with when each was given and why: replay skips them,
/// and the owner is told rather than left to find a listing missing.
pub fn unusable_pastes(events: &[Event], dir: &Path) -> Vec<(Timestamp, String)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Owner {
                at,
                paste: Some(name),
                ..
            } => crate::memory::pastes::read(dir, name).err().map(|why| {
                let why = match why.kind() {
                    std::io::ErrorKind::NotFound => {
                        format!("its kept copy (pastes/{name}) is gone")
                    }
                    _ => why.to_string(),
                };
                (*at, why)
            }),
            _ => None,
        })
        .collect()
}

/// The record of a plan answered at `at`, recomputed from the answers
/// replayed so far: a reply's stored figures are never trusted (a forged or
/// damaged record would otherwise speak in the greeting).
fn plan_record(at: Timestamp, session: &Session, k: &Knowledge) -> Option<PlanRecord> {
    let (plan, _) = crate::dialogue::plan_turn::build_plan(&session.facts, k)?;
    Some(PlanRecord {
        at,
        title: crate::dialogue::whatif::run_title(&plan),
        verdict: plan.judgement.verdict,
        total_centi_gb: plan.estimate.total_centi_gb,
        budget_centi_gb: plan.budget.centi_gb,
    })
}

/// Rebuild the session from the raw events: owner words are re-read with
/// today's extractors, forgets are re-applied, plans are kept as records.
pub fn replay(events: &[Event], dir: &Path, k: &Knowledge) -> Session {
    let mut session = Session::default();
    for event in events {
        match event {
            Event::SessionStart { session: id, .. } => session.current = id.clone(),
            Event::Owner {
                at, text, paste, ..
            } => {
                if let Some(text) = owner_text(dir, text, paste.as_deref()) {
                    absorb(&mut session, &text, *at, k);
                }
            }
            Event::Forget { slot, .. } if slot == "all" => {
                session = Session {
                    current: session.current.clone(),
                    ..Session::default()
                }
            }
            Event::Forget { slot, .. } => {
                if let Some(s) = SlotName::parse(slot) {
                    session.facts.forget(s);
                }
            }
            Event::Reply {
                at, kind, facts, ..
            } => {
                if *kind == ReplyKind::Plan
                    && let Some(record) = plan_record(*at, &session, k)
                {
                    session.last_plan = Some(record);
                }
                if let Some(v) = facts.get("thermal_verdict").and_then(|v| v.as_str())
                    && let Some(verdict) = crate::calc::thermal::ThermalVerdict::from_key(v)
                {
                    session.last_thermal = Some((*at, verdict));
                }
            }
            _ => {}
        }
    }
    session
}
