//! HTTP to the owner's model server: Ollama's `/api/chat` or an
//! OpenAI-compatible `/v1/chat/completions`, streaming or not, with a
//! connect timeout, a per-read stall timeout, one overall deadline per
//! phrasing, a cap on the answer's size, and cancellation between chunks.

use crate::llm::endpoint::{Endpoint, Protocol};
use crate::llm::stream::{Lines, Piece, ndjson, sse, whole};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LlmError {
    #[error("the model server at {0} is not reachable (is it running?)")]
    Unreachable(String),
    #[error("the model server did not answer within {0} s")]
    Timeout(u64),
    #[error(
        "the model took longer than the {0} s deadline for one phrasing (HEADROOM_LLM_DEADLINE_S sets it)"
    )]
    Deadline(u64),
    #[error("the model sent no text within {0} s (HEADROOM_LLM_FIRST_TEXT_S sets it)")]
    NoText(u64),
    #[error("the model stopped sending text for {0} s (HEADROOM_LLM_STALL_S sets it)")]
    Stalled(u64),
    #[error("the model's answer grew past {0} bytes, longer than any phrasing of this reply")]
    TooLong(usize),
    #[error("the model server answered HTTP {0}: {1}")]
    Status(u16, String),
    #[error("the model server's answer was garbled: {0}")]
    Garbled(String),
    #[error("phrasing was skipped with Ctrl-C")]
    Cancelled,
    #[error("{0}")]
    Other(String),
}

/// Timeouts, from the environment so tests can shorten them.
#[derive(Debug, Clone, Copy)]
pub struct Timeouts {
    pub connect: Duration,
    pub read: Duration,
    /// The whole phrasing, start to finish.
    pub deadline: Duration,
    /// From the request to the first piece of text (the owner waits on it).
    pub first_text: Duration,
    /// The longest pause between pieces of text once they flow.
    pub stall: Duration,
}

/// One phrasing's default deadline. A Spark reads weights at 273 GB/s, so
/// an 8B model in bf16 (16 GB) decodes at most about 17 tokens/s: the
/// largest phrasing (2048 tokens) takes about 120 s, plus the prompt.
pub const DEFAULT_DEADLINE_S: u64 = 180;

impl Timeouts {
    pub fn from_env() -> Timeouts {
        let ms = |name: &str, default: u64| {
            std::env::var(name)
                .ok()
                .and_then(|v| v.parse().ok())
                .map_or(Duration::from_millis(default), Duration::from_millis)
        };
        let secs = |name: &str, default: u64| {
            std::env::var(name)
                .ok()
                .and_then(|v| v.parse::<f64>().ok())
                .filter(|s| s.is_finite() && *s > 0.0)
                .map_or(Duration::from_secs(default), Duration::from_secs_f64)
        };
        Timeouts {
            first_text: secs("HEADROOM_LLM_FIRST_TEXT_S", 15),
            stall: secs("HEADROOM_LLM_STALL_S", 10),
            connect: ms("HEADROOM_LLM_CONNECT_TIMEOUT_MS", 3_000),
            read: ms("HEADROOM_LLM_READ_TIMEOUT_MS", 60_000),
            deadline: secs("HEADROOM_LLM_DEADLINE_S", DEFAULT_DEADLINE_S),
        }
    }
}

/// What an HTTP error status means, in headroom's words: the body is the
/// server's and is never shown (a hostile server could put advice there).
fn status_meaning(code: u16, body_len: usize) -> String {
    let meaning = match code {
        401 | 403 => "it refused the key",
        404 => "it does not serve that model or path (check the name with `/llm`)",
        408 | 504 => "it timed out",
        413 => "the request was too large for it",
        429 => "it is busy or rate-limited",
        500..=599 => "it failed on its side",
        _ => "it refused the request",
    };
    format!("{meaning} ({body_len} bytes of its message, not shown)")
}

fn client(endpoint: &Endpoint, t: Timeouts) -> Result<reqwest::Client, LlmError> {
    // No redirects: one from https to http (or to another host) would carry
    // the key where the owner never pointed it.
    let mut b = reqwest::Client::builder()
        .connect_timeout(t.connect)
        .read_timeout(t.read)
        .redirect(reqwest::redirect::Policy::none());
    if endpoint.is_loopback() {
        b = b.no_proxy();
    }
    b.build().map_err(|e| LlmError::Other(e.to_string()))
}

fn map_err(e: reqwest::Error, endpoint: &Endpoint, t: Timeouts) -> LlmError {
    if e.is_timeout() {
        LlmError::Timeout(t.read.as_secs().max(1))
    } else if e.is_connect() {
        LlmError::Unreachable(endpoint.base_url.clone())
    } else {
        LlmError::Other(format!("the request to {} failed", endpoint.base_url))
    }
}

/// Installed Ollama models (`/api/tags`), by name. The whole request is
/// bounded by the first-text limit: the owner waits on it as on a phrasing,
/// and a server that accepts the request and never answers must not hold
/// the start.
pub async fn ollama_models(endpoint: &Endpoint, t: Timeouts) -> Result<Vec<String>, LlmError> {
    match tokio::time::timeout(t.first_text, list_models(endpoint, t)).await {
        Ok(result) => result,
        Err(_) => Err(LlmError::Timeout(t.first_text.as_secs().max(1))),
    }
}

async fn list_models(endpoint: &Endpoint, t: Timeouts) -> Result<Vec<String>, LlmError> {
    let url = format!("{}/api/tags", endpoint.base_url);
    let resp = client(endpoint, t)?
        .get(&url)
        .send()
        .await
        .map_err(|e| map_err(e, endpoint, t))?;
    let status = resp.status();
    let body = resp.text().await.map_err(|e| map_err(e, endpoint, t))?;
    if !status.is_success() {
        return Err(LlmError::Status(
            status.as_u16(),
            status_meaning(status.as_u16(), body.len()),
        ));
    }
    let v: Value = serde_json::from_str(&body)
        .map_err(|_| LlmError::Garbled("the model list is not JSON".into()))?;
    Ok(v.get("models")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|m| m.get("name").and_then(Value::as_str).map(String::from))
                .collect()
        })
        .unwrap_or_default())
}

/// One chat request.
pub struct Request<'a> {
    pub model: &'a str,
    pub api_key: Option<&'a str>,
    pub messages: Vec<Value>,
    pub stream: bool,
    pub timeouts: Timeouts,
    /// Bounds a runaway model; a phrasing is about as long as the answer.
    pub max_tokens: u32,
}

/// Ask for a phrasing; `on_text` sees each streamed piece. Returns the whole
/// text, or an error once the deadline passes, whatever the server does.
pub async fn chat(
    endpoint: &Endpoint,
    request: Request<'_>,
    cancel: Arc<AtomicBool>,
    on_text: &mut dyn FnMut(&str),
) -> Result<String, LlmError> {
    let deadline = request.timeouts.deadline;
    match tokio::time::timeout(deadline, chat_inner(endpoint, request, cancel, on_text)).await {
        Ok(result) => result,
        Err(_) => Err(LlmError::Deadline(deadline.as_secs().max(1))),
    }
}

/// The most bytes a phrasing may have: about 12 bytes for each token asked
/// for (a token is about 4 characters), so a server that ignores
/// `max_tokens` is stopped too.
fn size_cap(max_tokens: u32) -> usize {
    (max_tokens as usize).saturating_mul(12).max(4096)
}

async fn chat_inner(
    endpoint: &Endpoint,
    request: Request<'_>,
    cancel: Arc<AtomicBool>,
    on_text: &mut dyn FnMut(&str),
) -> Result<String, LlmError> {
    let Request {
        model,
        api_key,
        messages,
        stream,
        timeouts: t,
        max_tokens,
    } = request;
    let (url, body) = match endpoint.protocol {
        Protocol::Ollama => (
            format!("{}/api/chat", endpoint.base_url),
            json!({"model": model, "messages": messages, "stream": stream, "options": {"temperature": 0, "num_predict": max_tokens}}),
        ),
        Protocol::OpenAi => (
            format!("{}/chat/completions", endpoint.base_url),
            json!({"model": model, "messages": messages, "stream": stream, "temperature": 0, "max_tokens": max_tokens}),
        ),
    };
    let mut req = client(endpoint, t)?.post(&url).json(&body);
    if let Some(key) = api_key {
        req = req.bearer_auth(key);
    }
    // The owner waits from the moment of asking: a streaming server that
    // holds back even its headers is given no more than the first-text
    // limit, and Ctrl-C is noticed while it does.
    let asked = std::time::Instant::now();
    let send = req.send();
    tokio::pin!(send);
    let mut resp = loop {
        if cancel.load(Ordering::SeqCst) {
            return Err(LlmError::Cancelled);
        }
        if stream && asked.elapsed() > t.first_text {
            return Err(LlmError::NoText(t.first_text.as_secs().max(1)));
        }
        match tokio::time::timeout(Duration::from_millis(100), &mut send).await {
            Err(_) => continue,
            Ok(r) => break r.map_err(|e| map_err(e, endpoint, t))?,
        }
    };
    let status = resp.status();
    if !status.is_success() {
        let text = resp.text().await.unwrap_or_default();
        return Err(LlmError::Status(
            status.as_u16(),
            status_meaning(status.as_u16(), text.len()),
        ));
    }
    let cap = size_cap(max_tokens);
    if !stream {
        // Read the body in chunks so a huge answer is refused, not held.
        let mut body = Vec::new();
        while let Some(chunk) = resp.chunk().await.map_err(|e| map_err(e, endpoint, t))? {
            body.extend_from_slice(&chunk);
            if body.len() > cap.saturating_mul(4) {
                return Err(LlmError::TooLong(cap));
            }
        }
        let out = whole(&String::from_utf8_lossy(&body)).map_err(LlmError::Garbled)?;
        if out.len() > cap {
            return Err(LlmError::TooLong(cap));
        }
        on_text(&out);
        return Ok(out);
    }
    let decode = match endpoint.protocol {
        Protocol::Ollama => ndjson,
        Protocol::OpenAi => sse,
    };
    let mut lines = Lines::default();
    let mut out = String::new();
    let mut done = false;
    // The owner waits on the first words and on every pause after them.
    let mut last_text: Option<std::time::Instant> = None;
    while !done {
        if cancel.load(Ordering::SeqCst) {
            return Err(LlmError::Cancelled);
        }
        match last_text {
            None if asked.elapsed() > t.first_text => {
                return Err(LlmError::NoText(t.first_text.as_secs().max(1)));
            }
            Some(at) if at.elapsed() > t.stall => {
                return Err(LlmError::Stalled(t.stall.as_secs().max(1)));
            }
            _ => {}
        }
        // Wake up now and then to notice Ctrl-C while the model thinks.
        let chunk = match tokio::time::timeout(Duration::from_millis(100), resp.chunk()).await {
            Err(_) => continue,
            Ok(r) => r.map_err(|e| map_err(e, endpoint, t))?,
        };
        let pieces: Vec<String> = match &chunk {
            Some(bytes) => {
                let lines_now = lines.push(bytes);
                if lines.pending() > crate::llm::stream::MAX_LINE_BYTES {
                    return Err(LlmError::Garbled("a line without end".into()));
                }
                lines_now
            }
            None => {
                done = true;
                lines.finish().into_iter().collect()
            }
        };
        for line in pieces {
            match decode(&line) {
                Piece::Text(s) => {
                    if !s.is_empty() {
                        last_text = Some(std::time::Instant::now());
                    }
                    on_text(&s);
                    out.push_str(&s);
                    if out.len() > cap {
                        return Err(LlmError::TooLong(cap));
                    }
                }
                Piece::Done => done = true,
                Piece::Error(e) => return Err(LlmError::Garbled(e)),
                Piece::Nothing => {}
            }
        }
    }
    Ok(out)
}
