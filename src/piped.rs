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
    // A blank line seen after a turn that may go on (a table cut by its
    // own blank line): the turn ends only if the next line does not go on.
    let mut held = false;
    loop {
        buf.clear();
        let n = std::io::Read::take(&mut input, (MAX_TURN_BYTES + 1) as u64)
            .read_until(b'\n', &mut buf)?;
        let line = (n > 0).then(|| decode(&buf));
        let blank = line.as_ref().is_some_and(|(l, _)| l.trim().is_empty());
        if blank && !turn.is_empty() && may_go_on(&turn) {
            held = true;
            continue;
        }
        if held {
            held = false;
            let goes_on = line.as_ref().is_some_and(|(l, _)| goes_on(&turn, l));
            if goes_on {
                turn.push('\n');
            } else if !turn.trim().is_empty() {
                if answer(conv, &turn, lossy, out)? {
                    return Ok(());
                }
                turn.clear();
                lossy = false;
            }
        }
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
            if answer(conv, &turn, lossy, out)? {
                return Ok(());
            }
            turn.clear();
            lossy = false;
        }
        if line.is_none() {
            return Ok(());
        }
    }
}

/// Answer one turn; true when the owner asked to quit.
fn answer(
    conv: &mut Conversation,
    turn: &str,
    lossy: bool,
    out: &mut impl Write,
) -> std::io::Result<bool> {
    if lossy {
        writeln!(
            out,
            "(Some bytes in that turn were not UTF-8 text; they are shown as \u{FFFD} and the rest was read as usual.)"
        )?;
    }
    match conv.turn(turn, now())? {
        Outcome::Quit => return Ok(true),
        Outcome::Reply(reply) => {
            writeln!(out, "{}\n", render(&reply.markdown, Style::Plain))?;
        }
    }
    out.flush()?;
    Ok(false)
}

/// A box-drawn table's border or row: `+----+`, `|=====|`, `| 0  GB10 … |`.
fn table_line(line: &str) -> bool {
    let t = line.trim();
    (t.starts_with("+-") || t.starts_with("+=") || t.starts_with('|')) && t.len() > 2
}

/// Whether a turn ends where its own output may carry a blank line: a box
/// table (nvidia-smi prints one between the GPU table and `Processes:`) or
/// a traceback chained to the next ("The above exception was …").
fn may_go_on(turn: &str) -> bool {
    let last = turn.lines().last().unwrap_or("").trim();
    table_line(last)
        || last.ends_with("following exception:")
        || turn.lines().any(|l| {
            l.trim_start()
                .starts_with("Traceback (most recent call last)")
        })
}

/// Whether the line after a blank goes on with the turn held before it.
fn goes_on(turn: &str, line: &str) -> bool {
    let last = turn.lines().last().unwrap_or("").trim();
    let next = line.trim();
    (table_line(last) && table_line(next))
        || (last.ends_with("following exception:") && next.starts_with("Traceback"))
        || next.starts_with("The above exception was the direct cause")
        || next.starts_with("During handling of the above exception")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_or_a_chained_traceback_goes_on_past_its_blank_line() {
        let gpus = "+------+\n| GPU  |\n+------+";
        assert!(may_go_on(gpus));
        assert!(goes_on(gpus, "+------+"));
        assert!(goes_on(gpus, "| Processes:      |"));
        assert!(!goes_on(gpus, "is that bad?"));
        let tb = "Traceback (most recent call last):\n  File \"a.py\", line 1\nValueError: x";
        assert!(may_go_on(tb));
        assert!(goes_on(
            tb,
            "The above exception was the direct cause of the following exception:"
        ));
        assert!(goes_on(
            "ValueError: x\n\nThe above exception was the direct cause of the following exception:",
            "Traceback (most recent call last):"
        ));
        assert!(!goes_on(tb, "it died at step 40"));
        assert!(!may_go_on("lora on qwen 7b, batch 2"));
    }
}
