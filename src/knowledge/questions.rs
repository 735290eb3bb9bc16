//! knowledge/questions.md: the answers to plain domain questions, each with
//! the keywords that select it and its source.
//!
//! A keyword is a phrase found anywhere in the question, or a concept:
//! word groups joined by `+`, alternatives by `/`, a trailing `*` for a
//! word's prefix ("power/watt*+stuck/never/brick"). A concept selects
//! when one sentence holds a word of every group, in any order, so "is my
//! power brick broken" and "the power never goes above 95W" need no
//! phrase of their own. A word `@topic` stands for the subject of the last
//! answer: "is it harmful or just useless?" right after the flush answer
//! is about the flush.

use crate::knowledge::table::parse_tables_with_markup;

const QUESTIONS_MD: &str = include_str!("../../knowledge/questions.md");

#[derive(Debug, Clone, PartialEq)]
pub struct DomainAnswer {
    pub topic: String,
    pub keywords: Vec<Keyword>,
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
            let keywords: Vec<Keyword> = row
                .get("keywords")
                .split(',')
                .map(|w| w.trim().to_ascii_lowercase())
                .filter(|w| !w.is_empty())
                .map(|w| Keyword::parse(&w))
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

/// One selector of a row: a phrase, or a concept of word groups.
#[derive(Debug, Clone, PartialEq)]
pub enum Keyword {
    Phrase(String),
    /// Every group needs one of its words in the same sentence.
    Concept(Vec<Vec<Word>>),
}

/// A word of a concept: whole, or a prefix (`temp*`).
#[derive(Debug, Clone, PartialEq)]
pub struct Word {
    text: String,
    prefix: bool,
}

impl Keyword {
    fn parse(w: &str) -> Keyword {
        if !w.contains('+') {
            return Keyword::Phrase(w.to_string());
        }
        let groups = w
            .split('+')
            .map(|g| {
                g.split('/')
                    .map(str::trim)
                    .filter(|a| !a.is_empty())
                    .map(|a| Word {
                        prefix: a.ends_with('*'),
                        text: a.trim_end_matches('*').to_string(),
                    })
                    .collect()
            })
            .collect();
        Keyword::Concept(groups)
    }

    /// Does the lower-cased question hold this keyword, `last` being the
    /// topic of the answer before it?
    pub fn found_in(&self, lower: &str, last: &[String]) -> bool {
        match self {
            Keyword::Phrase(p) => lower.contains(p.as_str()),
            Keyword::Concept(groups) => lower.split(['.', '?', '!', ';', '\n']).any(|sentence| {
                let words = words_of(sentence);
                groups.iter().all(|group| {
                    group.iter().any(|a| {
                        a.text.strip_prefix('@').map_or_else(
                            || {
                                words.iter().any(|w| {
                                    w == &a.text || a.prefix && w.starts_with(a.text.as_str())
                                })
                            },
                            |topic| last.iter().any(|l| l.starts_with(topic)),
                        )
                    })
                })
            }),
        }
    }
}

/// A sentence's words, a figure split from its unit ("95w" is "95", "w").
fn words_of(sentence: &str) -> Vec<String> {
    let mut out = Vec::new();
    for token in sentence.split(|c: char| !(c.is_alphanumeric() || c == '\'')) {
        let mut current = String::new();
        let mut digits = None;
        for c in token.chars() {
            let is_digit = c.is_ascii_digit();
            if digits.is_some_and(|d| d != is_digit) && !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
            digits = Some(is_digit);
            current.push(c);
        }
        if !current.is_empty() {
            out.push(current);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Keyword {
        fn found_in_now(&self, lower: &str) -> bool {
            self.found_in(lower, &[])
        }
    }

    #[test]
    fn a_topic_word_is_the_last_answer_subject() {
        let k = Keyword::parse("@flush/drop+harmful/useless");
        assert!(k.found_in("is it harmful or just useless?", &["flush".into()]));
        assert!(!k.found_in("is it harmful or just useless?", &["moe".into()]));
        assert!(k.found_in("would a drop be harmful?", &[]));
    }

    #[test]
    fn a_concept_needs_every_group_in_one_sentence() {
        let k = Keyword::parse("power/watt*/w+stuck/never/brick");
        assert!(k.found_in_now("the power never goes above 95w"));
        assert!(k.found_in_now("is my power brick broken??"));
        assert!(k.found_in_now("it sits at 95w and never moves"));
        assert!(!k.found_in_now("power it down. it never crashed"));
        assert!(!k.found_in_now("the wattage is fine"));
        let t = Keyword::parse("temp*+how");
        assert!(t.found_in_now("how do i get temperatures"));
        assert!(!t.found_in_now("how do i get the clock"));
    }

    #[test]
    fn a_phrase_is_found_anywhere() {
        assert!(Keyword::parse("drop caches").found_in_now("can i drop caches now"));
        assert!(!Keyword::parse("drop caches").found_in_now("drop the caches"));
    }
}
