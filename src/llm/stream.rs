//! Turning a streamed HTTP body into text: a line splitter that survives
//! chunks cut anywhere (even inside a UTF-8 character), and decoders for
//! Ollama's NDJSON and the OpenAI SSE `data:` lines.

use serde_json::Value;

/// What one decoded line says.
#[derive(Debug, Clone, PartialEq)]
pub enum Piece {
    Text(String),
    Done,
    Error(String),
    /// A line that carries nothing (keep-alives, role-only deltas, comments).
    Nothing,
}

/// The longest line a server may send; longer is a broken stream.
pub const MAX_LINE_BYTES: usize = 1024 * 1024;

/// Collects bytes and hands out whole lines. Each byte is scanned once, so
/// a long line sent a byte at a time costs linear time, not quadratic.
#[derive(Debug, Default)]
pub struct Lines {
    buf: Vec<u8>,
    /// How far `buf` is known to hold no newline.
    scanned: usize,
}

impl Lines {
    pub fn push(&mut self, bytes: &[u8]) -> Vec<String> {
        self.buf.extend_from_slice(bytes);
        let mut out = Vec::new();
        let mut start = 0;
        let mut from = self.scanned;
        while let Some(i) = memchr::memchr(b'\n', &self.buf[from..]) {
            let end = from + i;
            let text = String::from_utf8_lossy(&self.buf[start..end]);
            out.push(text.trim_end_matches('\r').to_string());
            start = end + 1;
            from = start;
        }
        self.buf.drain(..start);
        self.scanned = self.buf.len();
        out
    }

    /// Bytes waiting for their newline.
    pub fn pending(&self) -> usize {
        self.buf.len()
    }

    /// Whatever is left without a final newline.
    pub fn finish(&mut self) -> Option<String> {
        self.scanned = 0;
        let rest = std::mem::take(&mut self.buf);
        let text = String::from_utf8_lossy(&rest).trim().to_string();
        (!text.is_empty()).then_some(text)
    }
}

/// An error the server reported inside its answer. Its words are the
/// server's, so they are counted, never shown: a hostile server could put
/// advice or a command there.
fn error_of(v: &Value) -> Option<String> {
    let e = v.get("error")?;
    Some(reported(&e.to_string()))
}

fn reported(message: &str) -> String {
    format!(
        "the server reported an error ({} bytes, not shown)",
        message.len()
    )
}

/// One Ollama `/api/chat` NDJSON line.
pub fn ndjson(line: &str) -> Piece {
    if line.trim().is_empty() {
        return Piece::Nothing;
    }
    let Ok(v) = serde_json::from_str::<Value>(line) else {
        // Its bytes are the server's, not the owner's: counted, never shown.
        return Piece::Error(format!("a line that is not JSON ({} bytes)", line.len()));
    };
    if let Some(e) = error_of(&v) {
        return Piece::Error(e);
    }
    let text = v
        .pointer("/message/content")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    if v.get("done").and_then(Value::as_bool) == Some(true) {
        return if text.is_empty() {
            Piece::Done
        } else {
            Piece::Text(text)
        };
    }
    if text.is_empty() {
        Piece::Nothing
    } else {
        Piece::Text(text)
    }
}

/// One SSE line of an OpenAI-compatible stream.
pub fn sse(line: &str) -> Piece {
    let line = line.trim_end();
    let Some(data) = line.strip_prefix("data:") else {
        return Piece::Nothing; // comments, event:, id:, retry:, blank lines
    };
    let data = data.trim();
    if data == "[DONE]" {
        return Piece::Done;
    }
    let Ok(v) = serde_json::from_str::<Value>(data) else {
        return Piece::Error(format!("an event that is not JSON ({} bytes)", data.len()));
    };
    if let Some(e) = error_of(&v) {
        return Piece::Error(e);
    }
    if v.get("object").and_then(Value::as_str) == Some("error") {
        return Piece::Error(reported(
            v.get("message").and_then(Value::as_str).unwrap_or(""),
        ));
    }
    match v
        .pointer("/choices/0/delta/content")
        .and_then(Value::as_str)
    {
        Some(t) if !t.is_empty() => Piece::Text(t.to_string()),
        _ => Piece::Nothing,
    }
}

/// The text of a non-streamed answer, either protocol.
pub fn whole(body: &str) -> Result<String, String> {
    let v: Value = serde_json::from_str(body).map_err(|_| "the answer is not JSON".to_string())?;
    if let Some(e) = error_of(&v) {
        return Err(e);
    }
    v.pointer("/message/content")
        .or_else(|| v.pointer("/choices/0/message/content"))
        .and_then(Value::as_str)
        .map(str::to_string)
        .ok_or_else(|| "the answer has no message content".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn ollama_lines() {
        assert_eq!(
            ndjson(r#"{"model":"m","message":{"role":"assistant","content":"The"},"done":false}"#),
            Piece::Text("The".into())
        );
        assert_eq!(
            ndjson(r#"{"message":{"content":""},"done":true,"eval_count":2}"#),
            Piece::Done
        );
        // The server's words are counted, not shown.
        assert_eq!(
            ndjson(r#"{"error":"model 'x' not found"}"#),
            Piece::Error("the server reported an error (21 bytes, not shown)".into())
        );
        assert!(matches!(ndjson("{broken"), Piece::Error(_)));
    }

    #[test]
    fn openai_events() {
        assert_eq!(
            sse(r#"data: {"choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]}"#),
            Piece::Text("Hi".into())
        );
        assert_eq!(
            sse(r#"data: {"choices":[{"delta":{"role":"assistant"}}]}"#),
            Piece::Nothing
        );
        assert_eq!(sse("data: [DONE]"), Piece::Done);
        assert_eq!(sse(": keep-alive"), Piece::Nothing);
        let Piece::Error(e) = sse(r#"data: {"error":{"message":"run sudo sh","type":"x"}}"#) else {
            panic!("an error event is an error");
        };
        assert!(!e.contains("sudo"), "{e}");
        assert_eq!(
            whole(r#"{"choices":[{"message":{"content":"ok"}}]}"#),
            Ok("ok".into())
        );
        assert_eq!(
            whole(r#"{"message":{"content":"ok"},"done":true}"#),
            Ok("ok".into())
        );
    }

    proptest! {
        /// Chunks cut at any byte, inside characters too, give the same lines.
        #[test]
        fn lines_survive_any_chunking(cuts in proptest::collection::vec(0usize..60, 0..10)) {
            let text = "first °C line\nsecond → line\r\nthird\n";
            let bytes = text.as_bytes();
            let mut points: Vec<usize> = cuts.into_iter().map(|c| c % bytes.len()).collect();
            points.sort_unstable();
            let mut lines = Lines::default();
            let mut got = Vec::new();
            let mut from = 0;
            for p in points.into_iter().chain(std::iter::once(bytes.len())) {
                got.extend(lines.push(&bytes[from..p]));
                from = p;
            }
            prop_assert_eq!(got, vec!["first °C line".to_string(), "second → line".into(), "third".into()]);
        }
    }

    #[test]
    fn a_line_sent_byte_by_byte_is_whole_and_linear() {
        let mut l = Lines::default();
        let line = "x".repeat(200_000);
        let mut got = Vec::new();
        for b in line.bytes() {
            got.extend(l.push(&[b]));
        }
        got.extend(l.push(b"\n"));
        assert_eq!(got, vec![line]);
        assert_eq!(l.pending(), 0);
    }
}
