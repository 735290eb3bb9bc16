//! Phrasing a finished Reply with the owner's model: its prose paragraphs go
//! out as templates (figures, verdicts, decisions lifted out), the answer
//! streams into a buffer (a spinner and a count show progress), the guard
//! checks each passage, and headroom fills the placeholders and renders
//! everything else itself. Any failure falls back to the deterministic text
//! with one line saying why.
//!
//! Tokens are not printed as they arrive: text the guard has not checked
//! is never shown.

use crate::llm::client::{LlmError, Request, Timeouts, chat, ollama_models};
use crate::llm::endpoint::{Endpoint, Protocol};
use crate::llm::guard::check;
use crate::llm::prompt::messages;
use crate::llm::secrets;
use crate::llm::template::{Template, fill, template};
use crate::render::reply::{Part, Shown, joined};
use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// What the owner sees, and the record for the transcript.
#[derive(Debug, Clone, PartialEq)]
pub struct Phrased {
    /// The text to show: the model's phrasing, or the deterministic text.
    pub text: String,
    /// The model whose phrasing is shown, if it passed.
    pub model: Option<String>,
    /// Why the deterministic text is shown instead, in one line.
    pub fallback: Option<String>,
    /// The model's raw phrasing when the guard rejected it (kept for the
    /// transcript, never shown).
    pub rejected: Option<String>,
}

/// The model to use: the one named, or for Ollama the first installed one.
pub fn model_for(endpoint: &Endpoint) -> Result<String, LlmError> {
    if let Some(m) = &endpoint.model {
        return Ok(m.clone());
    }
    let rt = runtime()?;
    let models = rt.block_on(ollama_models(endpoint, Timeouts::from_env()))?;
    // A name from the network reaches the terminal (the progress line), so
    // its control characters are escaped first.
    models
        .into_iter()
        .next()
        .map(|m| crate::render::terminal::sanitize(&m))
        .ok_or_else(|| LlmError::Other("Ollama has no models installed (ollama pull MODEL)".into()))
}

fn runtime() -> Result<tokio::runtime::Runtime, LlmError> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| LlmError::Other(e.to_string()))
}

/// Phrase `reply`. `progress` gets a short status line to draw (spinner,
/// token count) while the model works; pass a sink for piped output.
pub fn phrase(
    endpoint: &Endpoint,
    reply: &Shown,
    owner_turn: &str,
    cancel: Arc<AtomicBool>,
    progress: &mut dyn Write,
) -> Phrased {
    let fallback = |why: String| Phrased {
        text: reply.markdown.clone(),
        model: None,
        fallback: Some(why),
        rejected: None,
    };
    // Only prose with words of its own to smooth is worth a request.
    let (templates, at) = templates(&reply.parts);
    if templates.is_empty() {
        return Phrased {
            text: reply.markdown.clone(),
            model: None,
            fallback: None,
            rejected: None,
        };
    }
    let model = match model_for(endpoint) {
        Ok(m) => m,
        Err(e) => return fallback(e.to_string()),
    };
    let rt = match runtime() {
        Ok(rt) => rt,
        Err(e) => return fallback(e.to_string()),
    };
    let key = if endpoint.protocol == Protocol::OpenAi {
        secrets::get()
    } else {
        None
    };
    if key.is_some() && endpoint.in_clear_off_box() && !endpoint.allow_http {
        return fallback(format!(
            "your API key would cross the network in clear to {} (plain http, not this machine); use https://, or start headroom with --allow-http if that network is yours",
            crate::llm::redact::url_credentials(&endpoint.base_url)
        ));
    }
    let spinner = ['|', '/', '-', '\\'];
    let _ = write!(progress, "| asking {model} … (Ctrl-C skips)");
    let _ = progress.flush();
    let result = {
        let mut pieces = 0usize;
        let mut on_text = |_: &str| {
            pieces += 1;
            let _ = write!(
                progress,
                "\r{} phrasing with {model} … {pieces} pieces (Ctrl-C skips)",
                spinner[pieces % 4]
            );
            let _ = progress.flush();
        };
        // HEADROOM_LLM_STREAM=0 asks for one whole answer instead of a stream.
        let stream = std::env::var("HEADROOM_LLM_STREAM").map_or(true, |v| v != "0");
        rt.block_on(chat(
            endpoint,
            Request {
                model: &model,
                api_key: key.as_deref(),
                messages: messages(
                    &templates.iter().map(|t| t.text.clone()).collect::<Vec<_>>(),
                    owner_turn,
                ),
                stream,
                timeouts: Timeouts::from_env(),
                // About four characters a token, with half again for slack.
                max_tokens: (templates.iter().map(|t| t.text.len()).sum::<usize>() as u32 * 3 / 8)
                    .clamp(128, 2048),
            },
            cancel,
            &mut on_text,
        ))
    };
    let _ = write!(progress, "\r\x1b[2K");
    let _ = progress.flush();
    // Nothing a server sends back (an error echoing the key, a phrasing
    // quoting it, a URL with credentials) is shown or stored unredacted.
    let clean = |t: &str| crate::llm::redact::secrets(t, key.as_deref());
    match result {
        Err(e) => fallback(clean(&e.to_string())),
        Ok(text) => {
            let text = clean(&text);
            match assemble(&text, &templates, &at, &reply.parts) {
                Ok(shown) => Phrased {
                    text: shown,
                    model: Some(model),
                    fallback: None,
                    rejected: None,
                },
                Err(why) => Phrased {
                    rejected: Some(text),
                    ..fallback(format!("{model}'s phrasing was not used: {why}"))
                },
            }
        }
    }
}

/// A template for each phrasable part with words of its own, and the index
/// of the part each stands for. Placeholders are numbered across the reply.
fn templates(parts: &[Part]) -> (Vec<Template>, Vec<usize>) {
    let mut out = Vec::new();
    let mut at = Vec::new();
    let mut next = 1;
    for (i, part) in parts.iter().enumerate() {
        if !part.phrasable {
            continue;
        }
        let t = template(&part.markdown, next);
        if t.own_words() < 4 {
            continue;
        }
        next += t.slots.len();
        out.push(t);
        at.push(i);
    }
    (out, at)
}

/// The model's numbered passages, each checked and filled, put back among
/// the parts headroom renders itself.
fn assemble(
    answer: &str,
    templates: &[Template],
    at: &[usize],
    parts: &[Part],
) -> Result<String, String> {
    let filled = checked_passages(answer, templates)?;
    let mut parts = parts.to_vec();
    for (k, text) in filled.into_iter().enumerate() {
        parts[at[k]].markdown = text;
    }
    Ok(joined(&parts))
}

/// Split the model's answer into its numbered passages, check each against
/// its template, and fill it: every passage or none.
pub fn checked_passages(answer: &str, templates: &[Template]) -> Result<Vec<String>, String> {
    let marks: Vec<(usize, usize, usize)> = crate::llm::template::PASSAGE
        .captures_iter(answer)
        .map(|c| {
            let m = c.get(0).expect("whole match");
            (c[1].parse().unwrap_or(0), m.start(), m.end())
        })
        .collect();
    // The whole answer has the same byte budget its passages have: blank
    // lines between them are trimmed from each but still arrive.
    let budget: usize = templates.iter().map(|t| t.text.len() * 3 + 240).sum();
    if answer.len() > budget {
        return Err("the model's phrasing was far longer than the answer".into());
    }
    // "Sure! Here is the reworded text:" before the first passage is words
    // no passage holds, so no check would ever read them.
    if marks
        .first()
        .is_some_and(|m| !answer[..m.1].trim().is_empty())
    {
        return Err("the model wrote text outside the passages".into());
    }
    let numbers: Vec<usize> = marks.iter().map(|m| m.0).collect();
    if numbers != (1..=templates.len()).collect::<Vec<_>>() {
        return Err(format!(
            "it returned passages {numbers:?}, not 1 to {}",
            templates.len()
        ));
    }
    templates
        .iter()
        .enumerate()
        .map(|(k, t)| {
            let end = marks.get(k + 1).map_or(answer.len(), |m| m.1);
            let text = answer[marks[k].2..end].trim();
            check(text, t).map_err(|why| format!("passage {}: {why}", k + 1))?;
            Ok(fill(text, t))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::checked_passages;
    use crate::llm::template::template;

    #[test]
    fn words_before_the_first_passage_are_refused() {
        let t = vec![template("Noted: batch 2, pack 1024.", 1)];
        let answer = format!("[1] {}", t[0].text);
        assert!(checked_passages(&answer, &t).is_ok());
        for preamble in ["Sure! Here is the reworded text:\n\n", "Run it now.\n"] {
            let err = checked_passages(&format!("{preamble}{answer}"), &t).unwrap_err();
            assert!(err.contains("outside the passages"), "{err}");
        }
        // Blank lines before it are not words.
        assert!(checked_passages(&format!("\n\n{answer}"), &t).is_ok());
    }
}
