//! A turn that is only a shell prompt and a command ("me@spark:~$ free -g"),
//! or a banner line: the output it introduces is what headroom reads, so
//! say so instead of a dead end.

use crate::extract::re;
use regex::Regex;
use std::sync::LazyLock;

static PROMPT: LazyLock<Regex> =
    LazyLock::new(|| re(r"^\s*(?:\S+@\S+:[^$#]*[$#]|\$|#)\s+(\S.*?)\s*$"));

/// The reply for a lone prompt line, or None.
pub fn command_line_reply(text: &str) -> Option<String> {
    let trimmed = text.trim();
    if trimmed.lines().count() != 1 {
        return None;
    }
    if trimmed.starts_with("=====") && trimmed.contains("NVSMI LOG") {
        return Some("That is the banner `nvidia-smi -q` prints first. Paste everything it printed in one paste (in piped mode a blank line ends a turn, so leave the blank lines out).".into());
    }
    let command = &PROMPT.captures(trimmed)?[1];
    Some(format!(
        "That is the command line (`{command}`), not its output: headroom never runs it. Paste what it printed, all of it in one paste (in piped mode a blank line ends a turn, so leave the blank lines out)."
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prompt_and_its_command() {
        let r = command_line_reply(
            "anelson@dgx-spark0:~/notes/GB10-Wattage$ nvidia-smi -q -d PERFORMANCE",
        )
        .unwrap();
        assert!(r.contains("(`nvidia-smi -q -d PERFORMANCE`)"), "{r}");
        assert!(command_line_reply("==============NVSMI LOG==============").is_some());
        assert!(command_line_reply("what should I sample?").is_none());
    }
}
