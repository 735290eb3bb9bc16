//! A running conversation: the session state, its transcript on disk, and
//! the slash commands that need files. Shared by the REPL and piped mode.
//!
//! Order matters for memory: the owner's turn is synced to the transcript
//! before the reply is computed, and the reply before it is shown.

use crate::dialogue::commands::{self, SlashCommand, forget_targets};
use crate::dialogue::engine::respond_with;
use crate::dialogue::greeting::greeting;
use crate::dialogue::session::Session;
use crate::dialogue::thermal_turn::Files;
use crate::knowledge::Knowledge;
use crate::memory::datadir::{create_private, ensure_private_dir};
use crate::memory::export::session_markdown;
use crate::memory::lock::{DataDirLock, acquire};
use crate::memory::transcript::{Event, Transcript, load, replay};
use crate::render::reply::{Shown, show};
use crate::reply::Reply;
use jiff::Timestamp;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Test hook: a fixed clock, so replayed transcripts print the same ages.
pub const ENV_NOW: &str = "HEADROOM_NOW";

pub fn now() -> Timestamp {
    std::env::var(ENV_NOW)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(Timestamp::now)
}

/// The owner's own files, opened read-only when the dialogue asks (reading
/// them is not running anything). `~/` is the owner's home.
struct OwnFiles;

impl Files for OwnFiles {
    fn open(&self, path: &str) -> Result<Box<dyn std::io::Read>, String> {
        let expanded = match path.strip_prefix("~/") {
            Some(rest) => std::env::var_os("HOME")
                .map(|h| PathBuf::from(h).join(rest))
                .ok_or("`~` cannot be expanded: HOME is not set")?,
            None => PathBuf::from(path),
        };
        let file = std::fs::File::open(&expanded).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => "no such file on this machine".to_string(),
            std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
            _ => e.to_string(),
        })?;
        if file.metadata().is_ok_and(|m| m.is_dir()) {
            return Err("it is a directory, not a file".into());
        }
        Ok(Box::new(file))
    }
}

pub enum Outcome {
    Reply(Shown),
    Quit,
}

pub struct Conversation {
    pub session: Session,
    /// The model that phrases replies, when the owner chose one.
    pub llm: Option<crate::llm::endpoint::Endpoint>,
    /// Set by Ctrl-C; cancels a phrasing in flight.
    pub cancel: std::sync::Arc<std::sync::atomic::AtomicBool>,
    /// Where the phrasing spinner goes (stderr on a terminal, else nowhere).
    pub progress: Box<dyn Write>,
    transcript: Transcript,
    id: String,
    dir: PathBuf,
    unreadable_lines: usize,
    _lock: DataDirLock,
}

#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("cannot use the data directory {dir}: {source}")]
    Dir { dir: String, source: std::io::Error },
    #[error(transparent)]
    Lock(#[from] crate::memory::lock::LockError),
}

impl Conversation {
    /// Lock the data directory, replay its transcript, start a new session.
    pub fn open(dir: &Path, at: Timestamp) -> Result<Conversation, StartError> {
        let dir_err = |source| StartError::Dir {
            dir: dir.display().to_string(),
            source,
        };
        ensure_private_dir(dir).map_err(dir_err)?;
        let lock = acquire(dir)?;
        let (events, unreadable_lines) = load(dir).map_err(dir_err)?;
        let session = replay(&events, Knowledge::embedded());
        let mut transcript = Transcript::open(dir).map_err(dir_err)?;
        let id = at.strftime("%Y%m%dT%H%M%SZ").to_string();
        transcript
            .append(&Event::SessionStart {
                at,
                session: id.clone(),
                version: env!("CARGO_PKG_VERSION").to_string(),
            })
            .map_err(dir_err)?;
        Ok(Conversation {
            session,
            llm: None,
            cancel: Default::default(),
            progress: Box::new(std::io::sink()),
            transcript,
            id,
            dir: dir.to_path_buf(),
            unreadable_lines,
            _lock: lock,
        })
    }

    pub fn data_dir(&self) -> &Path {
        &self.dir
    }

    pub fn greeting(&self, at: Timestamp) -> String {
        let mut text = greeting(&self.session, at, Knowledge::embedded());
        if self.unreadable_lines > 0 {
            text.push_str(&format!(
                "\n\n({} line(s) of {} could not be read and were skipped; everything else was kept.)",
                self.unreadable_lines,
                self.transcript.path().display()
            ));
        }
        text
    }

    fn record(&mut self, event: Event) -> std::io::Result<()> {
        self.transcript.append(&event)
    }

    /// Handle one turn: a slash command or the owner's words.
    pub fn turn(&mut self, text: &str, at: Timestamp) -> std::io::Result<Outcome> {
        if let Some(cmd) = commands::parse(text) {
            return self.command(cmd, at);
        }
        self.record(Event::Owner {
            at,
            session: self.id.clone(),
            text: text.to_string(),
        })?;
        let reply = respond_with(
            &mut self.session,
            text,
            at,
            Knowledge::embedded(),
            &OwnFiles,
        );
        let mut reply = show(&reply);
        let mut event = Event::reply(at, &self.id, &reply);
        if let Some(endpoint) = &self.llm {
            let phrased = crate::llm::phrase::phrase(
                endpoint,
                &reply,
                text,
                self.cancel.clone(),
                &mut self.progress,
            );
            if let Event::Reply {
                phrased_by,
                phrased_text,
                llm_fallback,
                llm_rejected,
                ..
            } = &mut event
            {
                *phrased_by = phrased.model.clone();
                *phrased_text = phrased.model.as_ref().map(|_| phrased.text.clone());
                *llm_fallback = phrased.fallback.clone();
                *llm_rejected = phrased.rejected.clone();
            }
            reply.markdown = match &phrased.fallback {
                None => phrased.text,
                Some(why) => format!("{}\n\n(headroom's own text: {why})", reply.markdown),
            };
        }
        self.record(event)?;
        Ok(Outcome::Reply(reply))
    }

    /// The owner abandoned an answer with Ctrl-C.
    pub fn cancelled(&mut self, at: Timestamp) -> std::io::Result<()> {
        self.record(Event::Cancelled {
            at,
            session: self.id.clone(),
        })
    }

    fn command(&mut self, cmd: SlashCommand, at: Timestamp) -> std::io::Result<Outcome> {
        let reply = match cmd {
            SlashCommand::Quit => return Ok(Outcome::Quit),
            SlashCommand::Help => commands::help(),
            SlashCommand::Status => commands::status(&self.session, at),
            SlashCommand::Unknown(name) => commands::unknown(&name),
            SlashCommand::Forget(arg) => match forget_targets(arg.as_deref()) {
                Err(msg) => Reply::problem(msg),
                Ok(slots) => {
                    let mut dropped = Vec::new();
                    for slot in slots {
                        if self.session.facts.forget(slot) {
                            self.record(Event::Forget {
                                at,
                                session: self.id.clone(),
                                slot: slot.key().to_string(),
                            })?;
                            dropped.push(slot.key());
                        }
                    }
                    if dropped.is_empty() {
                        Reply::info("I had nothing remembered under that name.")
                    } else {
                        Reply::info(format!(
                            "Forgot: {}. I will ask for it again when a plan needs it.",
                            dropped.join(", ")
                        ))
                    }
                }
            },
            SlashCommand::Export(path) => self.export(path, at),
            SlashCommand::Sampler => Reply::info(crate::cli::thermal::sampler_text()),
            SlashCommand::Llm(arg) => self.llm_command(arg.as_deref()),
        };
        Ok(Outcome::Reply(show(&reply)))
    }

    fn llm_command(&mut self, arg: Option<&str>) -> Reply {
        use crate::llm::endpoint::Endpoint;
        match arg {
            None => Reply::info(match &self.llm {
                Some(e) => format!("Phrasing with {}. `/llm off` turns it off.", e.describe()),
                None => "No model phrases replies: they are headroom's own text. `/llm ollama[:MODEL][@URL]` or `/llm openai:MODEL@URL` turns phrasing on.".into(),
            }),
            Some("off") => {
                self.llm = None;
                Reply::info("Phrasing is off: replies are headroom's own text.")
            }
            Some(spec) => match Endpoint::parse(spec) {
                Err(e) => Reply::problem(format!("{e}. Write `/llm ollama[:MODEL][@URL]` or `/llm openai:MODEL@URL`.")),
                Ok(mut e) => {
                    let chosen = crate::llm::phrase::model_for(&e);
                    let text = match (&e.model, &chosen) {
                        (None, Ok(m)) => format!("Phrasing with {} (the first installed model: {m}; name another with `/llm ollama:MODEL`).", e.describe()),
                        (None, Err(err)) => format!("Phrasing with {}, but I could not list its models: {err}. Replies stay headroom's own text until it answers.", e.describe()),
                        _ => format!("Phrasing with {}.", e.describe()),
                    };
                    if let Ok(m) = chosen {
                        e.model = Some(m);
                    }
                    self.llm = Some(e);
                    Reply::info(text)
                }
            },
        }
    }

    fn export(&mut self, path: Option<String>, at: Timestamp) -> Reply {
        let target = path.map(PathBuf::from).unwrap_or_else(|| {
            PathBuf::from(format!(
                "headroom-session-{}.md",
                at.strftime("%Y%m%dT%H%M%SZ")
            ))
        });
        let result = load(&self.dir).and_then(|(events, _)| {
            let md = session_markdown(&events, &self.id);
            let mut f = create_private(&target)?;
            f.write_all(md.as_bytes())?;
            f.sync_all()
        });
        match result {
            Ok(()) => Reply::info(format!("Wrote this session to {}.", target.display())),
            Err(e) => Reply::problem(format!(
                "Could not write {}: {e}. Give another path: `/export FILE`.",
                target.display()
            )),
        }
    }
}
