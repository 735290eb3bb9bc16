//! The owner's sentence in the forms the slot patterns read: typos of the
//! domain's words repaired, number words and "4k" as digits, number-first
//! settings ("8192 seq len", "4 batch") turned round, and self-corrections
//! ("batch 8, no wait, 4") and negations ("not qlora, plain lora") resolved
//! to what the owner settled on. Each rewrite is one rule with its reason.

use regex::{Captures, Regex};
use std::sync::LazyLock;

/// The domain's words, for typo repair. A word close to one of these and
/// not itself an English word is taken as a slip of the keyboard.
const VOCABULARY: &[&str] = &[
    "lora",
    "qlora",
    "batch",
    "packing",
    "length",
    "rank",
    "adafactor",
    "gradient",
    "checkpointing",
    "float16",
    "bfloat16",
    "float32",
    "mistral",
    "mixtral",
    "llama",
    "gemma",
    "context",
    "sequence",
    "optimizer",
    "precision",
    // Tools one edit from a domain word ("ollama" / "llama").
    "ollama",
    "vllm",
    "unsloth",
    "axolotl",
];

/// English words one edit from a vocabulary word: never "repaired".
const ENGLISH: &[&str] = &["bath", "lord", "lira", "bank", "tank", "rack", "sequences"];

fn repair(word: &str) -> Option<&'static str> {
    let lower = word.to_ascii_lowercase();
    if lower.len() < 4 || VOCABULARY.contains(&lower.as_str()) || ENGLISH.contains(&lower.as_str())
    {
        return None;
    }
    let limit = if lower.len() >= 7 { 2 } else { 1 };
    // A name with digits ("gemma3", "qwen2") is only compared with the
    // vocabulary's own digit words ("flaot16" → "float16").
    let digits = lower.chars().any(|c| c.is_ascii_digit());
    VOCABULARY
        .iter()
        .filter(|v| v.chars().any(|c| c.is_ascii_digit()) == digits)
        .map(|v| (strsim::damerau_levenshtein(&lower, v), *v))
        .filter(|(d, v)| *d <= limit && v.len().abs_diff(lower.len()) <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, v)| v)
}

static WORD: LazyLock<Regex> = LazyLock::new(|| crate::extract::re(r"[A-Za-z][A-Za-z0-9]*"));

fn typos(text: &str) -> String {
    let fixed = WORD.replace_all(text, |c: &Captures| {
        repair(&c[0]).map_or_else(|| c[0].to_string(), str::to_string)
    });
    // Two slips the edit distance cannot tell from English or a name.
    let fixed = BATH.replace_all(&fixed, "batch size");
    LAMMA.replace_all(&fixed, "llama").into_owned()
}
static BATH: LazyLock<Regex> = LazyLock::new(|| crate::extract::re(r"(?i)\bbath\s+size\b"));
static LAMMA: LazyLock<Regex> = LazyLock::new(|| crate::extract::re(r"(?i)\blamma\b"));

const NUMBER_WORDS: &[(&str, &str)] = &[
    ("one", "1"),
    ("two", "2"),
    ("three", "3"),
    ("four", "4"),
    ("five", "5"),
    ("six", "6"),
    ("seven", "7"),
    ("eight", "8"),
    ("nine", "9"),
    ("ten", "10"),
    ("twelve", "12"),
    ("eleven", "11"),
    ("thirteen", "13"),
    ("fourteen", "14"),
    ("sixteen", "16"),
    ("twenty-seven", "27"),
    ("twenty seven", "27"),
    ("thirty", "30"),
    ("seventy", "70"),
    ("seventy-two", "72"),
    ("seventy two", "72"),
    ("thirty-two", "32"),
    ("thirty two", "32"),
    ("sixty-four", "64"),
    ("sixty four", "64"),
];

static NUMBER_WORD: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(?i)\b(batch(?:\s*size)?(?:\s+of)?|rank|r|bsz|bs)\s+(one|two|three|four|six|eight|sixteen|thirty[- ]two|sixty[- ]four)\b",
    )
});

/// "two thousand tokens", "four thousand": thousands said in words.
static THOUSANDS: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(?i)\b(a|one|two|three|four|five|six|seven|eight|nine|ten|twelve|sixteen|thirty[\s-]?two)\s+thousand(?:\s+(?:and\s+)?(one|two|three|four|five|six|seven|eight|nine)\s+hundred)?\b",
    )
});

fn word_value(w: &str) -> Option<u64> {
    let w = w.to_ascii_lowercase();
    if w == "a" {
        return Some(1);
    }
    NUMBER_WORDS
        .iter()
        .find(|(word, _)| *word == w)
        .and_then(|(_, n)| n.parse().ok())
}

fn thousands(text: &str) -> String {
    THOUSANDS
        .replace_all(text, |c: &Captures| {
            let k = word_value(&c[1]).unwrap_or(0);
            let h = c.get(2).and_then(|m| word_value(m.as_str())).unwrap_or(0);
            (k * 1000 + h * 100).to_string()
        })
        .into_owned()
}

/// "batch 2 4096", "bs 4, 2048": a batch and then a bare length, the
/// way owners write the pair.
static BATCH_THEN_LENGTH: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(?i)\b(batch(?:[\s_-]?size)?|bsz|bs|micro[\s_-]?batch)\s*[=:]?\s*(\d{1,3})\s*[,/x×]?\s+(\d{3,6})\b(\s*(?:tokens?|tok)\b)?",
    )
});

fn batch_then_length(text: &str) -> String {
    BATCH_THEN_LENGTH
        .replace_all(text, |c: &Captures| {
            let n: u64 = c[3].parse().unwrap_or(0);
            // "batch 4, 2048, 4096": two bare figures name no length.
            let end = c.get(0).map_or(text.len(), |m| m.end());
            let another = text[end..]
                .trim_start_matches([',', ' ', ';', '/'])
                .starts_with(|ch: char| ch.is_ascii_digit());
            if n >= 256 && !another {
                format!("{} {} packing {n}", &c[1], &c[2])
            } else {
                c[0].to_string()
            }
        })
        .into_owned()
}

fn number_words(text: &str) -> String {
    NUMBER_WORD
        .replace_all(text, |c: &Captures| {
            let w = c[2].to_ascii_lowercase();
            let n = NUMBER_WORDS
                .iter()
                .find(|(word, _)| *word == w)
                .map_or(w.as_str(), |(_, n)| n);
            format!("{} {n}", &c[1])
        })
        .into_owned()
}

/// "qwen 2.5 fourteen b", "llama seventy billion": a model's size in words.
static SIZE_WORDS: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(?i)\b(one|two|three|four|seven|eight|nine|eleven|twelve|thirteen|fourteen|twenty[\s-]seven|thirty[\s-]two|seventy(?:[\s-]two)?)[\s-]?(?:b\b|billion\b)",
    )
});

static NOT_PARAMETERS: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(?i)^\s*(?:tokens?|words?|samples?|examples?|steps?|rows?|images?|pairs?)\b",
    )
});

fn size_words(text: &str) -> String {
    SIZE_WORDS
        .replace_all(text, |c: &Captures| {
            // "seven billion tokens" counts data, not parameters.
            let after = &text[c.get(0).map_or(text.len(), |m| m.end())..];
            if NOT_PARAMETERS.is_match(after) {
                return c[0].to_string();
            }
            let w = c[1].to_ascii_lowercase().replace('-', " ");
            let n = NUMBER_WORDS
                .iter()
                .find(|(word, _)| word.replace('-', " ") == w)
                .map_or(w.clone(), |(_, n)| n.to_string());
            format!("{n}b")
        })
        .into_owned()
}

/// "4k", "16K", "3k": thousands of tokens as the multiples of 1024 owners
/// mean (the plan quotes the words, so "3k" is seen as 3072).
static KILO: LazyLock<Regex> = LazyLock::new(|| crate::extract::re(r"(?i)\b([1-9]\d{0,2})\s?k\b"));

fn kilo(text: &str) -> String {
    KILO.replace_all(text, |c: &Captures| {
        let n: u64 = c[1].parse().unwrap_or(0);
        (n * 1024).to_string()
    })
    .into_owned()
}

/// "shorter cutoff. 1024", "context length: 4096", "bsz, 2": a setting's
/// name, punctuation, then its value, which a sentence split would part.
static LABEL_PUNCT_VALUE: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(?i)\b(cutoff(?:[\s_-]?len(?:gth)?)?|context(?:[\s_-]?(?:length|len))?|ctx|seq(?:uence)?[\s_-]?(?:length|len)|packing(?:[\s_-]?length)?|batch(?:[\s_-]?size)?|bsz|bs)\s*[.,:;\u{2014}\u{2013}]+\s*(\d{1,6})\b",
    )
});

fn label_punct_value(text: &str) -> String {
    LABEL_PUNCT_VALUE
        .replace_all(text, |c: &Captures| {
            let after = &text[c.get(0).map_or(text.len(), |m| m.end())..];
            // "batch. 4 hours later": a count of something else.
            if COUNTED.is_match(after) {
                return c[0].to_string();
            }
            let label = c[1].to_ascii_lowercase();
            let name = if label.starts_with('b') {
                "batch"
            } else {
                "packing"
            };
            format!("{name} {}", &c[2])
        })
        .into_owned()
}

/// "8192 seq len", "4096 token packing", "2048 tokens per sequence",
/// "the batch, it is 2", "context length I want 2048", "max len 4096":
/// a setting's name, a few words of the owner's, then its value.
static LABELLED: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(?i)\b(batch(?:[\s_-]?size)?|bsz|bs|micro[\s_-]?batch|context(?:[\s_-]?(?:length|len|window))?|ctx|seq(?:uence)?[\s_-]?(?:length|len)|max[\s_-]?(?:len|length|seq(?:[\s_-]?len)?)|packing(?:[\s_-]?length)?|lora[\s_-]?rank|rank)\b[,:.…]*\s+((?:(?:i|we)\s+(?:want|need|use|have|set|picked|chose|went\s+with|guess|think)|it(?:'s|\s+is|\s+was|\s+will\s+be)|(?:will|should|would)\s+be|let'?s\s+say|say|maybe|probably|is|was|of|around|about|roughly|set\s+to|to|at)\s+){1,3}(\d[\d,_]*|one|two|three|four|five|six|seven|eight|nine|ten|twelve|sixteen|thirty[\s-]?two|sixty[\s-]?four)\b",
    )
});
static HESITATION: LazyLock<Regex> =
    LazyLock::new(|| crate::extract::re(r"(?i)\b(?:think|guess|say|maybe|probably)\b"));
/// A number that counts things other than tokens or samples.
static COUNTED: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(?i)^\s+(?:of|people|persons?|users?|times|hours?|days?|minutes?|gpus?|nodes?|sparks?|jobs?|runs?)\b",
    )
});
static MAX_LEN: LazyLock<Regex> =
    LazyLock::new(|| crate::extract::re(r"(?i)\bmax[\s_-]?len\b\s+(\d{3,6})\b"));

fn labelled_values(text: &str) -> String {
    let t = LABELLED.replace_all(text, |c: &Captures| {
        let label = c[1].to_ascii_lowercase();
        // "For context, I think 3 people share it", "batch, I think 2 of
        // them failed": a hesitation, then a count of something else.
        let whole = c.get(0).map_or(0..0, |m| m.range());
        let after = &text[whole.end..];
        let hesitant = HESITATION.is_match(&c[2]);
        if hesitant && (label.starts_with("context") || label == "ctx" || COUNTED.is_match(after)) {
            return c[0].to_string();
        }
        let name = if label.starts_with('b') || label.starts_with("micro") {
            "batch"
        } else if label.contains("rank") {
            "rank"
        } else {
            "packing"
        };
        let value = match c[3].to_ascii_lowercase().replace(['-', ' '], "").as_str() {
            "one" => "1".to_string(),
            "two" => "2".into(),
            "three" => "3".into(),
            "four" => "4".into(),
            "five" => "5".into(),
            "six" => "6".into(),
            "seven" => "7".into(),
            "eight" => "8".into(),
            "nine" => "9".into(),
            "ten" => "10".into(),
            "twelve" => "12".into(),
            "sixteen" => "16".into(),
            "thirtytwo" => "32".into(),
            "sixtyfour" => "64".into(),
            _ => c[3].to_string(),
        };
        format!("{name} {value}")
    });
    MAX_LEN.replace_all(&t, "packing $1").into_owned()
}

/// The lengths of a preference or RL run that are not its packing.
static OTHER_LENGTH: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(r"(?i)\b(?:chosen|rejected|completions?|pairs?)\b[^,;.]*$")
});
static OTHER_LENGTH_AFTER: LazyLock<Regex> =
    LazyLock::new(|| crate::extract::re(r"(?i)^[\s-]*(?:prompts?|completions?|responses?)\b"));

/// "4 batch", "4 sequences per micro-batch": the number before its name.
static NUMBER_FIRST_PACK: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(?i)\b(\d{3,6})(?:[\s-]+tokens?)?[\s-]+(?:seq(?:uence)?(?:[\s_-]*len(?:gth)?)?|ctx(?:[\s_-]*len(?:gth)?)?|context(?:[\s_-]*len(?:gth)?)?|packing|pack)\b|\b(\d{3,6})[\s-]*(?:tokens?|toks?)(?:\s+per\s+(?:sequence|sample|example|row))?\b|\b(\d{3,6})\s+for\s+(?:the\s+)?(?:sequences?|seq(?:uence)?[\s_-]*len(?:gth)?|context(?:[\s_-]*len(?:gth)?)?|packing|max_seq_length|cutoff_len)\b",
    )
});
static NUMBER_FIRST_BATCH: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(?i)(^|[^=:\w.])(\d{1,3})\s+(?:batch(?:\s*size)?|bsz|bs)\b(\s*[=:]?\s*\d?)|\b(\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|twelve|sixteen|thirty[\s-]?two)\s+(?:(?:sequences?|samples?|examples?|rows?)\s+(?:per|in\s+(?:a|each|every))\s+(?:micro[\s-]?batch|batch|step|device|gpu)|per\s+(?:device|gpu))\b",
    )
});
/// "at 4096" after a batch or a method: the packing, unless a unit follows.
static AT_LENGTH: LazyLock<Regex> = LazyLock::new(|| crate::extract::re(r"(?i)\bat\s+(\d{3,6})\b"));

fn number_first(text: &str) -> String {
    let t = NUMBER_FIRST_PACK.replace_all(text, |c: &Captures| {
        // "chosen up to 700 tokens", "512-token prompts": another length's
        // tokens, not the packing's.
        let start = c.get(0).map_or(0, |m| m.start());
        let before = &text[text[..start]
            .char_indices()
            .rev()
            .nth(24)
            .map_or(0, |(i, _)| i)..start];
        let after = &text[c.get(0).map_or(0, |m| m.end())..];
        if OTHER_LENGTH.is_match(before) || OTHER_LENGTH_AFTER.is_match(after) {
            return c[0].to_string();
        }
        format!(
            "packing {}",
            c.get(1)
                .or(c.get(2))
                .or(c.get(3))
                .map_or("", |m| m.as_str())
        )
    });
    let t = NUMBER_FIRST_BATCH.replace_all(&t, |c: &Captures| {
        if let Some(n) = c.get(4) {
            let n = n.as_str();
            let value =
                word_value(&n.replace(['-', ' '], " ")).map_or(n.to_string(), |v| v.to_string());
            return format!("batch {value}");
        }
        // "r=16 bs=2": the 16 is the rank's, and bs has its own value.
        let tail = c.get(3).map_or("", |m| m.as_str());
        if tail.contains(['=', ':']) || tail.chars().any(|ch| ch.is_ascii_digit()) {
            return c[0].to_string();
        }
        format!("{}batch {}{tail}", &c[1], &c[2])
    });
    AT_LENGTH
        .replace_all(&t, |c: &Captures| {
            // The word right after the figure is its unit ("rated at 240 W.",
            // "at 1500 MHz"): only tokens, or none, make it a length; a
            // figure glued to more digits is a time, a range or a decimal.
            let after = &t[c.get(0).map_or(0, |m| m.end())..];
            let unit: String = after
                .trim_start()
                .chars()
                .take_while(|ch| ch.is_alphabetic() || matches!(ch, '°' | '%'))
                .collect::<String>()
                .to_ascii_lowercase();
            let glued = after.starts_with(['-', ':', '/', '.', ','])
                && after[1..].starts_with(|ch: char| ch.is_ascii_digit());
            let plain = unit.is_empty() || unit == "tokens" || unit == "fit";
            if plain && !glued && !t.to_ascii_lowercase().contains("pack") {
                format!("at packing {}", &c[1])
            } else {
                c[0].to_string()
            }
        })
        .into_owned()
}

/// "X, no wait, Y", "X — sorry, I meant Y", "X... actually make it Y":
/// the owner's second word replaces the first. A bare number after the
/// marker corrects the number before it; anything else replaces the clause.
static CORRECTION: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(?i)([^,;]*?)\s*(?:[,;]|\.\.\.|…|—|–|--|-)?\s*\b(?:no,?\s+wait\b|no,|no\s|sorry\b|oops\b|actually\b,?(?:\s+scratch\s+that\b)?|scratch\s+that\b|i\s+meant\b|or\s+rather\b)[,:\s]*(?:make\s+(?:it|that)\s+|i\s+meant\s+|go\s+with\s+)?",
    )
});
static LEADING_NUMBER: LazyLock<Regex> = LazyLock::new(|| crate::extract::re(r"^(\d[\d,_]*)\b"));
static LAST_NUMBER: LazyLock<Regex> = LazyLock::new(|| crate::extract::re(r"\d[\d,_]*(\D*)$"));

/// Is this correction marker a bare "no" (", no 16")? It corrects only a
/// number: "qlora, no checkpointing" is a negation, not a correction.
fn bare_no(c: &Captures) -> bool {
    let whole = c.get(0).expect("match");
    let marker = whole.as_str()[c.get(1).map_or(0, |m| m.len())..].to_ascii_lowercase();
    marker
        .trim_start_matches([',', ';', ' ', '-', '—', '–', '.', '…'])
        .trim()
        == "no"
}

fn corrections(text: &str) -> String {
    let mut t = text.to_string();
    // One correction at a time, leftmost first, until none is left.
    for _ in 0..4 {
        let found = CORRECTION.captures_iter(&t).find(|c| {
            let end = c.get(0).expect("match").end();
            !bare_no(c) || t[end..].starts_with(|ch: char| ch.is_ascii_digit())
        });
        let Some(c) = found else {
            break;
        };
        let whole = c.get(0).expect("match");
        let before = c.get(1).map_or("", |m| m.as_str()).to_string();
        let after = &t[whole.end()..];
        let replaced = if let Some(n) = LEADING_NUMBER.captures(after) {
            match LAST_NUMBER.captures(&before) {
                // "batch size 16..." + "8": the new number where the old one was.
                Some(old) => format!(
                    "{}{}{}{}{}",
                    &t[..whole.start()],
                    &before[..old.get(0).map_or(0, |m| m.start())],
                    &n[1],
                    &old[1],
                    &after[n[0].len()..]
                ),
                None => format!("{}{}", &t[..whole.start()], after),
            }
        } else {
            // A value after the marker is merged by `split_correction`.
            break;
        };
        if replaced == t {
            break;
        }
        t = replaced;
    }
    t
}

/// "not qlora, plain lora", "qwen3 8b instead of qwen2.5 7b", "switch from
/// lora to qlora", "drop qlora and go full": the negated value is dropped.
static NEGATED: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(?i)\bnot\s+[\w.-]+(?:\s+[\w.-]+)?\s*,\s*|\bnot\s+\d[\d_]*\s*(?:—|–|--|-|:)\s*|\bnot\s+(?:q?lora|full(?:\s+fine-?tun\w*)?|bf16|fp16|fp32)\b|\bdrop\s+(?:the\s+)?[\w.-]+(?:\s+quantization)?\s*,\s*|\b(?:instead\s+of|rather\s+than)\s+[^,;?!]*|\bfrom\s+[\w.-]+(?:\s+[\w.-]+)?\s+(to)\b|\bdrop\s+[\w.-]+\s+and\s+",
    )
});

/// "no lora whatever happens": a method ruled out. "no lora dropout" is a
/// setting of the LoRA run, not a no to LoRA.
static NO_METHOD: LazyLock<Regex> =
    LazyLock::new(|| crate::extract::re(r"(?i)\bno\s+q?lora\b([\s_-]*\w*)"));
static LORA_SETTING: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(r"(?i)^[\s_-]*(?:dropout|rank|r|alpha|targets?|target_modules)$")
});

fn negations(text: &str) -> String {
    let t = NEGATED.replace_all(text, |c: &Captures| {
        c.get(1).map_or("", |m| m.as_str()).to_string()
    });
    NO_METHOD
        .replace_all(&t, |c: &Captures| {
            if LORA_SETTING.is_match(&c[1]) {
                c[0].to_string()
            } else {
                c[1].to_string()
            }
        })
        .into_owned()
}

/// "4-bit lora", "bnb 4bit + lora", `load_in_4bit: true` with LoRA: QLoRA.
static FOUR_BIT: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(?i)\b(?:4[\s-]?bit|bnb[\s_-]?4[\s_-]?bit|load_in_4bit\s*[:=]\s*true|nf4)\b",
    )
});
static PLAIN_LORA: LazyLock<Regex> = LazyLock::new(|| crate::extract::re(r"(?i)\blora\b"));

/// "and if i use 4bit?", "load it in 4-bit": a 4-bit base for fine-tuning
/// is QLoRA (a full fine-tune has no 4-bit form). A word of its own only:
/// `…-bnb-4bit` in a model id, a 4-bit optimizer, KV cache or server
/// quantization is not the method.
static FOUR_BIT_WORD: LazyLock<Regex> =
    LazyLock::new(|| crate::extract::re(r"(?i)(^|\s)(4[\s-]?bits?|nf4)([\s?.,!]|$)"));
static NOT_THE_METHOD: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(?i)\b(?:adam\w*|optim\w*|kv|cache|vllm|ollama|gguf|awq|gptq|serv\w*|llama\.cpp|inference)\b",
    )
});

/// "load_in_4bit=False", "load_in_4bit: true": the key said in a sentence
/// ("what if load_in_4bit=False?") names the method.
static LOAD_IN_4BIT: LazyLock<Regex> =
    LazyLock::new(|| crate::extract::re(r"(?i)\bload_in_4bit\s*[=:]\s*(true|yes|1|false|no|0)\b"));

fn four_bit_lora(text: &str) -> String {
    if let Some(c) = LOAD_IN_4BIT.captures(text) {
        let method = match c[1].to_ascii_lowercase().as_str() {
            "true" | "yes" | "1" => "qlora",
            _ => "lora",
        };
        return LOAD_IN_4BIT.replace(text, method).into_owned();
    }
    if FOUR_BIT.is_match(text) && PLAIN_LORA.is_match(text) {
        PLAIN_LORA.replace(text, "qlora").into_owned()
    } else if FOUR_BIT_WORD.is_match(text) && !NOT_THE_METHOD.is_match(text) {
        FOUR_BIT_WORD.replace(text, "${1}qlora${3}").into_owned()
    } else {
        text.to_string()
    }
}

/// A sentence with a correction in it ("lora, no wait, qlora", "batch 4
/// pack 2048 — actually batch 2"): the words before the marker and the
/// words after, whose settings replace the same settings before.
pub fn split_correction(sentence: &str) -> Option<(String, String)> {
    let c = CORRECTION.captures_iter(sentence).find(|c| !bare_no(c))?;
    let whole = c.get(0)?;
    let before = sentence[..whole.start()].to_string() + c.get(1).map_or("", |m| m.as_str());
    let after = sentence[whole.end()..].to_string();
    (!after.trim().is_empty()).then_some((before, after))
}

/// "fine, make it 4096": a bare length of the size only a packing has.
static BARE_LENGTH: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(?i)\b(?:make it|go with|set it to|let'?s do|lets do|use|go back to|back to|change it to|try|what about|how about)\s+(\d{3,6})\b",
    )
});
static ANY_KEY: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(?i)\b(?:batch|bsz|bs|rank|r|pack\w*|seq\w*|ctx|context|len\w*|tokens?|steps?|gb|gib|mib)\b",
    )
});

fn bare_length(text: &str) -> String {
    if ANY_KEY.is_match(text) {
        return text.to_string();
    }
    BARE_LENGTH
        .replace(text, |c: &Captures| {
            let n: u64 = c[1].parse().unwrap_or(0);
            if n >= 256 {
                format!("packing {n}")
            } else {
                c[0].to_string()
            }
        })
        .into_owned()
}

/// The sentence in the forms the slot patterns read.
pub fn canonical(sentence: &str) -> String {
    let t = typos(sentence);
    let t = thousands(&t);
    let t = number_words(&t);
    let t = size_words(&t);
    let t = kilo(&t);
    let t = labelled_values(&t);
    let t = label_punct_value(&t);
    let t = number_first(&t);
    let t = negations(&t);
    let t = corrections(&t);
    let t = bare_length(&t);
    let t = batch_then_length(&t);
    four_bit_lora(&t)
}

#[cfg(test)]
mod tests {
    use super::canonical;

    #[test]
    fn typos_of_the_domains_words() {
        assert_eq!(canonical("use lroa"), "use lora");
        assert_eq!(canonical("go qlroa"), "go qlora");
        assert_eq!(canonical("bacth 4"), "batch 4");
        assert_eq!(canonical("bath size 2"), "batch size 2");
        assert_eq!(canonical("pakcing 4096"), "packing 4096");
        assert_eq!(canonical("switch to adafacter"), "switch to adafactor");
        // English words stay.
        assert_eq!(canonical("take a bath"), "take a bath");
    }

    #[test]
    fn a_unit_after_at_is_no_length_and_sequences_per_batch_are_the_batch() {
        assert_eq!(
            canonical("105 W looks low for a box rated at 240 W."),
            "105 W looks low for a box rated at 240 W."
        );
        assert_eq!(canonical("it ran at 1500 MHz"), "it ran at 1500 MHz");
        assert_eq!(canonical("batch 2 at 2048."), "batch 2 at packing 2048.");
        assert_eq!(canonical("it started at 10:30"), "it started at 10:30");
        assert_eq!(canonical("four sequences per batch"), "batch 4");
        assert_eq!(canonical("just one sequence per batch"), "just batch 1");
        assert_eq!(canonical("8 samples in each step"), "batch 8");
        assert_eq!(canonical("and 32 per device?"), "and batch 32?");
        assert_eq!(
            canonical("samples cut at 3k tokens"),
            "samples cut at packing 3072"
        );
    }

    #[test]
    fn numbers_in_words_and_thousands() {
        assert_eq!(canonical("batch size two"), "batch size 2");
        assert_eq!(
            canonical("ok lets try shorter cutoff. 1024. yes"),
            "ok lets try shorter packing 1024. yes"
        );
        assert_eq!(canonical("context length: 4096"), "packing 4096");
        assert_eq!(canonical("bsz, 2"), "batch 2");
        assert_eq!(canonical("lora, no lora dropout"), "lora, no lora dropout");
        assert_eq!(canonical("no lora whatever happens"), " whatever happens");
        let t = canonical("make it Qwen3-8B and cutoff_len 4096. Sorry, not 4096 — 3072.");
        assert!(t.contains("cutoff_len 3072") && !t.contains("4096"), "{t}");
        assert_eq!(
            canonical("packing 4096, no wait, not 4096 - 2048"),
            "packing 2048"
        );
        assert_eq!(
            canonical("the batch. 4 hours later"),
            "the batch. 4 hours later"
        );
        assert_eq!(canonical("qwen 2.5 fourteen b"), "qwen 2.5 14b");
        assert_eq!(canonical("llama seventy billion"), "llama 70b");
        assert_eq!(canonical("gemma twenty-seven b"), "gemma 27b");
        assert_eq!(
            canonical("pretrained on seven billion tokens"),
            "pretrained on seven billion tokens"
        );
        assert_eq!(
            canonical("fine tune qwen 2.5 fourteen b, the whole model not lora"),
            "fine tune qwen 2.5 14b, the whole model "
        );
        // A count of something else stays a word.
        assert_eq!(canonical("two bits of advice"), "two bits of advice");
        assert_eq!(canonical("4k context"), "packing 4096");
        assert_eq!(canonical("1k ctx"), "packing 1024");
        assert_eq!(canonical("seq_len=4k"), "seq_len=4096");
        assert_eq!(canonical("two thousand tokens per sample"), "packing 2000");
        assert_eq!(
            canonical("about four thousand five hundred tokens"),
            "about packing 4500"
        );
        assert_eq!(
            canonical("batch 2 4096 while it serves"),
            "batch 2 packing 4096 while it serves"
        );
        assert_eq!(canonical("bs 4, 2048"), "bs 4 packing 2048");
        // Two small figures stay as they are.
        assert_eq!(canonical("batch 2 8 generations"), "batch 2 8 generations");
    }

    #[test]
    fn a_setting_named_then_valued_a_few_words_later() {
        assert_eq!(
            canonical("For the context length I want 2048, no sorry, 1024 is better I think."),
            "For the packing 1024 is better I think."
        );
        assert_eq!(
            canonical("Ah yes the batch, it is two."),
            "Ah yes the batch 2."
        );
        assert_eq!(canonical("Batch size... let's say 2?"), "batch 2?");
        assert_eq!(canonical("and if i use 4bit?"), "and if i use qlora?");
        assert_eq!(canonical("load it in 4-bit"), "load it in qlora");
        assert_eq!(canonical("what if load_in_4bit=False?"), "what if lora?");
        assert_eq!(canonical("and load_in_4bit: true"), "and qlora");
        for kept in [
            "use unsloth/llama-3-8b-bnb-4bit",
            "8bit adam, 4bit kv cache",
            "serve it in 4bit with ollama",
        ] {
            assert_eq!(canonical(kept), kept);
        }
        assert_eq!(canonical("batch size, maybe 4"), "batch 4");
        assert_eq!(canonical("rank i guess 16"), "rank 16");
        for kept in [
            "For context, I think 3 people share the Spark",
            "batch, I think 2 of them failed",
        ] {
            assert_eq!(canonical(kept), kept);
        }
        assert_eq!(
            canonical("max len 4096 forgot that"),
            "packing 4096 forgot that"
        );
        assert_eq!(
            canonical("bs 8, 2048 tok, bf16"),
            "bs 8, packing 2048, bf16"
        );
        assert_eq!(canonical("lora rank should be 32"), "rank 32");
        assert_eq!(
            canonical("And if I go back to 2048, is still ok?"),
            "And if I packing 2048, is still ok?"
        );
        // A number that is not the setting's value stays.
        assert_eq!(
            canonical("batch 2 and packing 4096"),
            "batch 2 and packing 4096"
        );
    }

    #[test]
    fn number_first_settings() {
        assert_eq!(canonical("8192 seq len"), "packing 8192");
        assert_eq!(canonical("bs 4, 4096 seq"), "bs 4, packing 4096");
        assert_eq!(canonical("bs 1, 2k seq."), "bs 1, packing 2048.");
        assert_eq!(canonical("8192 sequence"), "packing 8192");
        // A count of sequences is no length.
        assert_eq!(canonical("4096 sequences"), "4096 sequences");
        assert_eq!(canonical("2048 tokens per sequence"), "packing 2048");
        // The value first, then what it is for.
        assert_eq!(
            canonical("and if i take 1024 for the sequence"),
            "and if i take packing 1024"
        );
        assert_eq!(
            canonical("what about 4096 for context length?"),
            "what about packing 4096?"
        );
        assert_eq!(canonical("let's do 4 batch"), "let's do batch 4");
        assert_eq!(canonical("4 sequences per micro-batch"), "batch 4");
    }

    #[test]
    fn the_owner_corrects_themself() {
        assert_eq!(canonical("batch 8, no wait, 4"), "batch 4");
        assert_eq!(canonical("pack 4096 — sorry, 2048"), "pack 2048");
        assert_eq!(
            canonical("batch size 16... actually make it 8"),
            "batch size 8"
        );
        assert_eq!(canonical("lora rank 32, no 16"), "lora rank 16");
        assert_eq!(canonical("8k ctx, no, 4k"), "packing 4096");
        let split = |t: &str| {
            super::split_correction(t).map(|(b, a)| (b.trim().to_string(), a.trim().to_string()))
        };
        assert_eq!(
            split("fp16, no, bf16"),
            Some(("fp16".into(), "bf16".into()))
        );
        assert_eq!(
            split("lora, no wait, qlora"),
            Some(("lora".into(), "qlora".into()))
        );
        assert_eq!(
            split("batch 4 pack 2048 — actually batch 2"),
            Some(("batch 4 pack 2048".into(), "batch 2".into()))
        );
        assert_eq!(split("qlora, no checkpointing"), None);
    }

    #[test]
    fn at_a_length_versus_at_a_date() {
        assert_eq!(
            canonical("qlora with batch 2 at 4k fit?"),
            "qlora with batch 2 at packing 4096 fit?"
        );
        assert_eq!(
            canonical("the run started at 2026-11-29 09:00"),
            "the run started at 2026-11-29 09:00"
        );
        assert_eq!(
            canonical("it throttles at 1500 MHz"),
            "it throttles at 1500 MHz"
        );
    }

    #[test]
    fn a_bare_length_is_the_packing() {
        assert_eq!(canonical("fine, make it 4096"), "fine, packing 4096");
        assert_eq!(canonical("make it 2"), "make it 2");
        assert_eq!(canonical("make it 4096 steps"), "make it 4096 steps");
    }

    #[test]
    fn negated_values_drop_out() {
        assert_eq!(canonical("not qlora, plain lora"), "plain lora");
        assert_eq!(canonical("lora r=64, NOT qlora").trim(), "lora r=64,");
        assert_eq!(
            canonical("actually make that qwen3 8b instead of qwen2.5 7b"),
            "actually make that qwen3 8b "
        );
        assert_eq!(canonical("switch from lora to qlora"), "switch to qlora");
        assert_eq!(canonical("drop qlora and go full"), "go full");
        assert_eq!(canonical("4-bit lora"), "4-bit qlora");
    }
}
