//! The dialogue without a terminal: turns are separated by blank lines (so a
//! pasted block stays one turn), replies go to stdout as plain text.

use crate::conversation::{Conversation, Outcome, now};
use crate::render::terminal::{Style, render};
use std::io::{BufRead, Write};

/// The longest turn read from a pipe; a longer one is cut there and the
/// owner told (a paste that size is not a command output headroom reads).
pub const MAX_TURN_BYTES: usize = 8 * 1024 * 1024;

/// One line as text: bytes that are not UTF-8 are replaced (U+FFFD) rather
/// than ending the session. Returns the line and whether it was replaced.
fn decode(bytes: &[u8]) -> (String, bool) {
    match String::from_utf8_lossy(bytes) {
        std::borrow::Cow::Borrowed(s) => (s.to_string(), false),
        std::borrow::Cow::Owned(s) => (s, true),
    }
}

/// Run every turn on `input`, writing replies to `out`. Ends at EOF or /quit.
pub fn run(
    conv: &mut Conversation,
    mut input: impl BufRead + Sized,
    out: &mut impl Write,
) -> std::io::Result<()> {
    writeln!(out, "{}\n", render(&conv.greeting(now()), Style::Plain))?;
    let mut turn = String::new();
    let mut lossy = false;
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let n = std::io::Read::take(&mut input, (MAX_TURN_BYTES + 1) as u64)
            .read_until(b'\n', &mut buf)?;
        let line = (n > 0).then(|| decode(&buf));
        let ends_turn = line.as_ref().is_none_or(|(l, _)| l.trim().is_empty());
        if let Some((l, replaced)) = &line
            && !l.trim().is_empty()
        {
            lossy |= replaced;
            if turn.len() + l.len() > MAX_TURN_BYTES {
                // No command output is this long without a blank line: it
                // is a file or an endless stream. Stop in bounded time.
                writeln!(
                    out,
                    "headroom: stopped reading: a turn of more than {} MiB with no blank line is not a paste I can read (give a log's path instead). Every turn before it was answered and is kept.",
                    MAX_TURN_BYTES / (1024 * 1024)
                )?;
                return Ok(());
            } else {
                if !turn.is_empty() {
                    turn.push('\n');
                }
                turn.push_str(l.trim_end_matches(['\n', '\r']));
            }
        }
        if ends_turn && !turn.trim().is_empty() {
            if lossy {
                writeln!(
                    out,
                    "(Some bytes in that turn were not UTF-8 text; they are shown as \u{FFFD} and the rest was read as usual.)"
                )?;
            }
            match conv.turn(&turn, now())? {
                Outcome::Quit => return Ok(()),
                Outcome::Reply(reply) => {
                    writeln!(out, "{}\n", render(&reply.markdown, Style::Plain))?;
                }
            }
            out.flush()?;
            turn.clear();
            lossy = false;
        }
        if line.is_none() {
            return Ok(());
        }
    }
}
