//! Reads the markdown tables in `knowledge/*.md` into rows of named cells.
//!
//! Facts live as markdown so a person can read and review them with their
//! sources; pulldown-cmark does the parsing so escaped pipes and code spans
//! behave exactly as they render.

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use std::collections::HashMap;

/// One parsed table: its header names and its rows, each cell trimmed.
#[derive(Debug, Clone)]
pub struct Table {
    pub headers: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

/// A row addressed by column name.
#[derive(Debug, Clone)]
pub struct Row<'a> {
    table: &'a Table,
    cells: &'a [String],
    index: usize,
}

impl Table {
    /// Rows as name-addressed views.
    pub fn rows(&self) -> impl Iterator<Item = Row<'_>> {
        self.rows.iter().enumerate().map(|(index, cells)| Row {
            table: self,
            cells,
            index,
        })
    }

    fn column(&self, name: &str) -> Option<usize> {
        self.headers.iter().position(|h| h == name)
    }
}

impl Row<'_> {
    /// The cell under `name`, or an empty string when the column is absent.
    pub fn get(&self, name: &str) -> &str {
        self.table
            .column(name)
            .and_then(|i| self.cells.get(i))
            .map(String::as_str)
            .unwrap_or("")
    }

    /// 1-based row number within its table, for citing ("row 3").
    pub fn number(&self) -> usize {
        self.index + 1
    }

    /// The cells as a map, for error messages and debugging.
    pub fn to_map(&self) -> HashMap<String, String> {
        self.table
            .headers
            .iter()
            .cloned()
            .zip(self.cells.iter().cloned())
            .collect()
    }
}

/// Every table in a markdown document, in order; cells as plain text.
pub fn parse_tables(markdown: &str) -> Vec<Table> {
    tables(markdown, false)
}

/// The same, keeping code spans and emphasis as markdown (for prose cells
/// that are shown to the owner as they are written).
pub fn parse_tables_with_markup(markdown: &str) -> Vec<Table> {
    tables(markdown, true)
}

fn tables(markdown: &str, markup: bool) -> Vec<Table> {
    let mut tables = Vec::new();
    let mut current: Option<Table> = None;
    let mut row: Vec<String> = Vec::new();
    let mut cell = String::new();
    let mut in_head = false;
    for event in Parser::new_ext(markdown, Options::ENABLE_TABLES) {
        match event {
            Event::Start(Tag::Table(_)) => {
                current = Some(Table {
                    headers: Vec::new(),
                    rows: Vec::new(),
                })
            }
            Event::Start(Tag::TableHead) => {
                in_head = true;
                row.clear();
            }
            Event::Start(Tag::TableRow) => row.clear(),
            Event::Start(Tag::TableCell) => cell.clear(),
            Event::Code(t) if markup => {
                cell.push('`');
                cell.push_str(&t);
                cell.push('`');
            }
            Event::Start(Tag::Strong) | Event::End(TagEnd::Strong) if markup => cell.push_str("**"),
            Event::Text(t) | Event::Code(t) => cell.push_str(&t),
            Event::End(TagEnd::TableCell) => row.push(cell.trim().to_string()),
            Event::End(TagEnd::TableHead) => {
                in_head = false;
                if let Some(t) = current.as_mut() {
                    t.headers = std::mem::take(&mut row);
                }
            }
            Event::End(TagEnd::TableRow) if !in_head => {
                if let Some(t) = current.as_mut() {
                    t.rows.push(std::mem::take(&mut row));
                }
            }
            Event::End(TagEnd::Table) => tables.extend(current.take()),
            _ => {}
        }
    }
    tables
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_headers_rows_and_escaped_pipes_in_code() {
        let md = "| id | command |\n|---|---|\n| procs | `ps aux \\| grep x` |\n";
        let tables = parse_tables(md);
        assert_eq!(tables.len(), 1);
        let row = tables[0].rows().next().unwrap();
        assert_eq!(row.get("id"), "procs");
        assert_eq!(row.get("command"), "ps aux | grep x");
        assert_eq!(row.get("missing"), "");
    }
}
