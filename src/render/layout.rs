//! Markdown laid out for a terminal of a given width: paragraphs and list
//! items wrapped at spaces, a wrapped item's lines indented under its text,
//! tables and code left as they are (a command must stay copyable).

use regex::Regex;
use std::sync::LazyLock;

/// No-break space: holds an inline code span or a bold span together.
const GLUE: char = '\u{a0}';

static LIST_ITEM: LazyLock<Regex> =
    LazyLock::new(|| crate::extract::re(r"^(\s*(?:[-*+]|\d+[.)])\s+)"));
static LEADING: LazyLock<Regex> = LazyLock::new(|| crate::extract::re(r"^(\s*)"));

/// Every line of `md` at most `width` columns where a space allows it.
pub fn wrap_markdown(md: &str, width: usize) -> String {
    let width = width.max(20);
    let mut out: Vec<String> = Vec::new();
    let mut in_code = false;
    for line in md.split('\n') {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") {
            in_code = !in_code;
            out.push(line.to_string());
            continue;
        }
        if in_code || trimmed.starts_with('|') || line.chars().count() <= width {
            out.push(line.to_string());
            continue;
        }
        let head = LIST_ITEM
            .captures(line)
            .or_else(|| LEADING.captures(line))
            .map_or("", |c| c.get(1).map_or("", |m| m.as_str()));
        let hang = " ".repeat(head.chars().count());
        let body = glue_spans(&line[head.len()..]);
        let options = textwrap::Options::new(width)
            .initial_indent(head)
            .subsequent_indent(&hang)
            .break_words(false)
            .word_splitter(textwrap::WordSplitter::NoHyphenation)
            .word_separator(textwrap::WordSeparator::AsciiSpace);
        for wrapped in textwrap::wrap(&body, options) {
            out.push(wrapped.replace(GLUE, " "));
        }
    }
    out.join("\n")
}

/// Units that stay on the line of their number ("50.4 %", "60.17 GB").
const UNITS: &[&str] = &["%", "GB", "GiB", "MB", "MiB", "W", "°C", "s/step", "min"];

/// Spaces inside `code` and **bold**, and between a number and its unit,
/// become no-break spaces, so none is split across lines (termimad styles
/// each line on its own, and a figure reads as one).
fn glue_spans(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_code = false;
    let mut in_bold = false;
    let mut prev = ' ';
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let after = &rest[c.len_utf8()..];
        match c {
            '`' => in_code = !in_code,
            '*' if !in_code && after.starts_with('*') => {
                in_bold = !in_bold;
                out.push_str("**");
                prev = '*';
                rest = &after[1..];
                continue;
            }
            ' ' if in_code || in_bold || (prev.is_ascii_digit() && unit_follows(after)) => {
                out.push(GLUE);
                prev = GLUE;
                rest = after;
                continue;
            }
            _ => {}
        }
        out.push(c);
        prev = c;
        rest = after;
    }
    out
}

fn unit_follows(after: &str) -> bool {
    UNITS.iter().any(|u| {
        after
            .strip_prefix(u)
            .is_some_and(|tail| !tail.starts_with(|c: char| c.is_alphanumeric()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wrapped_list_item_keeps_its_indent() {
        let md = "- weights: **15.24 GB** = 7,615,487,488 params × 2 B (bf16) = 15.24 GB [knowledge/dtypes.md row 2]";
        let out = wrap_markdown(md, 40);
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines.len() > 1, "{out}");
        assert!(lines[0].starts_with("- weights:"));
        for l in &lines[1..] {
            assert!(l.starts_with("  ") && !l.starts_with("   "), "{out}");
        }
        assert!(lines.iter().all(|l| l.chars().count() <= 40), "{out}");
    }

    #[test]
    fn code_tables_and_spans_stay_whole() {
        let md = "Run `sudo sh -c 'sync; echo 3 > /proc/sys/vm/drop_caches'` with your approval, then paste it.\n\n| a | b |\n|---|---|\n| a long cell that is wider than the width | x |\n\n```\na command line that is much longer than the width and must stay one line\n```";
        let out = wrap_markdown(md, 30);
        assert!(out.contains("`sudo sh -c 'sync; echo 3 > /proc/sys/vm/drop_caches'`"));
        assert!(out.contains("| a long cell that is wider than the width | x |"));
        assert!(
            out.contains(
                "a command line that is much longer than the width and must stay one line"
            )
        );
    }

    #[test]
    fn a_figure_keeps_its_unit() {
        let out = wrap_markdown("peak 60.17 GB of the 119.48 GB budget (50.4 %), margin", 24);
        assert!(out.contains("50.4 %"), "{out}");
        assert!(
            out.contains("60.17 GB") && out.contains("119.48 GB"),
            "{out}"
        );
    }

    #[test]
    fn numbered_items_hang_under_their_text() {
        let out = wrap_markdown(
            "12. flush the page cache first and then shorten the packing",
            24,
        );
        assert!(out.lines().skip(1).all(|l| l.starts_with("    ")), "{out}");
    }
}
