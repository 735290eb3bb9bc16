//! A tiny HTTP server on 127.0.0.1 for the phrasing tests: it reads one
//! request at a time and answers with a scripted response, sending the body
//! in pieces with pauses (what mock frameworks cannot do), then closes.
//! Bounded: it serves at most `limit` requests and stops.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// One scripted answer: status, content type, body pieces and the pause
/// before each piece (status 0: no answer at all for the pause).
pub struct Script {
    pub status: u16,
    pub content_type: &'static str,
    pub pieces: Vec<String>,
    pub pause: Duration,
}

pub struct Server {
    pub url: String,
    pub requests: Arc<Mutex<Vec<(String, String, String)>>>,
}

/// `answer(path, body)` decides the reply for each request.
pub fn serve(limit: usize, answer: impl Fn(&str, &str) -> Script + Send + 'static) -> Server {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
    let url = format!("http://{}", listener.local_addr().unwrap());
    let requests = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&requests);
    std::thread::spawn(move || {
        for stream in listener.incoming().take(limit) {
            let Ok(mut stream) = stream else { continue };
            let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut request_line = String::new();
            if reader.read_line(&mut request_line).is_err() {
                continue;
            }
            let path = request_line
                .split_whitespace()
                .nth(1)
                .unwrap_or("")
                .to_string();
            let mut length = 0usize;
            let mut auth = String::new();
            loop {
                let mut h = String::new();
                if reader.read_line(&mut h).unwrap_or(0) == 0 || h == "\r\n" {
                    break;
                }
                let lower = h.to_ascii_lowercase();
                if let Some(v) = lower.strip_prefix("content-length:") {
                    length = v.trim().parse().unwrap_or(0);
                }
                if lower.starts_with("authorization:") {
                    auth = h.trim().to_string();
                }
            }
            let mut body = vec![0u8; length];
            let _ = reader.read_exact(&mut body);
            let body = String::from_utf8_lossy(&body).to_string();
            seen.lock()
                .unwrap()
                .push((path.clone(), body.clone(), auth));
            let script = answer(&path, &body);
            // Status 0: a server that takes the request and never answers,
            // not even its headers, for `pause`.
            if script.status == 0 {
                std::thread::sleep(script.pause);
                continue;
            }
            let head = format!(
                "HTTP/1.1 {} X\r\nContent-Type: {}\r\nConnection: close\r\n\r\n",
                script.status, script.content_type
            );
            if stream.write_all(head.as_bytes()).is_err() {
                continue;
            }
            for piece in &script.pieces {
                std::thread::sleep(script.pause);
                if stream.write_all(piece.as_bytes()).is_err() || stream.flush().is_err() {
                    break;
                }
            }
        }
    });
    Server { url, requests }
}

/// The draft headroom sent for rephrasing (between <answer> tags).
pub fn draft_of(body: &str) -> String {
    let v: serde_json::Value = serde_json::from_str(body).unwrap_or_default();
    let content = v["messages"][1]["content"]
        .as_str()
        .unwrap_or("")
        .to_string();
    let start = content.find("<answer>\n").map_or(0, |i| i + 9);
    let end = content.rfind("\n</answer>").unwrap_or(content.len());
    content[start..end].to_string()
}

/// The draft with `prefix` put before the first passage's words: a faithful
/// rewording.
pub fn reword(draft: &str, prefix: &str) -> String {
    draft.replacen("[1] ", &format!("[1] {prefix}"), 1)
}

/// A response body as OpenAI SSE events, a few words per event.
pub fn sse(text: &str) -> Vec<String> {
    let mut out: Vec<String> = text
        .split_inclusive(' ')
        .collect::<Vec<_>>()
        .chunks(8)
        .map(|w| {
            let piece = w.concat();
            format!(
                "data: {}\n\n",
                serde_json::json!({"choices":[{"index":0,"delta":{"content":piece},"finish_reason":null}]})
            )
        })
        .collect();
    out.push("data: [DONE]\n\n".into());
    out
}

/// A response body as Ollama NDJSON lines.
pub fn ndjson(text: &str) -> Vec<String> {
    let mut out: Vec<String> = text
        .split_inclusive(' ')
        .collect::<Vec<_>>()
        .chunks(8)
        .map(|w| {
            format!(
                "{}\n",
                serde_json::json!({"model":"tiny","message":{"role":"assistant","content":w.concat()},"done":false})
            )
        })
        .collect();
    out.push(format!(
        "{}\n",
        serde_json::json!({"model":"tiny","message":{"role":"assistant","content":""},"done":true})
    ));
    out
}
