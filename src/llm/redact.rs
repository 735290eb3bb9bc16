//! Secrets never reach the screen, the transcript or the history: URL
//! credentials (`http://user:secret@host`) and the API key itself are
//! replaced wherever text from or about a model server is shown or stored.

use regex::Regex;
use std::borrow::Cow;
use std::sync::LazyLock;

static USERINFO: LazyLock<Regex> =
    LazyLock::new(|| crate::extract::re(r"(?i)\b([a-z][a-z0-9+.-]*://)[^/\s@]+@"));

/// `http://user:secret@host` → `http://***@host`.
pub fn url_credentials(text: &str) -> Cow<'_, str> {
    USERINFO.replace_all(text, "${1}***@")
}

/// Every occurrence of `key` (and URL credentials) replaced.
pub fn secrets(text: &str, key: Option<&str>) -> String {
    let mut out = url_credentials(text).into_owned();
    if let Some(k) = key.filter(|k| k.len() >= 4) {
        out = out.replace(k, "***");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_and_keys_are_hidden() {
        assert_eq!(
            url_credentials("/llm openai:m@http://user:secret@10.0.0.2:8000/v1"),
            "/llm openai:m@http://***@10.0.0.2:8000/v1"
        );
        assert_eq!(
            url_credentials("/llm ollama:qwen@http://localhost:11434"),
            "/llm ollama:qwen@http://localhost:11434"
        );
        assert_eq!(
            secrets("401: bad key sk-abc123def for user", Some("sk-abc123def")),
            "401: bad key *** for user"
        );
    }
}
