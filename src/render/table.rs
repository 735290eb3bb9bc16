//! A markdown pipe table with its columns padded, so it reads as a table in
//! plain text too (termimad draws the same lines as a table on a terminal).

/// How a column's cells line up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    Left,
    Right,
}

/// `header` and every row must have one cell per entry of `align`.
pub fn pipe_table(header: &[&str], align: &[Align], rows: &[Vec<String>]) -> String {
    let width = |s: &str| s.chars().count();
    let mut widths: Vec<usize> = header.iter().map(|h| width(h).max(3)).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(width(cell));
        }
    }
    let line = |cells: Vec<String>| format!("| {} |", cells.join(" | "));
    let pad = |cell: &str, w: usize, a: Align| {
        let fill = " ".repeat(w.saturating_sub(width(cell)));
        match a {
            Align::Left => format!("{cell}{fill}"),
            Align::Right => format!("{fill}{cell}"),
        }
    };
    let mut out = vec![line(
        header
            .iter()
            .zip(&widths)
            .zip(align)
            .map(|((h, w), a)| pad(h, *w, *a))
            .collect(),
    )];
    out.push(line(
        widths
            .iter()
            .zip(align)
            .map(|(w, a)| match a {
                Align::Left => "-".repeat(*w),
                Align::Right => format!("{}:", "-".repeat(w - 1)),
            })
            .collect(),
    ));
    for row in rows {
        out.push(line(
            row.iter()
                .zip(&widths)
                .zip(align)
                .map(|((c, w), a)| pad(c, *w, *a))
                .collect(),
        ));
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_padded_and_numbers_right_aligned() {
        let t = pipe_table(
            &["term", "GB"],
            &[Align::Left, Align::Right],
            &[
                vec!["weights".into(), "15.24".into()],
                vec!["loss logits".into(), "4.2".into()],
            ],
        );
        assert_eq!(
            t,
            "| term        |    GB |\n| ----------- | ----: |\n| weights     | 15.24 |\n| loss logits |   4.2 |"
        );
    }
}
