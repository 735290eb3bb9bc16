//! The interactive edge: a rustyline prompt, history in the data directory,
//! Ctrl-C that abandons a line or an answer but never the session, Ctrl-D
//! that leaves.

pub mod helper;

use crate::conversation::{Conversation, Outcome, now};
use crate::render::terminal::{Style, render};
use helper::{ReplHelper, join_continuations};
use rustyline::error::ReadlineError;
use rustyline::history::DefaultHistory;
use rustyline::{Config, Editor};
use std::os::unix::fs::PermissionsExt;
use std::sync::Arc;
use std::sync::atomic::Ordering;

pub const PROMPT: &str = "headroom> ";

#[derive(Debug, thiserror::Error)]
pub enum ReplError {
    #[error("the line editor failed: {0}")]
    Editor(#[from] ReadlineError),
    #[error("could not write the transcript: {0}")]
    Transcript(#[from] std::io::Error),
}

pub fn run(conv: &mut Conversation) -> Result<(), ReplError> {
    let style = Style::detect();
    let config = Config::builder()
        .auto_add_history(false)
        .history_ignore_space(true)
        .max_history_size(2000)?
        .bracketed_paste(true)
        .build();
    let mut rl: Editor<ReplHelper, DefaultHistory> = Editor::with_config(config)?;
    rl.set_helper(Some(ReplHelper));
    let history = conv.data_dir().join("history.txt");
    // rustyline opens the history by name and would follow a link planted
    // there; such a history is not used at all.
    let history_ok = !crate::memory::datadir::is_symlink(&history);
    if !history_ok {
        eprintln!(
            "headroom: {} is a symlink, so line history is off this session (remove the link to turn it back on).",
            crate::render::terminal::sanitize(&history.display().to_string())
        );
    }
    // A missing history file is a first run, not an error.
    if history_ok {
        let _ = rl.load_history(&history);
    }

    // While an answer is being made the terminal is in cooked mode, so Ctrl-C
    // arrives as SIGINT; catch it as a flag instead of dying.
    // The conversation's cancel flag: Ctrl-C also stops a phrasing in flight.
    let interrupted = Arc::clone(&conv.cancel);
    signal_hook::flag::register(signal_hook::consts::SIGINT, Arc::clone(&interrupted))?;

    println!("{}\n", render(&conv.greeting(now()), style));
    loop {
        match rl.readline(PROMPT) {
            Ok(line) => {
                let text = join_continuations(&line);
                if text.is_empty() {
                    continue;
                }
                // A model's URL may carry credentials: history keeps it redacted.
                rl.add_history_entry(crate::llm::redact::url_credentials(&line).as_ref())?;
                if history_ok
                    && !crate::memory::datadir::is_symlink(&history)
                    && rl.append_history(&history).is_ok()
                {
                    let _ =
                        std::fs::set_permissions(&history, std::fs::Permissions::from_mode(0o600));
                }
                interrupted.store(false, Ordering::SeqCst);
                match conv.turn(&text, now())? {
                    Outcome::Quit => break,
                    Outcome::Reply(reply) => {
                        // With a model, Ctrl-C stopped only the phrasing: the
                        // reply already holds headroom's own text.
                        if interrupted.swap(false, Ordering::SeqCst) && conv.llm.is_none() {
                            conv.cancelled(now())?;
                            println!("(answer abandoned; your words are kept in the transcript)\n");
                        } else {
                            println!("{}\n", render(&reply.markdown, style));
                        }
                    }
                }
            }
            Err(ReadlineError::Interrupted) => {
                println!("(line abandoned; Ctrl-D or /quit leaves)");
            }
            Err(ReadlineError::Eof) => break,
            // Bytes that are not UTF-8 (a binary paste, a file path in
            // another encoding) lose that line, never the session.
            Err(ReadlineError::Io(e)) if e.kind() == std::io::ErrorKind::InvalidData => {
                println!(
                    "(that line had bytes that are not UTF-8 text, so the line editor could not read it; nothing you said before is lost. Paste it again as text, or give the file's path.)"
                );
            }
            Err(e) => return Err(e.into()),
        }
    }
    Ok(())
}
