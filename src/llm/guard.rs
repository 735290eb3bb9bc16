//! The guard between a model's phrasing and the owner: every number (with
//! its unit) must be one of the reply's numbers, every command one of the
//! reply's commands, the verdict the same. Anything else and the owner sees
//! the deterministic text, with one line saying why.

use crate::calc::verdict::Verdict;
use crate::render::reply::Shown;
use regex::Regex;
use std::collections::BTreeSet;
use std::sync::LazyLock;

static NUMBER: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(\d[\d,]*(?:\.\d+)?)\s?(GiB|GB|MiB|MB|KiB|kB|W|°C|%|B\b|s/step|s/it|it/s|tokens?|params?|min\b|h\b|ms\b|s\b)?",
    )
});
static CODE: LazyLock<Regex> = LazyLock::new(|| crate::extract::re(r"`([^`\n]+)`"));
/// Shell words that must not appear unless the reply itself has them.
const RISKY: &[&str] = &[
    "rm -rf",
    "rm -r",
    "sudo",
    "kill ",
    "pkill",
    "systemctl",
    "drop_caches",
    "echo 3",
    "curl ",
    "wget ",
    "chmod",
    "chown",
    "dd if=",
    "mkfs",
    "shutdown",
    "reboot",
    "nvidia-smi -",
    "| sh",
    "| bash",
];

/// The numbers of a text in order, each with its unit ("" when none).
fn number_list(text: &str) -> Vec<(String, String)> {
    NUMBER
        .captures_iter(text)
        .map(|c| {
            let value = c[1].replace(',', "");
            let value = value.strip_suffix(".0").unwrap_or(&value).to_string();
            (
                value,
                c.get(2).map_or(String::new(), |u| u.as_str().to_string()),
            )
        })
        .collect()
}

fn numbers(text: &str) -> BTreeSet<(String, String)> {
    number_list(text).into_iter().collect()
}

/// Is `part` a subsequence of `whole`, by value? Rephrasing keeps the order
/// of figures, so a figure moved next to another label shows up here.
fn in_order(part: &[(String, String)], whole: &[(String, String)]) -> bool {
    let mut it = whole.iter();
    part.iter().all(|(v, _)| it.any(|(w, _)| w == v))
}

/// Scaffolding of the prompt that must never reach the owner.
const SCAFFOLD: &[&str] = &[
    "<answer>",
    "</answer>",
    "<data>",
    "</data>",
    "The owner wrote (data",
];

fn codes(text: &str) -> BTreeSet<String> {
    CODE.captures_iter(text)
        .map(|c| c[1].trim().to_string())
        .collect()
}

/// Why a phrasing was rejected, in one line for the owner.
pub fn check(phrased: &str, reply: &Shown) -> Result<(), String> {
    if phrased.trim().is_empty() {
        return Err("the model returned nothing".into());
    }
    if SCAFFOLD.iter().any(|s| phrased.contains(s)) {
        return Err("the model echoed its instructions instead of rephrasing".into());
    }
    let allowed = numbers(&reply.markdown);
    let allowed_values: BTreeSet<&String> = allowed.iter().map(|(v, _)| v).collect();
    for (value, unit) in numbers(phrased) {
        let ok = if unit.is_empty() {
            allowed_values.contains(&value)
        } else {
            allowed.contains(&(value.clone(), unit.clone()))
        };
        if !ok {
            return Err(format!(
                "the model wrote {value}{}{unit}, which is not in the answer",
                if unit.is_empty() { "" } else { " " }
            ));
        }
    }
    if !in_order(&number_list(phrased), &number_list(&reply.markdown)) {
        return Err("the model moved figures away from what they describe".into());
    }
    // The verdict sentence's figures (the estimate and the budget) must stay.
    if let Some(line) = reply.markdown.lines().find(|l| l.contains("**Verdict:")) {
        for (value, unit) in number_list(line).into_iter().take(2) {
            if !numbers(phrased).contains(&(value.clone(), unit.clone())) {
                return Err(format!("the model dropped {value} {unit} from the verdict"));
            }
        }
    }
    let allowed_codes = codes(&reply.markdown);
    for code in codes(phrased) {
        if !allowed_codes.contains(&code) && !reply.commands.iter().any(|c| c == &code) {
            // The command itself is not repeated: it should not be copied.
            let _ = code;
            return Err("the model added a command that is not in the answer".into());
        }
    }
    let lower = phrased.to_ascii_lowercase();
    let original = reply.markdown.to_ascii_lowercase();
    for risky in RISKY {
        if lower.contains(risky) && !original.contains(risky) {
            let _ = risky;
            return Err("the model added a command that is not in the answer".into());
        }
    }
    if let Some(v) = reply.verdict {
        if !lower.contains(v.label()) {
            return Err(format!("the model dropped the verdict ({})", v.label()));
        }
        for other in [Verdict::Fits, Verdict::Tight, Verdict::DoesNotFit] {
            if other == v {
                continue;
            }
            let label = other.label();
            // "fits" is inside no other label; "does not fit" contains "fit".
            let count = |t: &str| t.matches(label).count();
            if count(&lower) > count(&original) {
                return Err(format!(
                    "the model changed the verdict (it says \"{label}\")"
                ));
            }
        }
    }
    crate::llm::meaning::check(&reply.markdown, phrased)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan() -> Shown {
        Shown {
            verdict: Some(Verdict::Fits),
            commands: vec!["free -g".into()],
            ..Shown::text(
                "**Verdict: fits.** Estimated peak 51.14 GB of 119.48 GB. Run `free -g` before launch. Weights 39.52 GB.",
            )
        }
    }

    #[test]
    fn a_faithful_rephrasing_passes() {
        assert_eq!(
            check(
                "It fits: the peak is 51.14 GB against 119.48 GB (weights 39.52 GB). Check `free -g` first.",
                &plan()
            ),
            Ok(())
        );
    }

    #[test]
    fn figures_moved_to_other_labels_or_echoed_scaffolding_are_rejected() {
        let r = Shown::text(
            "- the batch size (\"batch 1\")\n- the packing length (\"packing 2048\", \"max_seq_length=4096\")",
        );
        assert!(
            check(
                "- the packing length: 2048 or 4096\n- the batch size: 2048",
                &r
            )
            .is_err()
        );
        assert!(
            check("<answer>\nthe batch size (\"batch 1\")", &r)
                .unwrap_err()
                .contains("echoed")
        );
        assert_eq!(
            check(
                "Tell me the batch size (\"batch 1\") and packing (2048 or 4096).",
                &r
            ),
            Ok(())
        );
    }

    #[test]
    fn a_changed_number_an_added_command_or_a_dropped_verdict_is_rejected() {
        assert!(
            check("It fits: the peak is 41.14 GB.", &plan())
                .unwrap_err()
                .contains("41.14 GB")
        );
        assert!(
            check(
                "It fits at 51.14 GB of 119.48 GB. Then run `rm -rf /`.",
                &plan()
            )
            .unwrap_err()
            .contains("added a command")
        );
        assert!(
            check(
                "It fits at 51.14 GB of 119.48 GB. sudo rm -rf / to clean up.",
                &plan()
            )
            .unwrap_err()
            .contains("added a command")
        );
        assert!(
            check("The peak is 51.14 GB of 119.48 GB.", &plan())
                .unwrap_err()
                .contains("dropped the verdict")
        );
        assert!(
            check(
                "It fits... actually it does not fit at 51.14 GB of 119.48 GB.",
                &plan()
            )
            .unwrap_err()
            .contains("changed the verdict")
        );
        assert!(check("", &plan()).is_err());
    }
}
