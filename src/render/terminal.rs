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

pub fn render(markdown: &str, style: Style) -> String {
    let clean = sanitize(markdown);
    match style {
        Style::Plain => asciify_chart(&clean),
        Style::Rich => {
            let width = termimad::terminal_size().0.clamp(40, 120) as usize;
            let skin = termimad::MadSkin::default();
            skin.text(&clean, Some(width)).to_string()
        }
    }
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
        assert_eq!(render("**fits**", Style::Plain), "**fits**");
    }
}
