//! The REPL's slash commands: one table with their help text, the parser,
//! and the pure replies for the ones that need no I/O.

use crate::dialogue::facts::SlotName;
use crate::dialogue::plan_turn::missing;
use crate::dialogue::session::{Session, done_line, when};
use crate::reply::Reply;
use jiff::Timestamp;
use regex::Regex;
use std::fmt::Write;
use std::sync::LazyLock;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SlashCommand {
    Help,
    Status,
    Forget(Option<String>),
    Export(Option<String>),
    Sampler,
    Llm(Option<String>),
    Quit,
    Unknown(String),
}

/// Name, arguments, and help, in the order `/help` lists them.
pub const COMMANDS: &[(&str, &str, &str)] = &[
    ("/help", "", "this list (also /?)"),
    (
        "/status",
        "",
        "what I remember, what is done and what is not",
    ),
    (
        "/forget",
        "SLOT|all",
        "drop a remembered answer: model, method, dtype, batch, pack, free, optimizer, checkpointing, rank, targets, dropout, precision, attention, loss, nodes, sharding, offload",
    ),
    (
        "/export",
        "[FILE] [--force]",
        "write this session as markdown (default: ./headroom-session-<time>.md; an existing file only with --force)",
    ),
    (
        "/sampler",
        "",
        "the thermal sampler script and how to start and stop it",
    ),
    (
        "/llm",
        "[SPEC|off]",
        "which model phrases replies: ollama[:MODEL][@URL] or openai:MODEL@URL",
    ),
    ("/quit", "", "leave (also /exit, /bye, Ctrl-D)"),
];

/// "what do you know so far?", "remind me of my settings": `/status` in words.
static STATUS_IN_WORDS: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(?i)^\s*(?:(?:so|ok(?:ay)?|and|hey|hmm+|wait)[,\s]+)*(?:what (?:do|did) you (?:know|have|remember)(?: (?:so far|now|about (?:me|my|the|this) (?:run|setup|training|job)|of (?:my|the) run))?|what have i (?:told|given) you(?: so far)?|what do we have so far|where (?:are|were) we|what(?:'s| is| are) (?:my|the) (?:current )?(?:run|settings?|setup|config(?:uration)?)(?: (?:so far|again|now|you have))?|remind me (?:what|of) (?:my |the )?(?:run|settings?|setup|i (?:told|said|gave) you)(?: (?:is|was|are|were))?(?: again)?|recap(?: please)?|(?:show|list) (?:me )?(?:my|the) (?:current )?(?:settings?|run|setup))\s*[?.!]*\s*$",
    )
});

pub fn parse(line: &str) -> Option<SlashCommand> {
    let line = line.trim();
    if STATUS_IN_WORDS.is_match(line) {
        return Some(SlashCommand::Status);
    }
    if !line.starts_with('/') || line.contains('\n') {
        return None;
    }
    let mut parts = line.splitn(2, char::is_whitespace);
    let name = parts.next().unwrap_or("");
    // `/home/owner/thermal.log` is a file, not a command: a command is one
    // word after the slash.
    if name[1..].contains(['/', '.', '~']) {
        return None;
    }
    let arg = parts
        .next()
        .map(str::trim)
        .filter(|a| !a.is_empty())
        .map(String::from);
    Some(match name {
        "/help" | "/?" => SlashCommand::Help,
        "/status" => SlashCommand::Status,
        "/forget" => SlashCommand::Forget(arg),
        "/export" => SlashCommand::Export(arg),
        "/sampler" => SlashCommand::Sampler,
        "/llm" => SlashCommand::Llm(arg),
        "/quit" | "/exit" | "/bye" => SlashCommand::Quit,
        other => SlashCommand::Unknown(other.to_string()),
    })
}

pub fn help() -> Reply {
    let mut md = String::from(
        "Tell me about the run in plain words (\"QLoRA on Llama 3.1 70B, batch 1, packing 2048\") and paste command output as it is. Commands:\n\n",
    );
    for (name, args, text) in COMMANDS {
        let _ = writeln!(
            md,
            "- `{name}{}{args}` {text}",
            if args.is_empty() { "" } else { " " }
        );
    }
    md.push_str("\nKeys: Ctrl-C abandons the current line or answer, Ctrl-D leaves, Ctrl-R searches history. A paste arrives as one turn; in a terminal without bracketed paste, end a line with `\\` to continue it.");
    Reply::info(md)
}

pub fn status(session: &Session, now: Timestamp) -> Reply {
    let mut md = String::new();
    if session.facts.answered().is_empty() {
        md.push_str("I remember nothing about the run yet.\n");
    } else {
        md.push_str("I remember:\n\n");
        status_lines(&mut md, session, now);
    }
    let _ = writeln!(md, "\n{}", done_line(session.last_plan.as_ref()));
    if let Some(ladder) = &session.ladder {
        let _ = write!(md, "\n{}", crate::dialogue::oom_turn::ladder_status(ladder));
    }
    if let Some(action) = &session.pending {
        let _ = writeln!(md, "\nWaiting for your yes or no on: {}.", action.label());
    }
    for d in &session.decisions {
        let _ = writeln!(
            md,
            "- {}: you said {} on {}",
            d.action.label(),
            if d.approved { "yes" } else { "no" },
            when(d.at)
        );
    }
    let still = missing(&session.facts);
    if still.is_empty() && session.facts.free.is_none() {
        md.push_str("Not done: the plan is made against an idle Spark's nominal budget; paste `free -g` to confirm it.");
    } else if still.is_empty() {
        md.push_str("Not done: nothing is missing for the plan.");
    } else {
        let names: Vec<&str> = still.iter().map(|s| s.key()).collect();
        let _ = write!(md, "Not done: the plan still needs {}.", names.join(", "));
    }
    Reply::info(md)
}

/// The slots a `/forget` argument names, or why it names none.
pub fn forget_targets(arg: Option<&str>) -> Result<Vec<SlotName>, String> {
    match arg {
        None => {
            Err("Say what to forget: `/forget batch`, `/forget free`, or `/forget all`.".into())
        }
        Some("all") => Ok(SlotName::ALL.to_vec()),
        Some(word) => SlotName::parse(word).map(|s| vec![s]).ok_or_else(|| {
            let names: Vec<&str> = SlotName::ALL.iter().map(|s| s.key()).collect();
            format!(
                "I keep no answer called `{word}`. I can forget: {}, or all.",
                names.join(", ")
            )
        }),
    }
}

pub fn unknown(name: &str) -> Reply {
    let nearest = COMMANDS
        .iter()
        .map(|(n, _, _)| *n)
        .min_by_key(|n| strsim(n, name))
        .unwrap_or("/help");
    Reply::problem(format!(
        "There is no `{name}` command. Did you mean `{nearest}`? `/help` lists them all."
    ))
}

/// Edit distance, for suggesting the nearest command name.
fn strsim(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur.push((prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

/// One line per remembered answer, with the owner's words and their age.
pub fn status_lines(md: &mut String, session: &Session, now: Timestamp) {
    use std::fmt::Write;
    for (slot, value, words, at) in session.facts.answered() {
        let quoted = if slot == crate::dialogue::facts::SlotName::Free {
            String::new()
        } else {
            format!(" (\"{words}\")")
        };
        let _ = writeln!(
            md,
            "- {}: {value}{quoted}, {}",
            slot.key(),
            crate::dialogue::session::age(at, now)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_commands_and_arguments() {
        assert_eq!(
            parse("/forget batch"),
            Some(SlashCommand::Forget(Some("batch".into())))
        );
        assert_eq!(parse("/bye"), Some(SlashCommand::Quit));
        assert_eq!(parse("batch 2"), None);
        assert_eq!(
            parse("/statsu"),
            Some(SlashCommand::Unknown("/statsu".into()))
        );
    }

    #[test]
    fn asking_what_headroom_knows_in_words_is_status() {
        for text in [
            "what do you know so far?",
            "ok, what have I told you",
            "remind me what my run is again",
            "what are my current settings?",
            "so where are we",
            "recap please",
            "show me the settings",
        ] {
            assert_eq!(parse(text), Some(SlashCommand::Status), "{text}");
        }
        for text in [
            "what do you know about thermal throttling?",
            "what is my peak?",
            "what settings should I use?",
        ] {
            assert_eq!(parse(text), None, "{text}");
        }
    }

    #[test]
    fn suggests_the_nearest_command() {
        assert!(unknown("/statsu").text().contains("`/status`"));
    }

    #[test]
    fn forget_names() {
        assert_eq!(forget_targets(Some("bs")), Ok(vec![SlotName::Batch]));
        assert!(
            forget_targets(Some("colour"))
                .unwrap_err()
                .contains("batch")
        );
        assert_eq!(
            forget_targets(Some("all")).unwrap().len(),
            SlotName::ALL.len()
        );
    }
}
