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

/// Tokens shaped like a provider's API key (OpenAI `sk-…`, Hugging Face
/// `hf_…`, Groq `gsk_…`, xAI `xai-…`, Google `AIza…`, GitHub `ghp_…`).
static KEY_SHAPED: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"\b(?:sk-(?:proj-|ant-)?[A-Za-z0-9_-]{16,}|hf_[A-Za-z0-9]{30,}|gsk_[A-Za-z0-9]{40,}|xai-[A-Za-z0-9]{40,}|AIza[0-9A-Za-z_-]{35}|ghp_[A-Za-z0-9]{36})",
    )
});

/// What the owner typed or pasted, before it is kept, echoed or sent on:
/// the configured key, anything shaped like an API key, and URL
/// credentials replaced (the keyring is the only place a key lives).
pub fn owner_text(text: &str, key: Option<&str>) -> String {
    let out = secrets(text, key);
    KEY_SHAPED.replace_all(&out, "***").into_owned()
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
        assert_eq!(
            owner_text("my key is sk-typed-SECRETVALUE-4417c2, right?", None),
            "my key is ***, right?"
        );
        assert_eq!(
            owner_text("HF_TOKEN=hf_abcdefghijklmnopqrstuvwxyz0123456789", None),
            "HF_TOKEN=***"
        );
        assert_eq!(
            owner_text("my run: batch 4, sk-learn", None),
            "my run: batch 4, sk-learn"
        );
        assert_eq!(
            owner_text("key is zz9-plural-z-alpha", Some("zz9-plural-z-alpha")),
            "key is ***"
        );
    }
}
