//! Which model phrases replies: `ollama[:MODEL][@URL]` or
//! `openai:MODEL@URL`, from `--llm`, `/llm`, or the config file.

use std::path::PathBuf;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protocol {
    /// Ollama's native `/api/chat` (NDJSON when streaming).
    Ollama,
    /// An OpenAI-compatible `/v1/chat/completions` (SSE when streaming):
    /// vLLM, llama.cpp's server, LM Studio, Ollama's own OpenAI endpoint.
    OpenAi,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Endpoint {
    pub protocol: Protocol,
    /// None for Ollama means "list the installed models and pick".
    pub model: Option<String>,
    /// Base URL without a trailing slash; for OpenAI it ends in `/v1`.
    pub base_url: String,
    /// The owner allowed an API key over plain http to another machine
    /// (`--allow-http`); never part of the spec.
    pub allow_http: bool,
}

pub const OLLAMA_DEFAULT: &str = "http://127.0.0.1:11434";

impl Endpoint {
    /// Parse a spec; the error says what to write instead.
    pub fn parse(spec: &str) -> Result<Endpoint, String> {
        let spec = spec.trim();
        let (head, url) = match spec.split_once('@') {
            Some((h, u)) => (h, Some(u.trim())),
            None => (spec, None),
        };
        let (kind, model) = match head.split_once(':') {
            Some((k, m)) => (k, Some(m.trim().to_string()).filter(|m| !m.is_empty())),
            None => (head, None),
        };
        let url = url.map(|u| u.trim_end_matches('/').to_string());
        if let Some(u) = &url
            && !(u.starts_with("http://") || u.starts_with("https://"))
        {
            return Err(format!("{u:?} is not an http:// or https:// URL"));
        }
        match kind.to_ascii_lowercase().as_str() {
            "ollama" => Ok(Endpoint {
                protocol: Protocol::Ollama,
                model,
                base_url: url.unwrap_or_else(|| OLLAMA_DEFAULT.into()),
                allow_http: false,
            }),
            "openai" => {
                let model = model.ok_or("openai needs a model: openai:MODEL@URL")?;
                let url = url.ok_or(
                    "openai needs the server's URL: openai:MODEL@http://127.0.0.1:8000/v1",
                )?;
                // OpenAI clients write the base URL with /v1; accept both.
                let base = if url.ends_with("/v1") {
                    url
                } else {
                    format!("{url}/v1")
                };
                Ok(Endpoint {
                    protocol: Protocol::OpenAi,
                    model: Some(model),
                    base_url: base,
                    allow_http: false,
                })
            }
            other => Err(format!(
                "{other:?} is not a model server kind: write ollama[:MODEL][@URL] or openai:MODEL@URL"
            )),
        }
    }

    pub fn describe(&self) -> String {
        let kind = match self.protocol {
            Protocol::Ollama => "Ollama",
            Protocol::OpenAi => "OpenAI-compatible",
        };
        format!(
            "{kind} at {}, model {}",
            crate::llm::redact::url_credentials(&self.base_url),
            self.model.as_deref().unwrap_or("(not chosen yet)")
        )
    }

    /// Loopback hosts bypass any system proxy (reqwest sends them through
    /// HTTP_PROXY otherwise).
    pub fn is_loopback(&self) -> bool {
        let rest = self.base_url.split("://").nth(1).unwrap_or("");
        let host = match rest.strip_prefix('[') {
            Some(v6) => v6.split(']').next().unwrap_or(""),
            None => rest.split(['/', ':']).next().unwrap_or(""),
        };
        host == "localhost" || host == "::1" || host.starts_with("127.")
    }

    /// Would a key sent here cross a network in clear?
    pub fn in_clear_off_box(&self) -> bool {
        self.base_url.starts_with("http://") && !self.is_loopback()
    }
}

/// The config file that holds the default spec (one line).
pub fn config_file() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("HEADROOM_CONFIG_DIR").filter(|v| !v.is_empty()) {
        return Some(PathBuf::from(dir).join("llm"));
    }
    directories::ProjectDirs::from("", "", "headroom").map(|d| d.config_dir().join("llm"))
}

/// The default endpoint from the config file, if one is set.
pub fn from_config() -> Option<Result<Endpoint, String>> {
    let text = std::fs::read_to_string(config_file()?).ok()?;
    let line = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))?;
    Some(Endpoint::parse(line))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs() {
        let e = Endpoint::parse("ollama").unwrap();
        assert_eq!(
            (e.protocol, e.model, e.base_url.as_str()),
            (Protocol::Ollama, None, OLLAMA_DEFAULT)
        );
        let e = Endpoint::parse("ollama:qwen2.5:7b@http://10.0.0.2:11434/").unwrap();
        assert_eq!(e.model.as_deref(), Some("qwen2.5:7b"));
        assert_eq!(e.base_url, "http://10.0.0.2:11434");
        let with = Endpoint::parse("openai:smollm2@http://127.0.0.1:8088/v1").unwrap();
        let without = Endpoint::parse("openai:smollm2@http://127.0.0.1:8088").unwrap();
        assert_eq!(with, without);
        assert!(with.is_loopback());
        assert!(!with.in_clear_off_box());
        assert!(
            Endpoint::parse("openai:m@http://[::1]:8000")
                .unwrap()
                .is_loopback()
        );
        assert!(
            Endpoint::parse("openai:m@http://10.0.0.2:8000")
                .unwrap()
                .in_clear_off_box()
        );
        assert!(
            !Endpoint::parse("openai:m@https://10.0.0.2:8000")
                .unwrap()
                .in_clear_off_box()
        );
        assert!(
            Endpoint::parse("openai@http://x")
                .unwrap_err()
                .contains("needs a model")
        );
        assert!(
            Endpoint::parse("gpt:x@http://x")
                .unwrap_err()
                .contains("not a model server kind")
        );
        assert!(
            Endpoint::parse("ollama@ftp://x")
                .unwrap_err()
                .contains("not an http")
        );
    }
}
