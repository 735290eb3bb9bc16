//! The guard between a model's phrasing and the owner. The model only ever
//! sees templates (see `template`): its answer must carry back every
//! placeholder exactly once and in order, and its own words may hold no
//! figure, unit, command, path, link, markup, verdict, decision, negation,
//! hedge or claim to have done something. Whatever fails, the owner sees
//! headroom's own text with one line saying why.

use crate::llm::template::{Kind, Template, own_words, placeholders, tokens};
use regex::Regex;
use std::sync::LazyLock;

/// "I shifted", "we stopped": first person with a past tense.
static FIRST_PERSON_DEED: LazyLock<Regex> =
    LazyLock::new(|| crate::extract::re(r"(?i)\b(?:I|we)\s+(?:\w+ly\s+)?\w+ed\b"));

/// Why the model's answer for one template is refused, in one line.
pub fn check(phrased: &str, template: &Template) -> Result<(), String> {
    if phrased.trim().is_empty() {
        return Err("the model returned nothing for a passage".into());
    }
    let wanted = template.names();
    let got = placeholders(phrased);
    if got != wanted {
        return Err(placeholder_problem(&wanted, &got));
    }
    if let Some(why) = glued_placeholder(phrased, &template.text) {
        return Err(why);
    }
    // Bytes, not words: blank lines, emoji or one endless token carry no
    // words and still bury the answer.
    if phrased.len() > template.text.len() * 3 + 240 {
        return Err("the model's phrasing was far longer than the answer".into());
    }
    let own = own_words(phrased);
    let template_own = own_words(&template.text);
    if let Some(c) = own
        .chars()
        .find(|c| is_invisible(*c) && !template_own.contains(*c))
    {
        return Err(format!(
            "the model wrote a control character (U+{:04X})",
            c as u32
        ));
    }
    // A numeral in any script ("Ⅱ", "½", "①") is a figure, whatever the
    // token pattern reads as a digit.
    let numerals = |t: &str| t.chars().filter(|c| c.is_numeric()).count();
    if numerals(&own) > numerals(&own_words(&template.text)) {
        return Err("the model wrote a figure of its own".into());
    }
    // The most dangerous of the model's own tokens names the refusal. A
    // token the template's own words already hold (none, when the template
    // was made by `template`) is not the model's.
    let theirs = own_words(&template.text).to_lowercase();
    let worst = tokens(&own)
        .into_iter()
        .filter(|(_, word)| {
            let w = word.to_lowercase();
            own.to_lowercase().matches(&w).count() > theirs.matches(&w).count()
        })
        .min_by_key(|(kind, _)| {
            [
                Kind::Code,
                Kind::Link,
                Kind::Path,
                Kind::Emphasis,
                Kind::Quote,
                Kind::Claim,
                Kind::Figure,
                Kind::Verdict,
                Kind::Decision,
                Kind::Not,
                Kind::Hedge,
            ]
            .iter()
            .position(|k| k == kind)
        });
    if let Some((kind, _)) = worst {
        // The word itself is not quoted: the reason line must not show the
        // owner what was refused (the transcript keeps the rejected text).
        return Err(format!(
            "the model wrote {} of its own",
            match kind {
                Kind::Figure => "a figure",
                Kind::Code | Kind::Emphasis | Kind::Link | Kind::Path | Kind::Quote =>
                    "markup, a command, a link or a path",
                Kind::Verdict => "a verdict",
                Kind::Decision => "a decision",
                Kind::Not => "a negation",
                Kind::Hedge => "a hedge or condition",
                Kind::Claim => "a claim to have done something (claimed)",
            }
        ));
    }
    let deeds = |t: &str| FIRST_PERSON_DEED.find_iter(t).count();
    if deeds(&own) > deeds(&own_words(&template.text)) {
        return Err("the model claimed to have done something".into());
    }
    if let Some(word) = dropped_word(&template.text, phrased) {
        return Err(format!(
            "the model dropped \"{word}\" (every word that carries meaning stays)"
        ));
    }
    if own.matches('?').count() != own_words(&template.text).matches('?').count() {
        return Err("the model turned a question into a statement, or the other way".into());
    }
    if let Some(word) = moved_word(&template.text, phrased) {
        return Err(format!(
            "the model moved \"{word}\" away from the values it goes with"
        ));
    }
    if added_word(&template.text, phrased) {
        return Err(
            "the model added a word that carries meaning (only connectives may be added)".into(),
        );
    }
    if persons(&template.text)
        .iter()
        .zip(persons(phrased))
        .any(|(before, after)| !same_speakers(before, &after))
    {
        return Err(
            "the model changed who is meant (I, you): who decides or acts is headroom's".into(),
        );
    }
    let mine = template.own_words();
    if own.split_whitespace().count() > mine * 2 + 12 {
        return Err("the model's phrasing was far longer than the answer".into());
    }
    Ok(())
}

/// Who each stretch between placeholders speaks of, in order: 'I' for
/// headroom (I, me, my, we, us, our…), 'Y' for the owner (you, your…),
/// 'T' for others (they, their…: "your run" is not "their run").
/// "it is your call" → "it is my call", "shall I give you" → "shall you
/// give me" and "I work the ladder" → "you work the ladder" each change it;
/// "the call is yours" does not.
fn persons(text: &str) -> Vec<String> {
    crate::llm::template::PLACEHOLDER
        .split(text)
        .map(|gap| {
            gap.to_lowercase()
                .replace('’', "'")
                .split(|c: char| !c.is_alphanumeric() && c != '\'')
                .filter_map(|w| match w.split('\'').next().unwrap_or("") {
                    "i" | "me" | "my" | "mine" | "myself" | "we" | "us" | "our" | "ours"
                    | "ourselves" => Some('I'),
                    "you" | "your" | "yours" | "yourself" | "yourselves" => Some('Y'),
                    "they" | "them" | "their" | "theirs" | "themselves" => Some('T'),
                    _ => None,
                })
                .collect()
        })
        .collect()
}

/// A stretch may leave a person out ("shall I tell you" → "shall I
/// explain"), never name one more often, reorder them, or leave none where
/// there were some: no person is counted more often, and the phrasing's
/// sequence (repeats folded) is a non-empty subsequence of the template's.
fn same_speakers(before: &str, after: &str) -> bool {
    let count = |t: &str, p: char| t.chars().filter(|&c| c == p).count();
    let folded = |t: &str| {
        let mut f = String::new();
        for c in t.chars() {
            if !f.ends_with(c) {
                f.push(c);
            }
        }
        f
    };
    if ['I', 'Y']
        .iter()
        .any(|&p| count(after, p) > count(before, p))
    {
        return false;
    }
    if before.is_empty() {
        return after.is_empty();
    }
    let mut rest = folded(before).chars().collect::<Vec<_>>().into_iter();
    !after.is_empty() && folded(after).chars().all(|p| rest.any(|q| q == p))
}

/// Words too common to tie to a value.
const COMMON: &[&str] = &[
    "the", "and", "for", "with", "are", "its", "this", "that", "your", "yours", "you", "than",
    "there", "here", "what", "which", "who", "how", "into", "onto", "per", "our", "their", "them",
    "they", "these", "those",
];

/// Words a rephrasing may add: articles, copulas and connectives that
/// change no meaning. Anything else added ("except", "unmistakably", "in
/// whatever order suits you") says something headroom did not.
const NEUTRAL: &[&str] = &[
    "the",
    "and",
    "with",
    "are",
    "this",
    "that",
    "these",
    "those",
    "its",
    "here",
    "please",
    "well",
    "note",
    "has",
    "have",
    "been",
    "being",
    "which",
    "where",
    "there",
    "for",
    "into",
    "onto",
    "your",
    "yours",
    "you",
    "they",
    "their",
    "them",
    "our",
    "then",
    "thus",
    "therefore",
    "hence",
    "namely",
    "indeed",
];

/// A content word in the phrasing that no gap of the template holds and
/// that is not a neutral connective.
fn added_word(template: &str, phrased: &str) -> bool {
    let before: Vec<String> = gaps(template).into_iter().flatten().collect();
    gaps(phrased)
        .into_iter()
        .flatten()
        .any(|w| !before.contains(&w) && !NEUTRAL.contains(&w.as_str()))
}

/// A placeholder written inside a word ("batch{figure3}x") where the
/// template has it standing alone: its value would render as part of
/// another token. (A template may glue one itself: "buff{code13}cache".)
fn glued_placeholder(phrased: &str, template: &str) -> Option<String> {
    let neighbours = |text: &str, name: &str| -> Option<(Option<char>, Option<char>)> {
        let m = crate::llm::template::PLACEHOLDER
            .find_iter(text)
            .find(|m| m.as_str() == name)?;
        let alnum = |c: Option<char>| c.filter(|c| c.is_alphanumeric());
        Some((
            alnum(text[..m.start()].chars().next_back()),
            alnum(text[m.end()..].chars().next()),
        ))
    };
    for m in crate::llm::template::PLACEHOLDER.find_iter(phrased) {
        let got = neighbours(phrased, m.as_str());
        if got.is_some_and(|(b, a)| b.is_some() || a.is_some())
            && got != neighbours(template, m.as_str())
        {
            return Some("the model wrote a value inside a word".into());
        }
    }
    None
}

/// The content words of each gap between placeholders, lowercased, with
/// contractions spelled out and plain synonyms read as one word, so "it's"
/// is "it is" and "alongside" is "beside" on both sides.
fn gaps(text: &str) -> Vec<Vec<String>> {
    crate::llm::template::PLACEHOLDER
        .split(text)
        .map(|gap| {
            let gap = same_meaning(&gap.to_lowercase().replace('’', "'"));
            gap.split(|c: char| !c.is_alphanumeric() && c != '\'')
                .flat_map(spelled_out)
                .filter(|w| w.chars().count() >= 3 && !COMMON.contains(&w.as_str()))
                .collect()
        })
        .collect()
}

/// Plain rewordings that keep the meaning, each read as the template's
/// word. None of them is a figure, verdict, decision or negation: those are
/// judged by their own rules before this.
const SAME_MEANING: &[(&str, &str)] = &[
    ("got it", "noted"),
    ("understood", "noted"),
    ("recorded", "noted"),
    ("taking note", "noted"),
    ("alongside", "beside"),
    ("next to", "beside"),
    ("packing length", "pack"),
    ("packing", "pack"),
    ("batch size", "batch"),
    ("judgement", "call"),
    ("judgment", "call"),
    ("decision", "call"),
    ("choice", "call"),
    ("during", "mid"),
    ("explain", "tell"),
    ("background", "context"),
    ("because", "so"),
    ("since", "so"),
];

fn same_meaning(gap: &str) -> String {
    let mut out = gap.to_string();
    for (from, to) in SAME_MEANING {
        out = crate::extract::re(&format!(r"\b{}\b", regex::escape(from)))
            .replace_all(&out, *to)
            .into_owned();
    }
    out
}

/// "isn't" is "is not", "you're" is "you are", "job's" is "job".
fn spelled_out(token: &str) -> Vec<String> {
    let t = token.trim_matches('\'');
    for (end, word) in [
        ("n't", "not"),
        ("'re", "are"),
        ("'ll", "will"),
        ("'ve", "have"),
        ("'d", "would"),
    ] {
        if let Some(base) = t.strip_suffix(end) {
            let base = match base {
                "wo" => "will",
                "ca" => "can",
                b => b,
            };
            return vec![base.to_string(), word.to_string()];
        }
    }
    if let Some(base) = t.strip_suffix("'s") {
        // "it's" is "it is"; "job's" is the job.
        return match base {
            "it" | "that" | "there" | "here" | "what" => vec![base.into(), "is".into()],
            _ => vec![base.into()],
        };
    }
    vec![t.to_string()]
}

/// A content word of the template missing from its gap in the phrasing:
/// "QLoRA" become "LoRA", "shorter" become "longer", "nominal" or "your
/// call" left out. The model may add neutral words and reorder a gap's
/// words, never replace or drop one.
fn dropped_word(template: &str, phrased: &str) -> Option<String> {
    let before = gaps(template);
    let after = gaps(phrased);
    for (gap, kept) in before.iter().zip(&after) {
        for w in gap {
            let need = gap.iter().filter(|x| *x == w).count();
            if kept.iter().filter(|x| *x == w).count() < need {
                return Some(w.clone());
            }
        }
    }
    None
}

/// A word of the template that the phrasing put between other values
/// ("stop vLLM, keep Ollama" turned into "stop Ollama, keep vLLM"): the
/// placeholders are in order, so each gap must keep its own words.
fn moved_word(template: &str, phrased: &str) -> Option<String> {
    let before = gaps(template);
    let after = gaps(phrased);
    for (j, gap) in after.iter().enumerate() {
        for w in gap {
            let homes: Vec<usize> = (0..before.len())
                .filter(|&i| before[i].contains(w))
                .collect();
            if !homes.is_empty() && !homes.contains(&j) {
                return Some(w.clone());
            }
        }
    }
    None
}

/// A character that hides, reorders or alters text without being a letter,
/// digit, punctuation or symbol of its own: format characters (bidi
/// overrides, zero-width, soft hyphen, BOM, the U+E0000 tag block),
/// private-use and unassigned code points, and combining marks (a U+0338
/// stroke over a filled-in word).
fn is_invisible(c: char) -> bool {
    use unicode_properties::{GeneralCategoryGroup, UnicodeGeneralCategory};
    matches!(
        c.general_category_group(),
        GeneralCategoryGroup::Other | GeneralCategoryGroup::Mark
    ) && c != '\n'
        && c != '\t'
}

fn placeholder_problem(wanted: &[String], got: &[String]) -> String {
    // Its name is the model's text: not quoted to the owner.
    if got.iter().any(|g| !wanted.contains(g)) {
        return "the model made up a placeholder".into();
    }
    if let Some(missing) = wanted.iter().find(|w| !got.contains(w)) {
        return format!("the model dropped a value ({{{missing}}})");
    }
    if got.len() > wanted.len() {
        return "the model repeated a value".into();
    }
    "the model moved values away from what they describe".into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::template::template;

    fn t() -> Template {
        template(
            "Stopping vLLM (pid 4121) would return 65.25 GB; the run does not fit until then. Run `free -g` first.",
            1,
        )
    }

    #[test]
    fn the_template_itself_and_a_reworded_one_pass() {
        let t = t();
        assert_eq!(check(&t.text, &t), Ok(()));
        let reworded = format!("So, {}", t.text.replace("the run", "the  run"));
        assert_eq!(check(&reworded, &t), Ok(()), "{reworded}");
    }

    #[test]
    fn a_dropped_repeated_reordered_or_invented_placeholder_is_refused() {
        let t = t();
        let names = t.names();
        let first = format!("{{{}}}", names[0]);
        assert!(
            check(&t.text.replacen(&first, "", 1), &t)
                .unwrap_err()
                .contains("dropped")
        );
        assert!(
            check(&format!("{} {first}", t.text), &t)
                .unwrap_err()
                .contains("repeated")
        );
        assert!(
            check(&format!("{} {{figure99}}", t.text), &t)
                .unwrap_err()
                .contains("made up")
        );
        let (a, b) = (format!("{{{}}}", names[1]), format!("{{{}}}", names[2]));
        let swapped = t.text.replace(&a, "@@").replace(&b, &a).replace("@@", &b);
        let err = check(&swapped, &t).unwrap_err();
        assert!(err.contains("moved") || err.contains("dropped"), "{err}");
    }

    #[test]
    fn words_moved_between_values_are_refused() {
        let t = template(
            "Stopping vLLM returns {x} GB; keeping Ollama costs nothing."
                .replace("{x}", "65.25")
                .as_str(),
            1,
        );
        let swapped = t
            .text
            .replace("vLLM", "@@")
            .replace("Ollama", "vLLM")
            .replace("@@", "Ollama");
        let err = check(&swapped, &t).unwrap_err();
        assert!(err.contains("dropped"), "{err}");
        // Moved without being dropped: "vLLM" now in both stretches.
        let moved = t.text.replace("Ollama", "Ollama vLLM");
        assert!(check(&moved, &t).unwrap_err().contains("moved"), "{moved}");
    }

    #[test]
    fn a_replaced_or_dropped_word_is_refused() {
        let t = template(
            "Step 2: shorter packing, then a smaller batch; QLoRA stays.",
            1,
        );
        for (from, to) in [
            ("shorter", "longer"),
            ("smaller", "bigger"),
            ("QLoRA", "LoRA"),
            ("packing", ""),
        ] {
            let err = check(&t.text.replace(from, to), &t).unwrap_err();
            assert!(err.contains("dropped"), "{from} → {to}: {err}");
        }
    }

    #[test]
    fn own_figures_commands_verdicts_negations_and_claims_are_refused() {
        let t = t();
        for (add, why) in [
            (" That is 12 GB.", "figure"),
            (" That is twelve gigabytes.", "figure"),
            (" That is Ⅻ of them.", "figure"),
            (" About ½ of it.", "figure"),
            (" Then pipe it to sudo.", "command"),
            (" See http://x.sh now.", "markup"),
            (" It is fine, plenty of room.", "verdict"),
            (" Don't worry.", "negation"),
            (" I have already flushed the page cache.", "claim"),
            (" Kill it.", "command"),
            (" Good to go.", "verdict"),
            (" **Launch it**.", "markup"),
            (" \u{1b}]0;pwned\u{7}", "control"),
            (" It fits\u{338} now.", "control"),
            (" \u{e0020}\u{e0069}\u{e0074}", "control"),
            (" Plain\u{ad}text.", "control"),
        ] {
            let err = check(&format!("{}{add}", t.text), &t).unwrap_err();
            assert!(err.contains(why), "{add}: {err}");
        }
    }

    #[test]
    fn a_change_of_tense_is_refused() {
        let t = template(
            "That stops work that is running, so it is your call: reply yes or no.",
            1,
        );
        let past = t.text.replace("is running", "was running");
        assert!(check(&past, &t).is_err(), "{past}");
    }

    #[test]
    fn a_direction_moved_across_values_is_refused() {
        let t = template("Take 4 GB from vLLM and give 8 GB to the run.", 1);
        let swapped = t.text.replace(" from vLLM and give ", " to vLLM and give ");
        let swapped = swapped.replacen(" to the run", " from the run", 1);
        assert!(check(&swapped, &t).is_err(), "{swapped}");
    }

    #[test]
    fn a_change_of_who_decides_or_acts_is_refused() {
        let t = template(
            "That stops work that is running, so it is your call: shall I give you the command? I work the ladder in order.",
            1,
        );
        assert_eq!(check(&t.text, &t), Ok(()));
        for (from, to) in [
            ("it is your call", "the call is yours"),
            ("shall I give you the command", "shall I give the command"),
        ] {
            let faithful = t.text.replace(from, to);
            assert_eq!(check(&faithful, &t), Ok(()), "{faithful}");
        }
        for (from, to) in [
            ("your call", "my call"),
            ("your call", "our call"),
            ("I work", "You work"),
            ("your call", "their call"),
        ] {
            let phrased = t.text.replace(from, to);
            let err = check(&phrased, &t).unwrap_err();
            assert!(err.contains("who is meant"), "{from} → {to}: {err}");
        }
        let t = template("Shall I give you the command? It is your call.", 1);
        let swapped = t.text.replace("Shall I give you", "Shall you give me");
        assert!(check(&swapped, &t).unwrap_err().contains("who is meant"));
    }

    #[test]
    fn an_added_meaning_word_a_glued_value_or_a_flood_is_refused() {
        let t = t();
        let base = t.text.clone();
        // Connectives may be added; a word that says something may not.
        assert_eq!(check(&format!("Please note: {base}"), &t), Ok(()));
        for added in [
            "Unmistakably,",
            "Clearly and plainly:",
            "In whatever order suits you:",
        ] {
            let phrased = format!("{added} {base}");
            assert_eq!(
                check(&phrased, &t),
                Err(
                    "the model added a word that carries meaning (only connectives may be added)"
                        .into()
                ),
                "{added}"
            );
        }
        // A value glued into a word renders as another token.
        let name = format!("{{{}}}", t.names()[1]);
        let glued = base.replacen(&name, &format!("x{name}x"), 1);
        assert_eq!(
            check(&glued, &t),
            Err("the model wrote a value inside a word".into())
        );
        // Floods with no words: blank lines, emoji, one endless token.
        for flood in ["\n".repeat(60_000), "🛑".repeat(30_000), "a".repeat(70_000)] {
            let phrased = format!("{base} {flood}");
            assert!(check(&phrased, &t).is_err());
        }
    }
}
