//! The dialogue without a terminal: turns are separated by blank lines (so a
//! pasted block stays one turn), replies go to stdout as plain text.

use crate::conversation::{Conversation, Outcome, now};
use crate::render::terminal::{Style, render};
use std::io::{BufRead, Write};

/// Run every turn on `input`, writing replies to `out`. Ends at EOF or /quit.
pub fn run(
    conv: &mut Conversation,
    input: impl BufRead,
    out: &mut impl Write,
) -> std::io::Result<()> {
    writeln!(out, "{}\n", render(&conv.greeting(now()), Style::Plain))?;
    let mut turn = String::new();
    let mut lines = input.lines();
    loop {
        let line = lines.next().transpose()?;
        let ends_turn = line.as_deref().is_none_or(|l| l.trim().is_empty());
        if let Some(l) = &line
            && !l.trim().is_empty()
        {
            if !turn.is_empty() {
                turn.push('\n');
            }
            turn.push_str(l.trim_end_matches('\r'));
        }
        if ends_turn && !turn.trim().is_empty() {
            match conv.turn(&turn, now())? {
                Outcome::Quit => return Ok(()),
                Outcome::Reply(reply) => {
                    writeln!(out, "{}\n", render(&reply.markdown, Style::Plain))?;
                }
            }
            out.flush()?;
            turn.clear();
        }
        if line.is_none() {
            return Ok(());
        }
    }
}
