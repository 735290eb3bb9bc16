//! Line-editing help for the REPL: slash-command completion and the
//! continuation rule that keeps a paste one turn on terminals without
//! bracketed paste.

use crate::dialogue::commands::COMMANDS;
use rustyline::completion::{Completer, Pair};
use rustyline::validate::{ValidationContext, ValidationResult, Validator};
use rustyline::{Context, Helper, Highlighter, Hinter};

#[derive(Helper, Highlighter, Hinter, Default)]
pub struct ReplHelper;

impl Completer for ReplHelper {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let typed = &line[..pos];
        if !typed.starts_with('/') || typed.contains(char::is_whitespace) {
            return Ok((0, Vec::new()));
        }
        let matches = COMMANDS
            .iter()
            .filter(|(name, _, _)| name.starts_with(typed))
            .map(|(name, _, _)| Pair {
                display: (*name).to_string(),
                replacement: (*name).to_string(),
            })
            .collect();
        Ok((0, matches))
    }
}

impl Validator for ReplHelper {
    fn validate(&self, ctx: &mut ValidationContext<'_>) -> rustyline::Result<ValidationResult> {
        Ok(if needs_more(ctx.input()) {
            ValidationResult::Incomplete
        } else {
            ValidationResult::Valid(None)
        })
    }
}

fn is_free_header(line: &str) -> bool {
    let l = line.trim();
    l.starts_with("total") && l.contains("used") && l.contains("free")
}

/// Whether the text typed so far is an unfinished turn:
/// - a line ending in `\` continues on the next line;
/// - an open ``` fence continues until it is closed;
/// - `free` output continues from its header until its `Swap:` line.
///
/// An empty last line (Enter on a blank line) always ends the turn.
pub fn needs_more(input: &str) -> bool {
    if input.ends_with('\n') {
        return false;
    }
    if input.ends_with('\\') {
        return true;
    }
    if input.matches("```").count() % 2 == 1 {
        return true;
    }
    let mut lines = input.lines().filter(|l| !l.trim().is_empty());
    if lines.next().is_some_and(is_free_header) {
        return !input.lines().any(|l| l.trim_start().starts_with("Swap:"));
    }
    false
}

/// The turn as the owner meant it: `\`-continued lines joined.
pub fn join_continuations(input: &str) -> String {
    input
        .lines()
        .map(|l| l.strip_suffix('\\').unwrap_or(l))
        .collect::<Vec<_>>()
        .join("\n")
        .trim()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn free_output_typed_line_by_line_stays_one_turn() {
        let header =
            "               total        used        free      shared  buff/cache   available";
        assert!(needs_more(header));
        let with_mem = format!("{header}\nMem:   119   4   80   0   35   115");
        assert!(needs_more(&with_mem));
        assert!(!needs_more(&format!("{with_mem}\nSwap:  15  0  15")));
        // Enter on an empty line ends it even without the Swap: line.
        assert!(!needs_more(&format!("{with_mem}\n")));
    }

    #[test]
    fn backslash_and_fences_continue() {
        assert!(needs_more("QLoRA on Llama 3.1 70B \\"));
        assert!(needs_more("```\n{\"hidden_size\": 4096"));
        assert!(!needs_more("```\n{}\n```"));
        assert!(!needs_more("batch 2"));
        assert_eq!(join_continuations("a \\\nb"), "a \nb");
    }
}
