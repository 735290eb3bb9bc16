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
        if path.starts_with("~/") && std::env::var_os("HOME").is_none() {
            return Err("`~` cannot be expanded: HOME is not set".into());
        }
        // The same bounded reader as `headroom thermal`, so a 1 GB log typed
        // as a path streams in the chat as it does on the command line; a
        // file that opens like thermal samples gets their limit, refused by
        // its size before any of it is read, as `thermal` refuses it.
        let path = expand_home(path);
        let limit = if opens_like_thermal_samples(&path) {
            crate::input::THERMAL_CSV
        } else {
            crate::input::TRAIN_LOG
        };
        crate::input::open(&path, limit).map(|f| Box::new(f) as Box<dyn std::io::Read>)
    }
}

/// Its first 4 KiB read like a thermal sampler's CSV.
fn opens_like_thermal_samples(path: &std::path::Path) -> bool {
    use std::io::Read;
    let Ok(file) = crate::input::open(path, crate::input::TRAIN_LOG) else {
        return false;
    };
    let mut head = Vec::with_capacity(4096);
    if file.take(4096).read_to_end(&mut head).is_err() {
        return false;
    }
    crate::extract::thermal_csv::looks_like_thermal_paste(&String::from_utf8_lossy(&head))
}

pub enum Outcome {
    Reply(Shown),
    Quit,
}

/// A remembered data file's absolute path, or `None` when it no longer
/// names a regular file (the greeting lists no phantoms).
fn absolute_file(path: &str) -> Option<String> {
    let p = std::fs::canonicalize(expand_home(path)).ok()?;
    p.is_file().then(|| p.display().to_string())
}

/// `~/x` as the owner's home, like a shell would.
fn expand_home(path: &str) -> PathBuf {
    match (path.strip_prefix("~/"), std::env::var_os("HOME")) {
        (Some(rest), Some(home)) => PathBuf::from(home).join(rest),
        _ => PathBuf::from(path),
    }
}

/// The owner's words of the last turn, when the transcript ends before its
/// reply was stored (the session was killed while answering).
fn unanswered_turn(events: &[Event]) -> Option<String> {
    let last_owner = events
        .iter()
        .rposition(|e| matches!(e, Event::Owner { .. }))?;
    let answered = events[last_owner + 1..]
        .iter()
        .any(|e| matches!(e, Event::Reply { .. } | Event::Cancelled { .. }));
    match &events[last_owner] {
        Event::Owner { text, paste, .. } if !answered => Some(if paste.is_some() {
            "(a large paste)".to_string()
        } else {
            text.clone()
        }),
        _ => None,
    }
}

pub struct Conversation {
    pub session: Session,
    /// The model that phrases replies, when the owner chose one.
    pub llm: Option<crate::llm::endpoint::Endpoint>,
    /// `--allow-http`: an API key may go over plain http to another machine.
    pub allow_http: bool,
    /// Set by Ctrl-C; cancels a phrasing in flight.
    pub cancel: std::sync::Arc<std::sync::atomic::AtomicBool>,
    /// Where the phrasing spinner goes (stderr on a terminal, else nowhere).
    pub progress: Box<dyn Write>,
    transcript: Transcript,
    id: String,
    dir: PathBuf,
    unreadable_lines: usize,
    /// Where the torn transcript's original was kept, when it was repaired.
    repaired: Option<PathBuf>,
    /// The owner's last words from before, when no reply followed them.
    unanswered: Option<String>,
    /// Kept pastes that could not be used on replay (changed on disk or
    /// gone): when each was given and why.
    unused_pastes: Vec<(Timestamp, String)>,
    /// Why nothing can be written this session (a full disk at start, a
    /// torn transcript that could not be repaired): replies are shown, not
    /// saved.
    read_only: Option<String>,
    /// Why this turn's records could not be written, when they could not.
    unsaved: Option<String>,
    /// The data directory's mode when others can read or enter it (a
    /// backup tool or a copy without `-p` opened it): said at the start.
    dir_open_mode: Option<u32>,
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
        let loaded = load(dir).map_err(dir_err)?;
        let unanswered = unanswered_turn(&loaded.events);
        let unused_pastes = crate::memory::transcript::unusable_pastes(&loaded.events, dir);
        let mut session = replay(&loaded.events, dir, Knowledge::embedded());
        // A filesystem that takes no writes (read-only, full) still gets a
        // session: read-only, said at the start.
        let (mut transcript, cannot_open) = match Transcript::open(dir) {
            Ok(t) => (t, None),
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::ReadOnlyFilesystem
                        | std::io::ErrorKind::StorageFull
                        | std::io::ErrorKind::QuotaExceeded
                ) =>
            {
                (Transcript::unwritable(dir).map_err(dir_err)?, Some(e))
            }
            Err(e) => return Err(dir_err(e)),
        };
        // The pid tells apart two sessions started in the same second.
        let id = format!("{}-{}", at.strftime("%Y%m%dT%H%M%SZ"), std::process::id());
        session.current = id.clone();
        // A transcript that cannot take a record (a full disk, a torn tail
        // that could not be repaired) makes a read-only session, not no
        // session: the owner still gets answers.
        let read_only = match (&loaded.unrepaired, cannot_open) {
            (_, Some(e)) => Some(format!("the transcript cannot be written ({e})")),
            (Some(why), None) => Some(format!(
                "the transcript ends inside a record and could not be repaired ({why})"
            )),
            (None, None) => transcript
                .append(&Event::SessionStart {
                    at,
                    session: id.clone(),
                    version: env!("CARGO_PKG_VERSION").to_string(),
                })
                .err()
                .map(|e| format!("the transcript cannot be written ({e})")),
        };
        Ok(Conversation {
            session,
            llm: None,
            allow_http: false,
            cancel: Default::default(),
            progress: Box::new(std::io::sink()),
            transcript,
            id,
            dir: dir.to_path_buf(),
            unreadable_lines: loaded.unreadable,
            repaired: loaded.repaired,
            unanswered,
            unused_pastes,
            read_only,
            unsaved: None,
            dir_open_mode: {
                use std::os::unix::fs::PermissionsExt;
                std::fs::metadata(dir)
                    .ok()
                    .map(|m| m.permissions().mode() & 0o777)
                    .filter(|m| m & 0o077 != 0)
            },
            _lock: lock,
        })
    }

    pub fn data_dir(&self) -> &Path {
        &self.dir
    }

    pub fn greeting(&self, at: Timestamp) -> String {
        let mut text = greeting(&self.session, at, Knowledge::embedded(), &absolute_file);
        if let Some(kept) = &self.repaired {
            text.push_str(&format!(
                "\n\n(The transcript ended inside a record, as after a crash mid-write: I cut it back to the last whole record and kept the original as {}.)",
                kept.display()
            ));
        }
        if let Some(mode) = self.dir_open_mode {
            text.push_str(&format!(
                "\n\n(Your data directory {} is mode {mode:o}, so others on this box can list it. The files in it stay private (0600), but `chmod 700 {}` hides their names too.)",
                self.dir.display(),
                self.dir.display()
            ));
        }
        if let Some(words) = &self.unanswered {
            let quoted: String = words.chars().take(80).collect();
            let more = if words.chars().count() > 80 {
                "…"
            } else {
                ""
            };
            text.push_str(&format!(
                "\n\n(Your last message, \"{quoted}{more}\", was kept, but its reply was never shown: the session ended first. What it told me is remembered above; say it again to see the answer.)"
            ));
        }
        for (at, why) in &self.unused_pastes {
            text.push_str(&format!(
                "\n\n(A paste you gave on {} was not used: {why}. What it showed is not remembered; if you still need it, take that output again and paste it fresh.)",
                at.strftime("%Y-%m-%d %H:%M UTC")
            ));
        }
        if self.unreadable_lines > 0 {
            text.push_str(&format!(
                "\n\n({} line(s) of {} could not be read and were skipped; everything else was kept.)",
                self.unreadable_lines,
                self.transcript.path().display()
            ));
        }
        if let Some(why) = &self.read_only {
            text.push_str(&format!(
                "\n\n(Read-only: {why}. I answer as usual, but nothing from this session is saved; free some space (or make the directory writable) and start again to save.)"
            ));
        }
        text
    }

    /// Write one record; a failure is remembered for this turn's reply and
    /// never costs the answer.
    fn record(&mut self, event: Event) {
        let result = match &self.read_only {
            Some(_) => Err(std::io::Error::other("this session is read-only")),
            None => self.transcript.append(&event),
        };
        if let Err(e) = result
            && self.unsaved.is_none()
        {
            self.unsaved = Some(e.to_string());
        }
    }

    /// The notes a reply carries about its own records: not saved, or the
    /// transcript replaced under the session (said once).
    fn record_notes(&mut self, reply: &mut Shown) {
        let mut notes = Vec::new();
        if let Some(why) = self.unsaved.take() {
            notes.push(match self.read_only {
                Some(_) => "(Not saved: this session is read-only.)".to_string(),
                None => format!(
                    "(This turn is not saved: {why}. The answer stands and the session goes on; free some space and later turns are saved again.)"
                ),
            });
        }
        if let Some(cut) = self.transcript.take_changed() {
            let (how, then) = if cut {
                ("cut short", "what was cut is gone")
            } else {
                (
                    "written to by something else",
                    "on restart, lines that are not whole records are skipped and said",
                )
            };
            notes.push(format!(
                "(The transcript was {how} while this session ran: this turn's record starts on a line of its own in {}; {then}.)",
                self.transcript.path().display()
            ));
        }
        if self.transcript.take_replaced() {
            notes.push(format!(
                "(The transcript was replaced while this session ran, as an editor does when it saves: I write to the new {} from here on.)",
                self.transcript.path().display()
            ));
        }
        for note in notes {
            reply.markdown.push_str(&format!("\n\n{note}"));
            reply.parts.push(crate::render::reply::Part {
                markdown: note,
                phrasable: false,
            });
        }
    }

    /// Handle one turn: a slash command or the owner's words.
    pub fn turn(&mut self, text: &str, at: Timestamp) -> std::io::Result<Outcome> {
        if let Some(cmd) = commands::parse(text) {
            return self.command(cmd, at);
        }
        // A key typed or pasted into the chat is never kept, echoed or sent.
        let key = self
            .llm
            .as_ref()
            .filter(|e| e.protocol == crate::llm::endpoint::Protocol::OpenAi)
            .and_then(|_| crate::llm::secrets::get());
        let owned = crate::llm::redact::owner_text(text, key.as_deref());
        let text = owned.as_str();
        let paste = if text.len() > crate::memory::pastes::BY_REFERENCE_ABOVE {
            match crate::memory::pastes::store(&self.dir, text) {
                Ok(name) => Some(name),
                Err(e) => {
                    self.unsaved = Some(format!("the paste could not be kept ({e})"));
                    None
                }
            }
        } else {
            None
        };
        self.record(Event::Owner {
            at,
            session: self.id.clone(),
            text: if paste.is_some() {
                String::new()
            } else {
                text.to_string()
            },
            paste,
        });
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
        self.record(event);
        self.record_notes(&mut reply);
        Ok(Outcome::Reply(reply))
    }

    /// The owner abandoned an answer with Ctrl-C.
    pub fn cancelled(&mut self, at: Timestamp) -> std::io::Result<()> {
        self.record(Event::Cancelled {
            at,
            session: self.id.clone(),
        });
        Ok(())
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
                            });
                            dropped.push(slot.key());
                        }
                    }
                    // "all" is a fresh start: the plan record, the ladder,
                    // the thermal files and every decision go too.
                    if arg.as_deref() == Some("all") && self.session != Session::default() {
                        self.record(Event::Forget {
                            at,
                            session: self.id.clone(),
                            slot: "all".to_string(),
                        });
                        self.session = Session {
                            current: self.id.clone(),
                            ..Session::default()
                        };
                        dropped.push("everything else (the last plan, the OOM ladder, thermal files, decisions)");
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
        let mut shown = show(&reply);
        self.record_notes(&mut shown);
        Ok(Outcome::Reply(shown))
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
                    e.allow_http = self.allow_http;
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

    fn export(&mut self, arg: Option<String>, at: Timestamp) -> Reply {
        let words: Vec<&str> = arg.as_deref().unwrap_or("").split_whitespace().collect();
        let force = words.contains(&"--force");
        let path = words
            .iter()
            .find(|w| **w != "--force")
            .map(|p| expand_home(p));
        let target = path.unwrap_or_else(|| {
            PathBuf::from(format!(
                "headroom-session-{}.md",
                at.strftime("%Y%m%dT%H%M%SZ")
            ))
        });
        if !force && std::fs::symlink_metadata(&target).is_ok() {
            return Reply::problem(format!(
                "{} already exists; I do not overwrite files. Give another name, or `/export {} --force` to replace it.",
                crate::render::terminal::sanitize(&target.display().to_string()),
                crate::render::terminal::sanitize(&target.display().to_string())
            ));
        }
        // A FIFO, device or directory under the name is never replaced: a
        // write-open of a FIFO would wait for a reader forever.
        if let Some(why) = std::fs::metadata(&target)
            .ok()
            .and_then(|m| crate::input::not_a_file(m.file_type()))
        {
            return Reply::problem(format!(
                "Could not write {}: {why}. Give another path: `/export FILE`.",
                crate::render::terminal::sanitize(&target.display().to_string())
            ));
        }
        let result = load(&self.dir).and_then(|loaded| {
            let md = session_markdown(&loaded.events, &self.id, &self.dir);
            let mut f = if force {
                create_private(&target)?
            } else {
                crate::memory::datadir::create_new_private(&target)?
            };
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
