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

/// An endpoint URL headroom will send to: http or https, parseable, and
/// with no user name or password before the host. A `user@host` part hides
/// the real host from a reader ("http://127.0.0.1@192.0.2.10" goes to
/// 192.0.2.10), and a key belongs in the keyring, not the URL.
fn check_url(u: &str) -> Result<(), String> {
    if !(u.starts_with("http://") || u.starts_with("https://")) {
        return Err(format!("{u:?} is not an http:// or https:// URL"));
    }
    let url =
        url::Url::parse(u).map_err(|e| format!("{u:?} is not a URL headroom can use: {e}"))?;
    // An empty user name and password ("http://:@127.0.0.1") parse as
    // none, so the raw authority is read too: any '@' before the path.
    let authority = u.split_once("://").map_or("", |(_, rest)| {
        rest.split(['/', '\\', '?', '#']).next().unwrap_or("")
    });
    if !url.username().is_empty() || url.password().is_some() || authority.contains('@') {
        return Err(format!(
            "{:?} has a user name or password before the host (the request would go to {}); write the server's address alone and keep the key in the keyring (`headroom key set`)",
            crate::llm::redact::url_credentials(u),
            url.host_str().unwrap_or("another host")
        ));
    }
    if url.fragment().is_some() || url.query().is_some() {
        return Err(format!(
            "{:?} has a ? or # part; write the server's base URL alone (http://HOST:PORT/v1)",
            crate::llm::redact::url_credentials(u)
        ));
    }
    Ok(())
}

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
        if let Some(u) = &url {
            check_url(u)?;
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
    /// HTTP_PROXY otherwise). The host is the one the HTTP client will
    /// connect to, as the URL standard parses it (`0x7f.0.0.1` and
    /// `2130706433` are 127.0.0.1; `127.0.0.1.nip.io` is a name, not
    /// this machine).
    pub fn is_loopback(&self) -> bool {
        use url::{Host, Url};
        let Ok(url) = Url::parse(&self.base_url) else {
            return false;
        };
        match url.host() {
            Some(Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
            Some(Host::Ipv4(ip)) => ip.is_loopback(),
            Some(Host::Ipv6(ip)) => {
                ip.is_loopback() || ip.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback())
            }
            None => false,
        }
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
    let path = config_file()?;
    // A file that cannot be read as one line of text (a FIFO, a directory,
    // binary) is set aside with a word on stderr, as if absent: the chat
    // still starts, without a model.
    let text = match read_config(&path) {
        Ok(Some(text)) => text,
        Ok(None) => return None,
        Err(e) => {
            eprintln!("headroom: not using the llm config file: {e}");
            return None;
        }
    };
    let line = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))?;
    // A spec is one short line: anything else is not a spec, and is never
    // echoed whole (a 20 MB line would fill the screen).
    if line.len() > 512 || line.chars().any(char::is_control) {
        eprintln!(
            "headroom: not using the llm config file {}: its first line is not a model spec (write ollama[:MODEL][@URL] or openai:MODEL@URL)",
            path.display()
        );
        return None;
    }
    Some(Endpoint::parse(line))
}

/// The config file's text: never blocking on a FIFO put in its place,
/// only a regular file (a link to one is fine: dotfiles are often links),
/// and at most a few KiB (it holds one line).
fn read_config(path: &std::path::Path) -> Result<Option<String>, String> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let file = match std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
    {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    if !file.metadata().map_err(|e| e.to_string())?.is_file() {
        return Err(format!(
            "{} is not a regular file (a FIFO, socket or device sits there): put the model spec in a plain file, or pass --llm",
            path.display()
        ));
    }
    let mut text = String::new();
    file.take(64 * 1024)
        .read_to_string(&mut text)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(Some(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fifo_for_the_config_file_is_refused_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("llm");
        let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let err = read_config(&path).unwrap_err();
        assert!(err.contains("not a regular file"), "{err}");
        let dir_path = dir.path().join("d");
        std::fs::create_dir(&dir_path).unwrap();
        assert!(read_config(&dir_path).is_err());
        assert_eq!(read_config(&dir.path().join("absent")), Ok(None));
    }

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

    #[test]
    fn the_host_is_the_one_the_request_goes_to() {
        let at = |u: &str| Endpoint::parse(&format!("openai:m@{u}"));
        // A user name before the host hides where the key would go.
        for tricked in [
            "http://127.0.0.1@192.0.2.10:8000/v1",
            "http://localhost:18080@192.0.2.10:8000/v1",
            "http://user:sk-in-the-url@192.0.2.10:8000/v1",
            "http://:@127.0.0.1:9/v1",
            "http://@127.0.0.1:9/v1",
            "http://192.0.2.10:8000#@127.0.0.1:18080/v1",
            "http://192.0.2.10:8000/v1?redirect=https://ok.example",
        ] {
            let e = at(tricked).unwrap_err();
            assert!(
                !e.contains("sk-in-the-url"),
                "the secret is not echoed: {e}"
            );
        }
        let loopback = |u: &str| at(u).unwrap().is_loopback();
        for this_machine in [
            "http://127.0.0.1:18080/v1",
            "http://0x7f.0.0.1:18080/v1",
            "http://2130706433:18080/v1",
            "http://[::ffff:127.0.0.1]:18080/v1",
            "http://[::1]:8000/v1",
            "http://localhost:8000/v1",
        ] {
            assert!(loopback(this_machine), "{this_machine}");
        }
        for elsewhere in [
            "http://127.0.0.1.nip.io:18080/v1",
            "http://localhost.example:8000/v1",
            "http://[::ffff:192.0.2.10]:8000/v1",
            "http://192.0.2.10:8000\\@127.0.0.1:18080/v1",
            "http://0.0.0.0:18080/v1",
        ] {
            assert!(!loopback(elsewhere), "{elsewhere}");
            assert!(at(elsewhere).unwrap().in_clear_off_box(), "{elsewhere}");
        }
    }
}
