//! A turn as a sequence of segments: the owner's prose and the blocks they
//! pasted, told apart by the shape of each line (columns, log prefixes,
//! stamps, tracebacks, prompts, fences), never by what the words say.
//!
//! "It died at step 40, here's the error:" and the traceback under it are
//! two segments: the words go to the language reader, the traceback to the
//! reader registry, and neither hides the other.

use regex::Regex;
use std::sync::LazyLock;

/// Who wrote a segment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The owner's own words.
    Prose,
    /// Text a program printed (or a config the owner pasted).
    Paste,
}

/// One segment of a turn, in the order it was typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Segment {
    pub source: Source,
    pub text: String,
}

/// What a single line looks like.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// A sentence in the owner's voice ("here's the error:", "my run …").
    Voiced,
    /// Sentence-shaped words without a speaker ("batch 4, lora").
    Words,
    /// Program output: columns, stamps, prefixes, tracebacks, key=value.
    Data,
    /// Blank, a lone word, a markdown heading: goes with its neighbours.
    Neutral,
}

/// Layout no one types in a sentence: indentation, tables and progress
/// bars, aligned columns, brackets and rules. Configs have it too.
static LAYOUT: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(concat!(
        r"(?x)",
        r"^(?:\s{2,}|\t)\S | \| | \t | \S\s{3,}\S",
        r"| ^[\[\]{}<+=~]|^-{3,}|^\#\s|^\$\s|^%\s|^>>>",
    ))
});

/// Lines only a running program prints: stamps, prompts, tracebacks, log
/// levels, process listings.
static EMITTED: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(concat!(
        r"(?x)",
        // a clock time or a date
        r"(?:^|\D)\d{1,2}:\d{2}:\d{2}(?:\D|$) | (?:^|\D)\d{4}[-/]\d{2}[-/]\d{2}",
        // user@host:~$ cmd, (venv) user@host
        r"| ^\S+@\S+.*?[\$\#](?:\s|$) | ^\([\w.-]+\)\s+\S+@",
        // a Python traceback and exceptions
        r"| ^Traceback\b | ^\s*File\s\x22 | ^[A-Za-z_][\w.]*(?:Error|Exception|Warning)\b",
        // log levels and glog prefixes
        r"| ^(?:INFO|WARN|WARNING|ERROR|DEBUG|CRITICAL|FATAL|TRACE)\b | ^[IWEF]\d{4}\s",
        // pgrep -a / pidof style: a pid, then a program path
        r"| ^\d+\s+/\S",
        // kernel and driver lines: a subsystem tag (`NVRM:`), a hex value
        // opening the line (`(0x00000051) returned from …`)
        r"| ^NVRM: | ^(?:\(0x|0x)[0-9a-fA-F]{2,}",
        // a table or a progress bar
        r"| \|",
    ))
});

/// `key=value` and `key: value` with a code-shaped key: a config line, or a
/// log's fields. Typed alone they are still the owner's ("bs=4").
static PAIR: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(concat!(
        r"(?x)",
        r"^[A-Za-z_][\w.-]*=\S | \b[a-z_]+=\S+.*\b[a-z_]+=\S",
        r"| ^[A-Za-z_]*[_.\d][\w.-]*:\s | ^[A-Za-z]+\w*:\s+-?[\d.]+\s*(?:[kKMG]i?B?|kB)?\s*$",
    ))
});

/// A line of code or config no one types as a sentence: an assignment of a
/// call (`args = GRPOConfig(`), a line opening or closing a bracket.
static CODE: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"^\s*[A-Za-z_][\w.]*\s*=\s*[A-Za-z_][\w.]*\s*\(|[(\[{,]\s*$|^\s*[)\]}]+[,;]?\s*$",
    )
});

/// Words that put the owner in the sentence.
static VOICE: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(?i)\b(?:i|i'm|im|i've|i'd|i'll|me|my|mine|we|we're|our|us|here's|heres|here is|here are|attached|pasted|thanks|ugh|hmm)\b|^\s*(?:what|what's|whats|why|how|can|could|should|would|is|does|do|will|please|ok|okay|so|here|this is|these are|below|and|but|also|then|trying|tried)\b",
    )
});

/// A line that starts the way only program output starts: a stamp, a log
/// level, a prompt, a traceback, an exception, a bracket, a table border.
static STARTS_EMITTED: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(concat!(
        r"(?x)^\s*(?:",
        r"\[?\d{4}[-/]\d{2}[-/]\d{2} | \[?\d{1,2}:\d{2}:\d{2} | \[?[A-Z][a-z]{2}\s+(?:[A-Z][a-z]{2}\s+)?\d{1,2}\s",
        r"| (?:INFO|WARN|WARNING|ERROR|DEBUG|CRITICAL|FATAL|TRACE)\b | [IWEF]\d{4}\s",
        r"| \S+@\S+.*?[\$\#](?:\s|$) | \$\s | Traceback\b | File\s\x22 | [A-Za-z_][\w.]*(?:Error|Exception|Warning)\b",
        r"| [\[\]{}<|+] | \d+\s+/\S | NVRM: | \(?0x[0-9a-fA-F]{2,}",
        r")",
    ))
});

/// Indented, or columns aligned with runs of spaces: a program's layout
/// (an annotated `nvidia-smi -q` line stays in its paste).
static ALIGNED: LazyLock<Regex> =
    LazyLock::new(|| crate::extract::re(r"^(?:\s{2,}|\t)|\S\s{4,}\S"));

fn wordy_count(words: &[&str]) -> usize {
    words
        .iter()
        .filter(|w| {
            let core = w.trim_matches(|c: char| ",.;:!?\"'()".contains(c));
            !core.is_empty() && core.chars().all(|c| c.is_alphabetic() || "'’-".contains(c))
        })
        .count()
}

fn shape(line: &str) -> Shape {
    let t = line.trim_end();
    let words: Vec<&str> = t.split_whitespace().collect();
    if words.is_empty() || is_heading(t) {
        return Shape::Neutral;
    }
    // A `ps aux` or `ps -ef` row is the program's whatever its spacing
    // (long user names and pids leave single spaces between columns).
    if crate::extract::ps::is_listing_row(t) {
        return Shape::Data;
    }
    let wordy = wordy_count(&words);
    let voiced = VOICE.is_match(t) || t.ends_with('?');
    // An owner's sentence may quote a progress bar or a date ("killed at
    // "Loading checkpoint shards: 84%|…| 31/37", dmesg says:"); it is still
    // theirs unless it starts the way output starts.
    if voiced
        && words.len() >= 6
        && wordy * 10 >= words.len() * 6
        && !STARTS_EMITTED.is_match(t)
        && !ALIGNED.is_match(t)
    {
        return Shape::Voiced;
    }
    if LAYOUT.is_match(t) || EMITTED.is_match(t) || CODE.is_match(t) && wordy <= 2 {
        return Shape::Data;
    }
    if PAIR.is_match(t) && !is_sentence_with_pairs(&words, wordy) {
        return Shape::Data;
    }
    if words.len() < 2 {
        return Shape::Neutral;
    }
    // Settings are number-heavy too ("bs 4, seq 2048"); only a line with
    // no word at all (a CSV row of numbers) is data by this test.
    if wordy == 0 {
        return Shape::Data;
    }
    if voiced { Shape::Voiced } else { Shape::Words }
}

/// A line that hands over to what follows: "its startup said:", "the log
/// shows:", "here's the error:". It ends with a colon after a word of
/// showing or saying.
static INTRO: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(?i)\b(?:said|says|printed|prints|shows?|showed|shown|output|outputs|reports?|reported|logged|logs?|gave|gives|got|get|error|errors|traceback|here(?:'s| is| are)|below|this|these)\b[^:]*:\s*$",
    )
});

/// Program sentences have no layout to give them away ("Free memory on
/// device (110.34/121.69 GiB) on startup."): after a line that hands over
/// to them, unvoiced lines are the quote, when there are at least two and
/// one of them is a full sentence (a list of settings under "my run:" is
/// short lines and stays the owner's).
fn quoted_after_intro(lines: &[&str], shapes: &mut [Shape]) {
    let Some(intro) = (0..lines.len().saturating_sub(1)).find(|&i| {
        matches!(shapes[i], Shape::Voiced | Shape::Words) && INTRO.is_match(lines[i].trim_end())
    }) else {
        return;
    };
    let after: Vec<usize> = (intro + 1..lines.len())
        .take_while(|&j| shapes[j] != Shape::Voiced)
        .filter(|&j| shapes[j] != Shape::Neutral)
        .collect();
    let sentence = after
        .iter()
        .any(|&j| lines[j].split_whitespace().count() >= 6);
    if after.len() >= 2 && sentence {
        for j in after {
            shapes[j] = Shape::Data;
        }
    }
}

/// A sentence that quotes a few settings ("LoRA r=16 on gemma-3-27b, bf16,
/// per_device_train_batch_size=1. It loaded fine, then died:"): mostly
/// words, the pairs a small share. A log's key=value line is mostly pairs,
/// and a logfmt message's words sit inside quotes.
fn is_sentence_with_pairs(words: &[&str], wordy: usize) -> bool {
    let pairs = words
        .iter()
        .filter(|w| {
            let w = w.trim_end_matches([',', ';', '.']);
            w.contains('=') || w.ends_with(':') && w.len() > 1
        })
        .count();
    let quoted = words.iter().any(|w| w.contains('"'));
    !quoted && words.len() >= 10 && wordy * 2 >= words.len() && pairs * 4 <= words.len()
}

/// `**free -h**`, `### nvidia-smi`, a fence: a label, not a sentence.
fn is_heading(t: &str) -> bool {
    let s = t.trim();
    s.starts_with("```") || (s.starts_with("**") && s.ends_with("**")) || s.starts_with("##")
}

fn is_fence(t: &str) -> bool {
    t.trim_start().starts_with("```")
}

/// A shell prompt with its command: the start of one command's output.
static PROMPT: LazyLock<Regex> = LazyLock::new(|| {
    // A bare `#` is also a comment or a column header (`# gpu pwr gtemp`),
    // so it is a root prompt only before a command.
    crate::extract::re(
        r"^(?:\([\w.-]+\)\s+)?(?:\S+@\S+?(?::\S*)?(?:\s+\([^)\s]*\))?\s*[\$\#]\s+\S|\$\s+\S|\#\s+(?:sudo\s+)?(?:nvidia-smi|free|ps|cat|top|htop|ollama|vllm|python3?|pip|docker|journalctl|dmesg|e?grep|pgrep|tail|head|uname|df|echo|watch|nvtop|torchrun|accelerate|deepspeed)\b)",
    )
});

/// A command line of the tools whose output headroom reads, typed without a
/// prompt, pipes and flags included. Not nvidia-smi: its `--query-gpu=…`
/// line names the columns of a `noheader` CSV under it.
static BARE_COMMAND: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"^\s*(?:sudo\s+)?(?:ps\s+(?:aux|-ef|-eo\b)|free(?:\s+-{1,2}[a-z]+)*\s*$|ollama\s+ps\b|cat\s+/proc/meminfo\b|dmesg\b|journalctl\b|pgrep\s+-)[^\n]*$",
    )
});

static PROMPT_ONLY: LazyLock<Regex> =
    LazyLock::new(|| crate::extract::re(r"^(?:\([\w.-]+\)\s+)?\S+@\S+?(?::\S*)?\s*[\$\#]\s*$"));

/// Split a turn into prose and pasted segments. A turn that is all one or
/// the other is one segment, as it always was.
pub fn segments(text: &str) -> Vec<Segment> {
    // Python source pasted under the owner's words is one paste from its
    // first `import` or `def` on: its comments and closing brackets are
    // not words or a log of their own.
    if let Some((words, code)) = python_paste(text) {
        // The lines above the code are the owner's ("this is my loader:").
        let mut out: Vec<Segment> = (!words.trim().is_empty())
            .then(|| Segment {
                source: Source::Prose,
                text: words.trim_end().to_string(),
            })
            .into_iter()
            .collect();
        out.push(Segment {
            source: Source::Paste,
            text: code.to_string(),
        });
        return out;
    }
    let lines: Vec<&str> = text.lines().collect();
    let mut shapes: Vec<Shape> = Vec::with_capacity(lines.len());
    let mut in_fence = false;
    for line in &lines {
        if is_fence(line) {
            in_fence = !in_fence;
            shapes.push(Shape::Neutral);
        } else if in_fence {
            shapes.push(Shape::Data);
        } else {
            shapes.push(shape(line));
        }
    }
    // A CSV header reads like words ("timestamp, temperature.gpu, power.draw
    // [W]"); the rows of its width under it say it is theirs.
    for i in 0..lines.len().saturating_sub(2) {
        if let Some(w) = csv_width(lines[i])
            && shapes[i] != Shape::Data
            && (i + 1..i + 3).all(|j| shapes[j] == Shape::Data && csv_width(lines[j]) == Some(w))
        {
            shapes[i] = Shape::Data;
        }
    }
    quoted_after_intro(&lines, &mut shapes);
    // No sentence ends in a backslash: a line continued with one is a
    // command, and so is the line it continues onto.
    for i in 0..lines.len() {
        if lines[i].trim_end().ends_with(" \\") {
            shapes[i] = Shape::Data;
            if i + 1 < lines.len() && !lines[i + 1].trim().is_empty() {
                shapes[i + 1] = Shape::Data;
            }
        }
    }
    if !shapes.contains(&Shape::Data) {
        return whole_or_stacked(text);
    }
    // Words before the first data line are prose; after it, only a voiced
    // line is (a traceback's "During handling of the
    // above exception, another exception occurred:" is the program's).
    // After the paste only a voiced line is: programs end their output
    // with unvoiced sentences too ("Checking cache directory for required
    // files...").
    let first = shapes.iter().position(|s| *s == Shape::Data).unwrap_or(0);
    // A config or code paste ends with no sentence of its own: words under
    // its closing line are the owner's ("model is Qwen3 8B with lora").
    let last = shapes.iter().rposition(|s| *s == Shape::Data).unwrap_or(0);
    let after_config = |i: usize| -> bool {
        i > last
            && (0..i)
                .rev()
                .find(|&j| shapes[j] != Shape::Neutral)
                .is_some_and(|j| {
                    // An exception's `Error: …` line is the program's, not a config.
                    // A config's pair or code, not a log's `step=100 loss=2.3`.
                    shapes[j] == Shape::Data
                        && !EMITTED.is_match(lines[j])
                        && (family(lines[j]) == Some(Family::Config) || CODE.is_match(lines[j]))
                })
    };
    let source = |i: usize| -> Option<Source> {
        match shapes[i] {
            Shape::Neutral => None,
            Shape::Data => Some(Source::Paste),
            Shape::Voiced => Some(Source::Prose),
            Shape::Words if i < first || after_config(i) => Some(Source::Prose),
            Shape::Words => Some(Source::Paste),
        }
    };
    let mut out: Vec<Segment> = Vec::new();
    let mut pending_neutral: Vec<&str> = Vec::new();
    // A fence opens a new paste: two fenced blocks in a row are two pastes.
    let mut fence_opened = false;
    for (i, line) in lines.iter().enumerate() {
        if is_fence(line) {
            fence_opened = true;
        }
        let Some(src) = source(i) else {
            pending_neutral.push(line);
            continue;
        };
        let after_fence = std::mem::take(&mut fence_opened);
        let starts_new = match out.last() {
            None => true,
            Some(seg) => {
                seg.source != src
                    || (src == Source::Paste && (PROMPT.is_match(line) || after_fence))
            }
        };
        if starts_new {
            // Neutral lines between two segments belong to the one after:
            // "**nvidia-smi**" heads the table under it.
            if let Some(seg) = out.last_mut()
                && seg.source == src
            {
                push_lines(&mut seg.text, &pending_neutral);
                pending_neutral.clear();
            }
            out.push(Segment {
                source: src,
                text: String::new(),
            });
        }
        let seg = out.last_mut().expect("pushed above");
        push_lines(&mut seg.text, &pending_neutral);
        pending_neutral.clear();
        push_lines(&mut seg.text, &[line]);
    }
    if let Some(seg) = out.last_mut() {
        push_lines(&mut seg.text, &pending_neutral);
    }
    out.retain(|s| !s.text.trim().is_empty());
    // A prompt with no output under it ("user@host:~$ " at the end) is
    // part of the paste before it, not a paste of its own.
    let mut merged: Vec<Segment> = Vec::with_capacity(out.len());
    for seg in out {
        let lone_prompt = seg.source == Source::Paste
            && seg.text.trim().lines().count() == 1
            && PROMPT_ONLY.is_match(seg.text.trim());
        match merged.last_mut() {
            Some(prev) if lone_prompt && prev.source == Source::Paste => {
                prev.text.push('\n');
                prev.text.push_str(&seg.text);
            }
            _ => merged.push(seg),
        }
    }
    // Two outputs pasted one under the other with no prompt between them
    // (sampler CSV rows, then trainer lines): each is its own paste.
    let out: Vec<Segment> = merged
        .into_iter()
        .flat_map(|seg| match seg.source {
            Source::Paste => split_at_headers(&seg.text)
                .iter()
                .flat_map(|part| split_blocks(part))
                .map(|text| Segment {
                    source: Source::Paste,
                    text,
                })
                .collect(),
            Source::Prose => vec![seg],
        })
        .collect();
    if out.len() <= 1 {
        return whole_or_stacked(text);
    }
    out
}

/// A turn that is one paste, unless it is listings stacked one under the
/// other.
/// Where Python source starts: its first `import`, `from … import`, `def`
/// or `class` line (no log or program output prints one).
pub fn python_start(text: &str) -> Option<usize> {
    static START: LazyLock<Regex> = LazyLock::new(|| {
        crate::extract::re(
            r"(?m)^[ \t]*(?:from [\w.]+ import \w|import \w[\w.]*\s*$|import \w[\w.]* as \w|def \w+\(|class \w+[(:])",
        )
    });
    Some(START.find(text)?.start())
}

/// The words above and the Python source from its first `import`, `from
/// … import`, `def` or `class` line, when three or more lines follow it.
fn python_paste(text: &str) -> Option<(&str, &str)> {
    let at = python_start(text)?;
    let code = &text[at..];
    (code.lines().count() >= 4).then(|| (&text[..at], code))
}

fn whole_or_stacked(text: &str) -> Vec<Segment> {
    let parts = split_at_headers(text);
    if parts.len() <= 1 {
        return whole(text);
    }
    parts
        .into_iter()
        .map(|text| Segment {
            source: Source::Paste,
            text,
        })
        .collect()
}

/// The first line of a listing a reader knows, which no other output
/// prints inside itself: `free`'s column header, `ollama ps` / `ollama
/// list`, `ps aux` / `ps -ef`, `/proc/meminfo`'s first field, the
/// nvidia-smi table's title row.
static OUTPUT_HEADER: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(concat!(
        r"(?x)^(?:",
        r"\s*total\s+used\s+free\s+shared\b",
        r"| \s*NAME\s+ID\s+SIZE\s+(?:PROCESSOR|MODIFIED)\b",
        r"| \s*USER\s+PID\s+%CPU\b | \s*UID\s+PID\s+PPID\b",
        r"| MemTotal:\s",
        r"| \|\s*NVIDIA-SMI\s",
        r")",
    ))
});

/// Two listings pasted one under the other with no prompt or blank line
/// between them (`ollama ps`, then `free -h`): cut before each header after
/// the first line, so each reader gets its own. The nvidia-smi table's
/// title row takes the border and date lines above it along.
fn split_at_headers(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut cuts: Vec<usize> = Vec::new();
    for (i, line) in lines.iter().enumerate().skip(1) {
        if !OUTPUT_HEADER.is_match(line) {
            continue;
        }
        let mut at = i;
        if line.trim_start().starts_with('|') {
            // The table's top border and the date line printed above it.
            while at > 0 && (lines[at - 1].starts_with("+-") || SMI_DATE.is_match(lines[at - 1])) {
                at -= 1;
            }
        }
        // The command line typed above its output goes with it.
        if at > 0 && (PROMPT.is_match(lines[at - 1]) || BARE_COMMAND.is_match(lines[at - 1])) {
            at -= 1;
        }
        // Cut only when what comes before is itself output a reader knows
        // (`ollama ps` above `free -h`); a heading, a fence or a stray line
        // of another command stays with the listing under it.
        let from = cuts.last().copied().unwrap_or(0);
        if at > from
            && crate::extract::reading::kind_of(&lines[from..at].join("\n")) != "your words"
        {
            cuts.push(at);
        }
    }
    if cuts.is_empty() {
        return vec![text.to_string()];
    }
    let mut parts = Vec::new();
    let mut from = 0;
    for at in cuts.into_iter().chain([lines.len()]) {
        if at > from {
            parts.push(lines[from..at].join("\n"));
        }
        from = at;
    }
    parts
}

/// The date line nvidia-smi prints above its table ("Wed Nov 26 14:02:11 2025").
static SMI_DATE: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(r"^[A-Z][a-z]{2} [A-Z][a-z]{2}\s+\d{1,2} \d{2}:\d{2}:\d{2} \d{4}\s*$")
});

/// The fields of a CSV line, when it is one: two or more commas and no
/// aligned columns.
fn csv_width(line: &str) -> Option<usize> {
    let t = line.trim();
    let commas = t.matches(',').count();
    // Python reprs (`Linear(in_features=3584, out_features=512, bias=True)`)
    // and dicts have commas too.
    // nvidia-smi's missing value (`[N/A], [N/A], 0 %`) opens a row too.
    let missing_first = t.starts_with("[N/A]") || t.starts_with("[Not Supported]");
    let dict_or_table =
        (t.starts_with(['{', '[', '|', '+', '(']) && !missing_first) || t.contains(['|', '=']);
    let aligned = t.split(',').any(|f| f.trim().contains("  "));
    (commas >= 2 && !dict_or_table && !aligned).then_some(commas)
}

/// The block a line belongs to when two outputs are pasted one under the
/// other: a CSV of one width, or a config's `key: value` lines (with its
/// comments and list items).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Family {
    Csv(usize),
    Config,
}

fn family(line: &str) -> Option<Family> {
    if let Some(w) = csv_width(line) {
        return Some(Family::Csv(w));
    }
    let t = line.trim_start();
    // `/proc/meminfo`'s "MemTotal:  16268680 kB" is a reading, not a config.
    let reading = MEMINFO_LINE.is_match(line);
    let config = (CONFIG_KEY.is_match(line) || YAML_PARENT.is_match(line))
        && !t.starts_with('"')
        && !reading
        // A comment or a `### section` heading inside a YAML config.
        || (t.starts_with('#') && !PROMPT.is_match(line))
        || t.starts_with("- ");
    config.then_some(Family::Config)
}

/// A paste that holds a block (three or more CSV lines of one width, or of
/// config pairs, or two that a reader knows) and other output around it that a reader knows, cut into
/// the block and the rest: an axolotl YAML with the dmesg lines under it,
/// sampler rows with the trainer's lines.
fn split_blocks(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let families: Vec<Option<Family>> = lines.iter().map(|l| family(l)).collect();
    let mut start = 0;
    while start < lines.len() {
        let Some(f) = families[start] else {
            start += 1;
            continue;
        };
        let end = (start..lines.len())
            .find(|&i| families[i] != Some(f))
            .unwrap_or(lines.len());
        let others = lines[..start]
            .iter()
            .chain(&lines[end..])
            .filter(|l| !l.trim().is_empty())
            .count();
        // Cut only when what is left around the block is itself output a
        // reader knows (a training log under the samples); a command line
        // and `time`'s summary around a CSV stay with it.
        let readable = |part: &[&str]| {
            part.iter().filter(|l| !l.trim().is_empty()).count() >= 2
                && crate::extract::reading::kind_of(&part.join("\n")) != "your words"
        };
        let (before, after) = (readable(&lines[..start]), readable(&lines[end..]));
        // Two lines are a block when a reader knows them on their own (a
        // `--query-gpu` header and its one row).
        let block = end - start >= 3
            || end - start == 2
                && crate::extract::reading::kind_of(&lines[start..end].join("\n")) != "your words";
        // A launch script's variables and the command that uses them
        // (`BATCH_SIZE=4` … `--per_device_train_batch_size $BATCH_SIZE`)
        // are one paste.
        let vars = crate::extract::shell_vars::assignments(&lines[start..end].join("\n"));
        let used_after = !vars.is_empty()
            && crate::extract::shell_vars::uses_any(&lines[end..].join("\n"), &vars);
        if block && others >= 2 && (before || after) && !used_after {
            // What no reader knows stays with the block beside it.
            let cut_at = if before { start } else { 0 };
            let cut_end = if after { end } else { lines.len() };
            return [&lines[..cut_at], &lines[cut_at..cut_end], &lines[cut_end..]]
                .into_iter()
                .filter(|part| part.iter().any(|l| !l.trim().is_empty()))
                .map(|part| part.join("\n"))
                .collect();
        }
        start = end;
    }
    vec![text.to_string()]
}

fn push_lines(buf: &mut String, lines: &[&str]) {
    for l in lines {
        if is_fence(l) {
            continue;
        }
        if !buf.is_empty() {
            buf.push('\n');
        }
        buf.push_str(l);
    }
}

fn whole(text: &str) -> Vec<Segment> {
    vec![Segment {
        source: Source::Paste,
        text: text.to_string(),
    }]
}

/// Is every line of this text laid out the way programs print (indented,
/// columns, stamps, pairs), none of it a sentence, over three lines or
/// more? A module tree from `print(model)` is; "qwen 7b lora / batch 4" is
/// not.
pub fn laid_out(text: &str) -> bool {
    let shapes: Vec<Shape> = text.lines().map(shape).collect();
    shapes.iter().filter(|s| **s == Shape::Data).count() >= 3
        && !shapes
            .iter()
            .any(|s| matches!(s, Shape::Voiced | Shape::Words))
        // A config (JSON, YAML, `Qwen2Config {…}`) is keys and values: the
        // slot reader knows its keys.
        && !text.lines().any(|l| CONFIG_KEY.is_match(l))
}

/// A config no reader knows is read by its keys, never by its comments:
/// "# plan batch 32 with packing 16384" in a pasted compose file is the
/// file's author talking, not the owner. Other text is returned as is.
pub fn without_config_comments(text: &str) -> std::borrow::Cow<'_, str> {
    static COMMENT: LazyLock<Regex> = LazyLock::new(|| crate::extract::re(r"^\s*(?:#|//|;)"));
    let keys = text.lines().filter(|l| CONFIG_KEY.is_match(l)).count();
    if keys < 2 || !text.lines().any(|l| COMMENT.is_match(l)) {
        return text.into();
    }
    text.lines()
        .filter(|l| !COMMENT.is_match(l))
        .collect::<Vec<_>>()
        .join("\n")
        .into()
}

/// A YAML key that opens a nested block (`checkpointer:`).
static YAML_PARENT: LazyLock<Regex> =
    LazyLock::new(|| crate::extract::re(r"^\s*[A-Za-z_][\w.-]*:\s*$"));

static MEMINFO_LINE: LazyLock<Regex> =
    LazyLock::new(|| crate::extract::re(r"^\s*[A-Z][\w()]*:\s+\d+(?:\s*kB)?\s*$"));

static CONFIG_KEY: LazyLock<Regex> =
    LazyLock::new(|| crate::extract::re(r#"^\s*"?[A-Za-z_][\w.-]*"?\s*[:=]\s*\S"#));

/// Is this text, as a whole, what a program printed (several lines, most of
/// them stamped, prefixed, tabulated or a traceback)? Config pairs alone
/// are not: "lora_r: 16" typed on two lines is still a setting.
pub fn printed(text: &str) -> bool {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let hits = lines
        .iter()
        .filter(|l| EMITTED.is_match(l.trim_end()))
        .count();
    let prompted = lines.first().is_some_and(|l| PROMPT.is_match(l));
    // A known listing's header line ("USER PID %CPU …") says the lines
    // under it are output, however they wrapped.
    let headed = lines.iter().any(|l| OUTPUT_HEADER.is_match(l));
    lines.len() >= 2 && (prompted || headed || hits * 2 >= lines.len())
}

/// The paste as the program printed it: the carrier's prefixes off, and
/// the shell prompts that typed the command (`$ ps aux | grep …`,
/// `dev@spark:~$ free -g`) dropped, so the reader sees only output, and a
/// grep pattern on the command line is never read as the run's.
pub fn as_printed(text: &str) -> std::borrow::Cow<'_, str> {
    let unwrapped = unwrap_carrier(text);
    // The command typed above its output with no prompt ("ps aux | grep -E
    // 'vllm|ollama' | grep -v grep", then the listing): not output.
    let mut lines = unwrapped.lines().filter(|l| !l.trim().is_empty());
    if let (Some(first), Some(_)) = (lines.next(), lines.next())
        && BARE_COMMAND.is_match(first)
    {
        let rest: Vec<&str> = unwrapped
            .lines()
            .skip_while(|l| l.trim().is_empty())
            .skip(1)
            .collect();
        return rest.join("\n").into();
    }
    // A command continued with `\` is one line however many it spans:
    // `$ vllm serve m \` and its flags under it are the command, not output.
    let logical = continued_lines(&unwrapped);
    let is_prompt = |l: &String| PROMPT.is_match(l) || PROMPT_ONLY.is_match(l.trim());
    let prompts = logical.iter().filter(|l| is_prompt(l)).count();
    let lines = logical.iter().filter(|l| !l.trim().is_empty()).count();
    if prompts == 0 || prompts >= lines {
        return unwrapped;
    }
    logical
        .iter()
        .filter(|l| !is_prompt(l))
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join("\n")
        .into()
}

/// Lines with each `\`-continued command joined onto one.
pub(crate) fn continued_lines(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut open = false;
    for line in text.lines() {
        let (body, continues) = match line.trim_end().strip_suffix('\\') {
            Some(b) => (b.trim_end(), true),
            None => (line, false),
        };
        match out.last_mut() {
            Some(last) if open => {
                last.push(' ');
                last.push_str(body.trim());
            }
            _ => out.push(body.to_string()),
        }
        open = continues;
    }
    out
}

/// Prefixes a carrier adds to every line: journald (`May 19 08:08:41 host
/// ollama[1995]: `), docker compose (`ollama-1  | `), torchrun
/// (`[rank4]: `) or a launcher's host (`worker-0: `).
static CARRIER: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(concat!(
        r"^(?:>\s?)?(?:[A-Z][a-z]{2}\s+\d{1,2}\s\d\d:\d\d:\d\d\s(?:<[^>]+>|\S+)\s[\w.@/-]+(?:\[\d+\])?:\s",
        r"|[\w.-]+\s+\|\s|\[(?:rank|default)\d+\]:\s?|>\s)",
    ))
});
static HOST: LazyLock<Regex> = LazyLock::new(|| crate::extract::re(r"^([\w.-]+):\s\S"));

/// The paste without the prefixes a carrier put on its lines, so the
/// reader of what the program printed sees it as printed.
pub fn unwrap_carrier(text: &str) -> std::borrow::Cow<'_, str> {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    if lines.len() < 2 {
        return text.into();
    }
    let carried = lines.iter().filter(|l| CARRIER.is_match(l)).count();
    if carried * 5 >= lines.len() * 3 {
        return text
            .lines()
            .map(|l| CARRIER.replace(l, "").into_owned())
            .collect::<Vec<_>>()
            .join("\n")
            .into();
    }
    // One launcher host on (nearly) every line.
    let first_host = HOST.captures(lines[0]).map(|c| c[1].to_string());
    if let Some(host) = first_host
        && host
            .chars()
            .any(|c| c.is_ascii_digit() || c == '-' || c == '.')
        && lines
            .iter()
            .filter(|l| HOST.captures(l).is_some_and(|c| c[1] == *host))
            .count()
            * 5
            >= lines.len() * 4
    {
        let prefix = format!("{host}: ");
        return text
            .lines()
            .map(|l| l.strip_prefix(&prefix).unwrap_or(l))
            .collect::<Vec<_>>()
            .join("\n")
            .into();
    }
    text.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(Source, String)> {
        segments(text)
            .into_iter()
            .map(|s| (s.source, s.text.lines().next().unwrap_or("").to_string()))
            .collect()
    }

    #[test]
    fn words_then_kernel_driver_lines_are_two_segments() {
        // The NVIDIA driver's lines after a freeze: a tag, a hex code, a C
        // source location, a wrapped hex size. None is the owner's.
        let t = "Llama 3.1 70B QLoRA, bf16, batch 1, max_seq_length 2048. The machine froze at step 600, the kernel log had this:\nNVRM: nvCheckOkFailedNoLog: Check failed: Out of memory [NV_ERR_NO_MEMORY]\n(0x00000051) returned from _memdescAllocInternal(pMemDesc) @ mem_desc.c:1359\nNVRM: _iovaspaceCreateMappingDataFromMemDesc: failed to allocate\n0x176028 bytes for IOVA mapping metadata";
        let segs = segments(t);
        assert_eq!(segs.len(), 2, "{:?}", kinds(t));
        assert_eq!(segs[0].source, Source::Prose);
        assert!(segs[0].text.contains("batch 1"));
        assert!(segs[1].text.starts_with("NVRM:") && segs[1].text.ends_with("metadata"));
        // An owner's sentence that names a source file is still theirs.
        let t = "my fork crashes in attention.cu:88 every time I start it with batch 4\nand Qwen2.5 7B lora";
        assert_eq!(segments(t).len(), 1);
        assert!(!printed(t));
    }

    #[test]
    fn program_sentences_after_a_line_that_hands_over_are_the_quote() {
        // vLLM's startup check prints plain sentences, no stamp or layout.
        let t = "qlora llama 3.1 70b, bs1, ctx 2k. vllm already up on the box, its startup said:\nFree memory on device (110.34/121.69 GiB) on startup.\nDesired GPU memory utilization is (0.87, 105.87 GiB).\nActual usage is 86.93 GiB for consumed memory (weights + non-torch),\n3.6 GiB for peak activation, and 0.26 GiB for CUDAGraph memory.";
        let k = kinds(t);
        assert_eq!(k.len(), 2, "{k:?}");
        assert_eq!(k[0].0, Source::Prose);
        assert_eq!(
            k[1],
            (
                Source::Paste,
                "Free memory on device (110.34/121.69 GiB) on startup.".into()
            )
        );
        let t = "the error log shows this:\nCUDA error: out of memory while allocating the KV cache for the model\nPlease reduce max_model_len or increase gpu_memory_utilization";
        // (A short line ending in a colon heads the paste under it.)
        let last = segments(t).pop().unwrap();
        assert_eq!(last.source, Source::Paste);
        assert!(last.text.contains("CUDA error"), "{:?}", kinds(t));
        // Settings listed under "my run:" stay the owner's words.
        for t in [
            "here is my run:\nqlora llama 3.1 8b\nbatch 4\npacking 2048",
            "the plan shows this:\nbatch 2 and packing 1024\nI want bigger",
        ] {
            assert_eq!(segments(t).len(), 1, "{:?}", kinds(t));
        }
    }

    #[test]
    fn words_then_a_traceback_are_two_segments() {
        let t = "It died at step 40, here's the error:\nTraceback (most recent call last):\n  File \"train.py\", line 10, in <module>\n    trainer.train()\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.";
        let k = kinds(t);
        assert_eq!(k.len(), 2, "{k:?}");
        assert_eq!(k[0].0, Source::Prose);
        assert_eq!(
            k[1],
            (Source::Paste, "Traceback (most recent call last):".into())
        );
    }

    #[test]
    fn a_sentence_quoting_settings_then_a_traceback() {
        let t = "TRL SFTTrainer, LoRA r=16 on google/gemma-3-27b-it, bf16, per_device_train_batch_size=1, max_seq_length=4096. It loaded fine, ran 40 steps, then died in the backward pass:\nTraceback (most recent call last):\n  File \"train.py\", line 10, in <module>\ntorch.OutOfMemoryError: CUDA out of memory.";
        let k = kinds(t);
        assert_eq!(k.len(), 2, "{k:?}");
        assert_eq!(k[0].0, Source::Prose);
        let t = "axolotl run, lora_r=32 lora_alpha=16 on mistral 7b and micro_batch_size=2, sequence_len 4096, crashed after the eval with this:\nTraceback (most recent call last):\ntorch.OutOfMemoryError: CUDA out of memory.";
        assert_eq!(kinds(t)[0].0, Source::Prose, "{:?}", kinds(t));
        // A log's fields stay a paste, and so does logfmt with a message.
        assert_eq!(
            shape("step=10 loss=2.34 lr=0.0002 grad_norm=0.9 tokens=4096"),
            Shape::Data
        );
        assert_eq!(
            shape(
                "time=2025-05-19 level=INFO source=server.go msg=\"model loaded into memory after some seconds of waiting\""
            ),
            Shape::Data
        );
    }

    #[test]
    fn csv_rows_and_log_lines_in_one_paste_are_two_pastes() {
        let t = "here it is:\ntimestamp,gpu_temp_c,power_w,gpu_clock_mhz\n2025-11-24T09:01:00Z,58,95.7,2418\n2025-11-24T09:20:00Z,64,96.1,2418\n2025-11-24T09:40:00Z,69,96.3,2418\nNov 24 09:01:12   1%|          | 114/11250 [01:00<1:37:12,  1.91it/s]\nNov 24 10:00:09  11%|█         | 1227/11250 [10:46<1:27:35,  1.91it/s]";
        let k = kinds(t);
        assert_eq!(k.len(), 3, "{k:?}");
        assert_eq!(
            k[1],
            (
                Source::Paste,
                "timestamp,gpu_temp_c,power_w,gpu_clock_mhz".into()
            )
        );
        assert!(k[2].1.starts_with("Nov 24 09:01:12"), "{k:?}");
        // A CSV alone, or with one stray line, stays whole.
        let csv = "timestamp, temperature.gpu, power.draw [W]\n2025/11/24 09:01:00.000, 58, 95.70 W\n2025/11/24 09:01:30.000, 59, 95.90 W\n2025/11/24 09:02:00.000, 60, 96.00 W";
        assert_eq!(segments(csv).len(), 1);
        // Log lines with commas in their messages are not a CSV block.
        let log = "{'loss': 1.2, 'grad_norm': 0.3, 'learning_rate': 2e-05, 'epoch': 0.1}\n{'loss': 1.1, 'grad_norm': 0.3, 'learning_rate': 2e-05, 'epoch': 0.2}\n{'loss': 1.0, 'grad_norm': 0.3, 'learning_rate': 2e-05, 'epoch': 0.3}\n 10%|█ | 10/100 [00:10<01:30,  1.00it/s]\n 20%|██ | 20/100 [00:20<01:20,  1.00it/s]";
        assert_eq!(segments(log).len(), 1, "{:?}", kinds(log));
    }

    #[test]
    fn a_config_with_kernel_lines_under_it_is_two_pastes() {
        let t = "axolotl died while loading, config and dmesg below.\nbase_model: Qwen/Qwen2.5-32B-Instruct\n# a comment\nadapter: lora\nmicro_batch_size: 2\nsequence_len: 4096\n[Mon Nov 24 14:02:11 2025] python3 invoked oom-killer: gfp_mask=0x140dca, order=0, oom_score_adj=0\n[Mon Nov 24 14:02:11 2025] Out of memory: Killed process 51234 (python3) total-vm:189234112kB, anon-rss:98123456kB, file-rss:1023kB";
        let k = kinds(t);
        assert_eq!(k.len(), 3, "{k:?}");
        assert_eq!(k[1].1, "base_model: Qwen/Qwen2.5-32B-Instruct");
        assert!(k[2].1.starts_with("[Mon Nov 24"), "{k:?}");
        // A config alone stays whole.
        assert_eq!(
            segments("base_model: x\nadapter: lora\nmicro_batch_size: 2\nsequence_len: 4096").len(),
            1
        );
    }

    #[test]
    fn a_question_then_ps_lines() {
        let t = "What's using my memory?\nUSER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND\nroot        1234  0.0  0.1  12345  6789 ?        Ss   10:00   0:01 /usr/bin/ollama serve";
        let k = kinds(t);
        assert_eq!(k.len(), 2, "{k:?}");
        assert_eq!(k[0].0, Source::Prose);
        assert_eq!(k[1].0, Source::Paste);
    }

    #[test]
    fn a_traceback_keeps_its_own_sentences() {
        let t = "Traceback (most recent call last):\n  File \"a.py\", line 1, in <module>\nValueError: x\nDuring handling of the above exception, another exception occurred:\nTraceback (most recent call last):\n  File \"b.py\", line 2, in <module>\ntorch.OutOfMemoryError: CUDA out of memory.";
        assert_eq!(segments(t).len(), 1);
    }

    #[test]
    fn prompts_split_two_command_outputs() {
        let t = "$ free -g\n               total        used        free      shared  buff/cache   available\nMem:             119          12          90           0          17         106\n$ nvidia-smi\n+-----------------------------------------------------------------------------+\n| NVIDIA-SMI 580.95.05              Driver Version: 580.95.05      CUDA Version: 13.0     |";
        let k = kinds(t);
        assert_eq!(k.len(), 2, "{k:?}");
        let t2 = format!("here you go\n{t}");
        let k2 = kinds(&t2);
        assert_eq!(k2.len(), 3, "{k2:?}");
        assert_eq!(k2[1].1, "$ free -g");
        assert_eq!(k2[2].1, "$ nvidia-smi");
    }

    #[test]
    fn fenced_blocks_and_prose_between_them() {
        let t = "```bash\nvllm serve /model --gpu-memory-utilization 0.9\n```\nthe model is InternVL2-8B, after the server started my gpu memory usage is low:\n```\n| NVIDIA-SMI 535.104.05 |\n```";
        let k = kinds(t);
        assert_eq!(k.len(), 3, "{k:?}");
        assert_eq!(k[0].0, Source::Paste);
        assert_eq!(k[1].0, Source::Prose);
        assert_eq!(k[2].0, Source::Paste);
    }

    #[test]
    fn all_words_or_all_paste_is_one_segment() {
        assert_eq!(segments("qwen 7b lora\nbatch 4, packing 2048").len(), 1);
        assert_eq!(segments("Mem:  119  12  90\nSwap:  0  0  0").len(), 1);
    }

    #[test]
    fn carriers_are_unwrapped() {
        let journal = "May 19 08:08:41 box ollama[1995]: time=2025-05-19T08:08:41 level=INFO msg=a\nMay 19 08:08:42 box ollama[1995]: time=2025-05-19T08:08:42 level=INFO msg=b";
        assert!(unwrap_carrier(journal).starts_with("time=2025-05-19T08:08:41"));
        let compose = "ollama-1  | time=2025 level=INFO\nollama-1  | time=2026 level=INFO";
        assert!(unwrap_carrier(compose).starts_with("time=2025"));
        let rank = "[rank4]: Traceback (most recent call last):\n[rank4]:   File \"a.py\"";
        assert!(unwrap_carrier(rank).starts_with("Traceback"));
        let host = "worker-0: [2024-01-01] loss 2\nworker-0: [2024-01-01] loss 1";
        assert!(unwrap_carrier(host).starts_with("[2024"));
        // YAML keys differ line to line: not a carrier.
        let yaml = "model: qwen\nbatch: 2";
        assert_eq!(unwrap_carrier(yaml), yaml);
    }

    #[test]
    fn prompts_come_off_before_the_readers() {
        let t = "$ ps aux | grep -E 'vllm|ollama' | grep -v grep\ndev  2231 12.4  3.1 48211344 4012312 ?  Ssl  Nov23 182:41 vllm serve x";
        assert!(as_printed(t).starts_with("dev  2231"));
        let t = "dev@spark:~$ free -g\n   total used\nMem: 119 4\ndev@spark:~$ ";
        assert_eq!(as_printed(t), "   total used\nMem: 119 4");
        // A paste that is only a command stays what it is.
        assert_eq!(as_printed("$ nvidia-smi"), "$ nvidia-smi");
    }

    #[test]
    fn a_module_tree_is_laid_out_and_settings_are_not() {
        let tree = "Qwen2ForCausalLM(\n  (model): Qwen2Model(\n    (embed_tokens): Embedding(152064, 3584)\n    (layers): ModuleList(\n      (0-27): 28 x Qwen2DecoderLayer(";
        assert!(laid_out(tree));
        assert!(!laid_out("qwen 7b lora\nbatch 4, packing 2048\nbf16"));
        assert!(!laid_out("lora_r: 16\nlora_alpha: 32"));
        assert!(!laid_out(
            "Qwen2Config {\n  \"hidden_size\": 3584,\n  \"num_hidden_layers\": 28,\n  \"vocab_size\": 152064\n}"
        ));
    }

    #[test]
    fn printed_output_versus_typed_pairs() {
        assert!(printed(
            "time=2025-05-19T08:08:41 level=INFO\ntime=2025-05-19T08:08:42 level=INFO"
        ));
        assert!(!printed("lora_r: 16\nper_device_train_batch_size: 2"));
        assert!(!printed("INFO only one line"));
    }

    #[test]
    fn line_shapes() {
        assert_eq!(
            shape("[rank4]: torch.OutOfMemoryError: CUDA out of memory"),
            Shape::Data
        );
        assert_eq!(
            shape("time=2025-05-19T08:08:41 level=INFO msg=\"x\""),
            Shape::Data
        );
        assert_eq!(shape("load_in_4bit: true"), Shape::Data);
        assert_eq!(shape("MemTotal:       130522564 kB"), Shape::Data);
        assert_eq!(shape("{'loss': 1.23, 'epoch': 0.1}"), Shape::Data);
        assert_eq!(shape("so it crashed again, here's the log:"), Shape::Voiced);
        assert_eq!(shape("Killed"), Shape::Neutral);
        assert_eq!(shape("**nvidia-smi**"), Shape::Neutral);
        assert_eq!(shape("batch 4, qlora, packing 2048"), Shape::Words);
        // The owner's sentence quoting output is still theirs.
        assert_eq!(
            shape(
                "trying lora on qwen2.5 72b, bf16, batch 1. it gets killed at \"Loading checkpoint shards:  84%|####  | 31/37\", dmesg says:"
            ),
            Shape::Voiced
        );
        assert_eq!(
            shape("my run started at 09:02 on 2026-11-28 and slowed down after an hour"),
            Shape::Voiced
        );
        // Output that addresses the reader is still output.
        assert_eq!(
            shape(
                "WARNING: You are using a model of type llama to instantiate a model of type qwen2."
            ),
            Shape::Data
        );
    }
}

#[cfg(test)]
mod ps_rows {
    use super::{Source, segments};

    #[test]
    fn a_ps_row_under_the_owner_words_is_a_paste_whatever_its_spacing() {
        for row in [
            "raymond  4108793  6.2  1.9 48211532 2489120 pts/2 Sl+  Mar13  41:07 /usr/bin/python3 -m vllm serve x --gpu-memory-utilization 0.8",
            "lab 48211 2.7 2.1 55200112 2611520 pts/1 Sl 10:02 3:12 python3 -m vllm.entrypoints.openai.api_server --model m",
        ] {
            let text = format!(
                "I want to LoRA llama 3.1 8b while vllm serves. this is what runs:\n{row}\ndoes my run fit next to it?"
            );
            let segs = segments(&text);
            assert_eq!(segs.len(), 3, "{segs:?}");
            assert_eq!(segs[0].source, Source::Prose);
            assert_eq!(segs[1].source, Source::Paste);
            assert_eq!(segs[2].source, Source::Prose);
        }
    }
}

#[cfg(test)]
mod stacked_tests {
    use super::*;

    #[test]
    fn listings_stacked_without_a_blank_line_are_read_apart() {
        let text = "NAME               ID              SIZE     PROCESSOR    CONTEXT    UNTIL
gpt-oss:120b       735371f916a9    65 GB    100% GPU     32768      Forever
               total        used        free      shared  buff/cache   available
Mem:           119Gi        75Gi       9.6Gi       152Mi        35Gi        43Gi
Swap:           15Gi       1.1Gi        14Gi";
        let segs = segments(text);
        assert_eq!(segs.len(), 2, "{segs:?}");
        assert!(segs[0].text.starts_with("NAME"));
        assert!(segs[1].text.trim_start().starts_with("total"));
        // A command typed above a listing stays with it.
        let typed = "ollama ps\nNAME               ID              SIZE     PROCESSOR    CONTEXT    UNTIL\ngpt-oss:120b       735371f916a9    65 GB    100% GPU     32768      Forever\nfree -h\n               total        used        free      shared  buff/cache   available\nMem:           119Gi        75Gi       9.6Gi       152Mi        35Gi        43Gi";
        let segs = segments(typed);
        let last = segs.last().expect("segments");
        assert!(last.text.starts_with("free -h\n"), "{segs:?}");
        assert!(segs[segs.len() - 2].text.starts_with("NAME"), "{segs:?}");
    }
}
