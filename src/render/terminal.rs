//! Printing a reply: termimad styling on a colour terminal, the markdown
//! itself as plain text everywhere else.
//!
//! Replies quote the owner's words and pasted output, so control characters
//! are escaped before anything reaches the terminal.

use std::io::IsTerminal;

/// How replies are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// termimad with colour.
    Rich,
    /// Plain text: piped output, NO_COLOR, or TERM=dumb.
    Plain,
}

impl Style {
    /// The no-color.org rule plus a TTY check (as fd does it).
    pub fn detect() -> Style {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        let dumb = std::env::var("TERM").is_ok_and(|t| t == "dumb");
        if !no_color && !dumb && std::io::stdout().is_terminal() {
            Style::Rich
        } else {
            Style::Plain
        }
    }
}

/// Escape C0/C1 control characters (except newline and tab) and bidi
/// overrides so pasted text cannot move the cursor or recolour the screen.
pub fn sanitize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        let cp = c as u32;
        let control = (cp < 0x20 && c != '\n' && c != '\t')
            || (0x7f..=0x9f).contains(&cp)
            || (0x202a..=0x202e).contains(&cp)
            || (0x2066..=0x2069).contains(&cp);
        if control {
            out.push_str(&format!("\\u{{{cp:x}}}"));
        } else {
            out.push(c);
        }
    }
    out
}

/// Chart glyphs as plain ASCII, for output that is not a terminal.
pub fn asciify_chart(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '▁' => '.',
            '▂' => ',',
            '▃' => ':',
            '▄' => '-',
            '▅' => '=',
            '▆' => '+',
            '▇' => '*',
            '█' => '#',
            '│' => '|',
            '▔' => '~',
            '▲' => '^',
            other => other,
        })
        .collect()
}

/// `$COLUMNS` when the owner (or a test) set it to a number.
fn columns_env() -> Option<usize> {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<usize>().ok())
        .filter(|c| *c > 0)
}

/// The width replies are laid out for: `$COLUMNS`, else the terminal's;
/// plain output to a pipe or file without `$COLUMNS` keeps its lines whole.
pub fn width(style: Style) -> Option<usize> {
    columns_env().or_else(|| {
        let tty = std::io::stdout().is_terminal();
        // A terminal that reports no size (0 columns) gets 80.
        (style == Style::Rich || tty).then(|| match termimad::terminal_size().0 {
            0 => 80,
            w => (w as usize).max(40),
        })
    })
}

/// A reply as the terminal shows it at `width` columns (`None`: as it is).
pub fn render_at(markdown: &str, style: Style, width: Option<usize>) -> String {
    let clean = sanitize(markdown);
    let laid = match width {
        Some(w) => crate::render::layout::wrap_markdown(&clean, w),
        None => clean,
    };
    match style {
        Style::Plain => asciify_chart(&laid),
        Style::Rich => {
            let w = width.unwrap_or(80).clamp(40, 200);
            let skin = termimad::MadSkin::default();
            skin.text(&laid, Some(w)).to_string()
        }
    }
}

pub fn render(markdown: &str, style: Style) -> String {
    render_at(markdown, style, width(style))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_terminal_control_sequences() {
        assert_eq!(sanitize("a\x1b[2Jb\nc\td"), "a\\u{1b}[2Jb\nc\td");
        assert_eq!(sanitize("x\u{202e}y"), "x\\u{202e}y");
    }

    #[test]
    fn plain_style_keeps_the_markdown() {
        assert_eq!(render_at("**fits**", Style::Plain, None), "**fits**");
    }

    #[test]
    fn rich_style_keeps_a_wrapped_item_indented() {
        let md = "- weights: **15.24 GB** = 7,615,487,488 params × 2 B (bf16) = 15.24 GB [knowledge/dtypes.md row 2] and more words to wrap";
        let out = render_at(md, Style::Rich, Some(40));
        let plain: Vec<String> = out
            .lines()
            .map(|l| {
                let mut s = String::new();
                let mut esc = false;
                for c in l.chars() {
                    match (esc, c) {
                        (false, '\u{1b}') => esc = true,
                        (true, 'm') => esc = false,
                        (true, _) => {}
                        (false, c) => s.push(c),
                    }
                }
                s
            })
            .collect();
        eprintln!("{}", plain.join("\n"));
        assert!(plain.len() > 2, "{plain:?}");
        for l in &plain[1..] {
            assert!(l.starts_with("  "), "{plain:?}");
        }
    }
}
