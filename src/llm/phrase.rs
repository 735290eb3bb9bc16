//! Phrasing a finished Reply with the owner's model: stream the answer into
//! a buffer (a spinner and a token count show progress), check it with the
//! guard, and show it only if it passes. Any failure falls back to the
//! deterministic text with one line saying why.
//!
//! Tokens are not printed as they arrive: text the guard has not checked
//! could carry a changed figure, and the owner would have seen it.

use crate::llm::client::{LlmError, Request, Timeouts, chat, ollama_models};
use crate::llm::endpoint::{Endpoint, Protocol};
use crate::llm::guard::check;
use crate::llm::prompt::messages;
use crate::llm::secrets;
use crate::render::reply::Shown;
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
    models
        .into_iter()
        .next()
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
    let spinner = ['|', '/', '-', '\\'];
    let _ = write!(progress, "| asking {model} …");
    let _ = progress.flush();
    let result = {
        let mut pieces = 0usize;
        let mut on_text = |_: &str| {
            pieces += 1;
            let _ = write!(
                progress,
                "\r{} phrasing with {model} … {pieces} pieces",
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
                messages: messages(&reply.markdown, owner_turn),
                stream,
                timeouts: Timeouts::from_env(),
                // About four characters a token, with half again for slack.
                max_tokens: (reply.markdown.len() as u32 * 3 / 8).clamp(128, 2048),
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
        Ok(text) => match check(&clean(&text), reply) {
            Ok(()) => Phrased {
                text: clean(&text),
                model: Some(model),
                fallback: None,
                rejected: None,
            },
            Err(why) => Phrased {
                rejected: Some(clean(&text)),
                ..fallback(format!("{model}'s phrasing was not used: {why}"))
            },
        },
    }
}
