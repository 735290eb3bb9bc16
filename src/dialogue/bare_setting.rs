//! "and the batch?": a setting named without a value. Rather than a dead
//! end, say what the run has now and the three ways to act on it.

use crate::dialogue::facts::Facts;
use crate::extract::re;
use regex::Regex;
use std::sync::LazyLock;

static SETTING: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(batch(?:\s*size)?|packing(?:\s*length)?|pack|seq(?:uence)?\s*len(?:gth)?|max_seq_length|optimi[sz]er|rank|checkpointing)\b",
    )
});

/// The reply for a setting named without a value, or None. `banner` holds
/// the per-device batches a pasted trainer banner printed: "which batch is
/// it really running with?" is answered from them.
pub fn bare_setting_reply(text: &str, facts: &Facts, banner: &[u64]) -> Option<String> {
    let word = SETTING.captures(text)?[1].to_ascii_lowercase();
    if word.starts_with("batch") && !banner.is_empty() {
        return Some(logged_batch(facts, banner));
    }
    let (name, now, set, what_if, solve) = if word.starts_with("batch") {
        (
            "batch",
            facts.batch.as_ref().map(|b| b.value.to_string()),
            "batch 2",
            "what if batch 2",
            Some("what's the largest batch that fits?"),
        )
    } else if word.starts_with("optimi") {
        (
            "optimizer",
            facts.optimizer.as_ref().map(|o| o.value.key().to_string()),
            "adamw_8bit",
            "what if adamw_8bit",
            None,
        )
    } else if word == "rank" {
        (
            "LoRA rank",
            facts.rank.as_ref().map(|r| r.value.to_string()),
            "r=32",
            "what if r=8",
            None,
        )
    } else if word == "checkpointing" {
        (
            "gradient checkpointing",
            facts
                .checkpointing
                .as_ref()
                .map(|c| if c.value { "on" } else { "off" }.to_string()),
            "checkpointing on",
            "what if no gradient checkpointing",
            None,
        )
    } else {
        (
            "packing length",
            facts.pack.as_ref().map(|p| p.value.to_string()),
            "packing 1024",
            "what if packing 4096",
            Some("what's the longest packing that fits?"),
        )
    };
    // Batch and packing are asked for; the rest have defaults the plan states.
    let asked_for = solve.is_some();
    let now = match now {
        Some(v) => format!("the run's {name} is {v}"),
        None if asked_for => format!("I have no {name} for the run yet"),
        None => "you have not set it, so the plan uses its default (listed under \"Assumed\" in the full plan)".to_string(),
    };
    let more = match solve {
        Some(s) => {
            format!(", or ask \"{s}\"; \"halve the batch\" and \"double the packing\" work too")
        }
        None => String::new(),
    };
    Some(format!(
        "You named the {name} without a value, so nothing changed: {now}. Say \"{set}\" to change it, \"{what_if}\" to see it beside the run{more}."
    ))
}

/// What the trainer printed against what the owner set; the plan keeps
/// the owner's until they say otherwise.
fn logged_batch(facts: &Facts, banner: &[u64]) -> String {
    let printed = banner
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(", then ");
    let last = banner[banner.len() - 1];
    let keeps = match &facts.batch {
        Some(b) if b.value == last => format!("the plan uses {last} already"),
        Some(b) => format!(
            "you set {}, and the plan keeps yours until you say otherwise: say \"plan it with {last}\" to use the logged one, or \"what if batch {last}\" to see both",
            b.value
        ),
        None => format!("say \"plan it with {last}\" to plan with it"),
    };
    format!(
        "Your trainer's banner printed a per-device batch of {printed}: that is what it ran with, as far as the log shows (the banner says no more than that). {}.",
        capitalize(&keeps)
    )
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or_else(String::new, |f| {
        f.to_uppercase().collect::<String>() + c.as_str()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bare_setting_gets_its_value_and_the_ways_to_change_it() {
        let r = bare_setting_reply("and the batch?", &Facts::default(), &[]).unwrap();
        assert!(r.contains("I have no batch for the run yet"), "{r}");
        assert!(r.contains("largest batch that fits"), "{r}");
        assert!(bare_setting_reply("thanks", &Facts::default(), &[]).is_none());
    }

    #[test]
    fn which_batch_after_a_banner_is_answered_from_it() {
        for q in [
            "so which batch is it really running with?",
            "what batch size is it actually using",
        ] {
            let r = bare_setting_reply(q, &Facts::default(), &[16, 14]).unwrap();
            assert!(r.contains("per-device batch of 16, then 14"), "{r}");
            assert!(r.contains("plan it with 14"), "{r}");
        }
    }
}
