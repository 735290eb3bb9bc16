//! knowledge/questions.md: the answers to plain domain questions, each with
//! the keywords that select it and its source.

use crate::knowledge::table::parse_tables_with_markup;

const QUESTIONS_MD: &str = include_str!("../../knowledge/questions.md");

#[derive(Debug, Clone, PartialEq)]
pub struct DomainAnswer {
    pub topic: String,
    pub keywords: Vec<String>,
    /// Markdown prose, shown as written.
    pub answer: String,
    pub source: String,
    /// 1-based row in knowledge/questions.md, for citing.
    pub row: usize,
}

pub fn parse_answers() -> Result<Vec<DomainAnswer>, String> {
    let table = parse_tables_with_markup(QUESTIONS_MD)
        .into_iter()
        .next()
        .ok_or("knowledge/questions.md has no table")?;
    table
        .rows()
        .map(|row| {
            let keywords: Vec<String> = row
                .get("keywords")
                .split(',')
                .map(|w| w.trim().to_ascii_lowercase())
                .filter(|w| !w.is_empty())
                .collect();
            if keywords.is_empty() || row.get("answer").is_empty() {
                return Err(format!(
                    "knowledge/questions.md row {} needs keywords and an answer",
                    row.number()
                ));
            }
            Ok(DomainAnswer {
                topic: row.get("topic").to_string(),
                keywords,
                answer: row.get("answer").to_string(),
                source: row.get("source").to_string(),
                row: row.number(),
            })
        })
        .collect()
}
