//! A reply's explanatory prose as a template for the model: every figure,
//! code span, emphasis, quote, link, path, verdict, decision, negation and
//! hedge becomes a placeholder (`{figure3}`) that headroom fills after the
//! model answers. The model only rearranges the words between them.

use regex::Regex;
use std::sync::LazyLock;

/// What a placeholder stands for; its name is all the model sees of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Code,
    Emphasis,
    Quote,
    Link,
    Path,
    Figure,
    Verdict,
    Decision,
    Not,
    Hedge,
    Claim,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Code => "code",
            Kind::Emphasis => "emphasis",
            Kind::Quote => "quote",
            Kind::Link => "link",
            Kind::Path => "path",
            Kind::Figure => "figure",
            Kind::Verdict => "verdict",
            Kind::Decision => "decision",
            Kind::Not => "not",
            Kind::Hedge => "hedge",
            Kind::Claim => "claim",
        }
    }

    fn of(name: &str) -> Option<Kind> {
        ALL.iter().copied().find(|k| k.name() == name)
    }
}

const ALL: [Kind; 11] = [
    Kind::Code,
    Kind::Emphasis,
    Kind::Quote,
    Kind::Link,
    Kind::Path,
    Kind::Figure,
    Kind::Verdict,
    Kind::Decision,
    Kind::Not,
    Kind::Hedge,
    Kind::Claim,
];

/// Units a figure may carry (alphabetic ones end at a word boundary).
const UNITS: &str = r"(?:GiB|GB|MiB|MB|KiB|kB|KB|TiB|TB|W|s/step|s/it|it/s|tokens?|params?|parameters|steps?|min|h|ms|s|µs)\b|%|°C";

/// Figures written as words, and units on their own.
const FIGURE_WORDS: &str = r"ii|iii|iv|vi|vii|viii|ix|xi|xii|couple|several|few|many|dozen|zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fifteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundreds?|thousands?|millions?|billions?|dozens?|half|halves|twice|thrice|triple|quarter|percent|gigabytes?|megabytes?|terabytes?|bytes?|watts?|degrees?|celsius|GiB|GB|MiB|MB|TiB|TB|KiB|kB";

/// Words that make text a command someone could run.
const COMMAND_WORDS: &str = r"pip3?|python3?|curl|wget|bash|sh|zsh|sudo|su|rm|kill|pkill|killall|systemctl|service|chmod|chown|dd|mkfs|shred|find|xargs|docker|podman|apt|apt-get|yum|dnf|git|npm|eval|exec|nc|ssh|scp|rsync|reboot|shutdown|poweroff|echo|export|sysctl|swapoff|swapon|mount|umount|nvidia-smi|torchrun|accelerate|sync|mv|cp|tee|crontab|iptables|script|command|terminal|shell|pipe|download|install|execute";

/// Words that carry a verdict or a judgement headroom made.
const VERDICTS: &str = r"does not fit|doesn't fit|won't fit|will not fit|would not fit|wouldn't fit|not fit|fits?|fitting|tight|too (?:big|large|small)|over budget|under budget|throttl\w*|power[- ]cap\w*|out of memory|OOM\w*|safe(?:ly)?|unsafe|plenty|enough|good to go|ok|okay|fine|room|risky|comfortabl[ey]|sure|certain(?:ly)?|guarantee[ds]?|definitely|final|provisional|confirm\w*|exact(?:ly)?|precise(?:ly)?|wrong|right|correct(?:ly)?|bad|good|worse|better|best|worst";

/// Words that decide what happens to a process or the box.
const DECISIONS: &str = r"stop(?:s|ped|ping)?|keep(?:s|ing)?|kept|kill(?:s|ed|ing)?|flush(?:es|ed|ing)?|launch(?:es|ed|ing)?|start(?:s|ed|ing)?|restart(?:s|ed|ing)?|resume[sd]?|free(?:s|d|ing)?|reclaim\w*|drop(?:s|ped|ping)?|delete[sd]?|remove[sd]?|disable[sd]?|enable[sd]?|lower(?:s|ed|ing)?|raise[sd]?|reduce[sd]?|increase[sd]?|halve[sd]?|double[sd]?|cap(?:s|ped)?|shrink\w*|grow\w*|swap\w*|switch\w*|change[sd]?|set|try|tried|first|next|then|last|before|after|instead|yes|approve[sd]?|decline[sd]?|wait(?:s|ed|ing)?|ask(?:s|ed|ing)?|need(?:s|ed)?|must|go";

/// Negations: one added or dropped turns an answer around.
const NEGATIONS: &str = r"hardly|barely|scarcely|fail(?:s|ed|ing)?|refrain\w*|avoid\w*|lack\w*|unable|impossible|instead of|rather than|not|no|never|none|nothing|nobody|neither|nor|cannot|can't|don't|doesn't|didn't|isn't|aren't|wasn't|weren't|won't|wouldn't|shouldn't|couldn't|mustn't|hasn't|haven't|hadn't|without|n't";

/// Hedges and conditions: a caveat lives in these.
const HEDGES: &str = r"may|might|could|would|should|can|will|about|around|roughly|approximately|approx|nearly|almost|estimate[sd]?|estimat\w*|assum\w*|likely|unlikely|probably|possibly|perhaps|only|at least|at most|up to|until|unless|if|when|whether|or|but|although|though|still|yet|also|every|each|all|any|some|most|least|less|more|fewer|higher|lower|above|below|under|over|within|per|always|usually|often|rarely";

/// Words that claim an action was taken.
const CLAIMS: &str = r"saved|stored|recorded|updated|written|sent|handled|taken care|scheduled|queued|submitted|cleared|freed|noted|done|already|did|have|has|had|I've|I'd|I'm|we've|ran|executed|applied|completed|finished|fixed";

/// Characters that make prose into markup, a command or a placeholder.
const SYMBOLS: &str = r"[`*_\[\]<>|&$\\{}~/#=@^%+]+";

/// Each group of the token pattern and the kind of placeholder it makes,
/// most specific first.
const GROUPS: &[(&str, Kind)] = &[
    ("code", Kind::Code),
    ("emphasis", Kind::Emphasis),
    ("link", Kind::Link),
    ("quote", Kind::Quote),
    ("path", Kind::Path),
    ("flag", Kind::Code),
    ("figure", Kind::Figure),
    ("verdict", Kind::Verdict),
    ("numberword", Kind::Figure),
    ("command", Kind::Code),
    ("decision", Kind::Decision),
    ("not", Kind::Not),
    ("hedge", Kind::Hedge),
    ("claim", Kind::Claim),
    ("symbol", Kind::Code),
];

static TOKEN: LazyLock<Regex> = LazyLock::new(|| {
    let words = |list: &str| format!(r"\b(?:{list})\b");
    let number = r"[-+±]?(?:\d[\d,]*(?:\.\d+)?|\.\d+)";
    crate::extract::re(&format!(
        r#"(?i)(?P<code>`[^`\n]+`)|(?P<emphasis>\*\*[^*\n]+\*\*|__[^_\n]+__)|(?P<link>\[[^\]\n]*\]\([^)\n]*\)|[a-z][a-z0-9+.-]*://\S+|www\.\S+|\b[\w-]+\.(?:sh|py|com|net|org|io)\b)|(?P<quote>“[^”\n]*”|"[^"\n]*")|(?P<path>(?:\B/|~/|\.\.?/)[\w.@%+-]+(?:/[\w.@%+-]*)*)|(?P<flag>\B--?[a-z][\w-]*)|(?P<figure>\w*\d(?:[.,]?\w)*(?:\s?(?:{UNITS}))?(?:\s*(?:[-+×x*/=≈→–−]|->|to|of)\s*{number}(?:\s?(?:{UNITS}))?)*|{number}(?:\s?(?:{UNITS}))?)|(?P<verdict>{})|(?P<numberword>{})|(?P<command>{})|(?P<decision>{})|(?P<not>{})|(?P<hedge>{})|(?P<claim>{})|(?P<symbol>{SYMBOLS})"#,
        words(VERDICTS),
        words(FIGURE_WORDS),
        words(COMMAND_WORDS),
        words(DECISIONS),
        words(NEGATIONS),
        words(HEDGES),
        words(CLAIMS),
    ))
});

/// The meaning-bearing tokens in `text`, with their kinds: in a model's
/// own words, each is one it made up.
pub fn tokens(text: &str) -> Vec<(Kind, &str)> {
    TOKEN
        .captures_iter(text)
        .filter_map(|c| {
            let (name, kind) = GROUPS.iter().find(|(g, _)| c.name(g).is_some())?;
            Some((*kind, c.name(name)?.as_str()))
        })
        .collect()
}

/// The placeholder syntax a model's answer carries back.
pub(crate) static PLACEHOLDER: LazyLock<Regex> =
    LazyLock::new(|| crate::extract::re(r"\{([a-z]+)(\d+)\}"));

/// One filled-in value and what it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Slot {
    pub kind: Kind,
    pub value: String,
}

/// Prose with its meaning-bearing parts lifted out.
#[derive(Debug, Clone, PartialEq)]
pub struct Template {
    /// The text the model sees: own words and `{kindN}` placeholders.
    pub text: String,
    /// `slots[n - first]` fills `{kindN}`.
    pub slots: Vec<Slot>,
    /// The number of the first placeholder (numbers run across a reply).
    pub first: usize,
}

impl Template {
    /// The placeholder names in order, as the model must return them.
    pub fn names(&self) -> Vec<String> {
        self.slots
            .iter()
            .enumerate()
            .map(|(i, s)| format!("{}{}", s.kind.name(), self.first + i))
            .collect()
    }

    /// How much of the text is the model's to phrase (its own words).
    pub fn own_words(&self) -> usize {
        own_words(&self.text).split_whitespace().count()
    }
}

/// A template from its text alone, as a model received it: the kinds come
/// from the placeholder names; the values are unknown (empty). For scoring
/// recorded attacks against the guard.
pub fn parse(text: &str) -> Template {
    let slots: Vec<Slot> = PLACEHOLDER
        .captures_iter(text)
        .map(|c| Slot {
            kind: Kind::of(&c[1]).unwrap_or(Kind::Code),
            value: String::new(),
        })
        .collect();
    let first = PLACEHOLDER
        .captures(text)
        .and_then(|c| c[2].parse().ok())
        .unwrap_or(1);
    Template {
        text: text.to_string(),
        slots,
        first,
    }
}

/// The templates of a request's passage block (`[1] …`, `[2] …`), as a
/// model received them. For scoring recorded attacks.
pub fn passages_of(block: &str) -> Vec<Template> {
    let marks: Vec<regex::Match> = PASSAGE.find_iter(block).collect();
    marks
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let end = marks.get(i + 1).map_or(block.len(), |n| n.start());
            parse(block[m.end()..end].trim())
        })
        .collect()
}

/// A passage's number at the start of its line, as `prompt::passages`
/// writes it and a model's answer returns it.
pub(crate) static PASSAGE: LazyLock<Regex> =
    LazyLock::new(|| crate::extract::re(r"(?m)^[ \t]*\[(\d+)\][ \t]*"));

/// `prose` as a template whose placeholders are numbered from `first`.
pub fn template(prose: &str, first: usize) -> Template {
    let mut text = String::with_capacity(prose.len());
    let mut slots = Vec::new();
    let mut last = 0;
    for c in TOKEN.captures_iter(prose) {
        let m = c.get(0).expect("whole match");
        let kind = GROUPS
            .iter()
            .find(|(g, _)| c.name(g).is_some())
            .map_or(Kind::Code, |(_, k)| *k);
        text.push_str(&prose[last..m.start()]);
        text.push_str(&format!("{{{}{}}}", kind.name(), first + slots.len()));
        slots.push(Slot {
            kind,
            value: m.as_str().to_string(),
        });
        last = m.end();
    }
    text.push_str(&prose[last..]);
    Template { text, slots, first }
}

/// The words of `text` that are not placeholders.
pub fn own_words(text: &str) -> String {
    PLACEHOLDER.replace_all(text, " ").into_owned()
}

/// The placeholders of `text` in order, as written ("figure3").
pub fn placeholders(text: &str) -> Vec<String> {
    PLACEHOLDER
        .captures_iter(text)
        .map(|c| format!("{}{}", &c[1], &c[2]))
        .collect()
}

/// `phrased` with each placeholder replaced by its value. Call only after
/// the guard has checked that the placeholders are exactly the template's.
pub fn fill(phrased: &str, t: &Template) -> String {
    PLACEHOLDER
        .replace_all(phrased, |c: &regex::Captures| {
            let n: usize = c[2].parse().unwrap_or(0);
            match n.checked_sub(t.first).and_then(|i| t.slots.get(i)) {
                Some(s) if Kind::of(&c[1]) == Some(s.kind) => s.value.clone(),
                _ => c[0].to_string(),
            }
        })
        .into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_code_quotes_verdicts_negations_and_hedges_become_placeholders() {
        let t = template(
            "From your paste: available 123.48 GB is what the kernel can give; a flush would return 37.58 GB. Run `free -g` and say \"done\". It does not fit.",
            1,
        );
        assert_eq!(
            t.text,
            "From your paste: available {figure1} is what the kernel {hedge2} give; a {decision3} {hedge4} return {figure5}. Run {code6} and say {quote7}. It {verdict8}."
        );
        assert_eq!(t.slots[0].value, "123.48 GB");
        assert_eq!(t.slots[7].value, "does not fit");
        assert_eq!(
            fill(&t.text, &t),
            "From your paste: available 123.48 GB is what the kernel can give; a flush would return 37.58 GB. Run `free -g` and say \"done\". It does not fit."
        );
    }

    #[test]
    fn arithmetic_is_one_figure() {
        let t = template("The claim is 0.8 × 121.69 GiB = 104.54 GB, pid 4121.", 1);
        assert_eq!(t.text, "The claim is {figure1}, pid {figure2}.");
    }

    #[test]
    fn paths_and_links_are_values() {
        let t = template(
            "Look in /home/me/.headroom/x.jsonl; see [the docs](http://x).",
            4,
        );
        assert_eq!(t.text, "Look in {path4}; see {link5}.");
    }

    #[test]
    fn a_command_line_flag_is_a_value_a_hyphenated_word_is_not() {
        let t = template(
            "Set --gpu-memory-utilization or -c on the non-loopback mid-step server.",
            1,
        );
        assert_eq!(
            t.text,
            "{decision1} {code2} {hedge3} {code4} on the non-loopback mid-step server."
        );
        assert_eq!(t.slots[1].value, "--gpu-memory-utilization");
    }
}
