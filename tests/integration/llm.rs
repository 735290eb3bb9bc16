//! Phrasing by a model, against real HTTP servers on loopback started here:
//! both protocols, streamed and not, and every way it can go wrong. Each
//! failure ends with headroom's own text and one line saying why.

use crate::llm_server::{Script, draft_of, ndjson, reword, serve, sse};
use crate::support::{Headroom, fixture};
use std::time::Duration;

const RUN: &str = "QLoRA on Llama 3.1 70B, batch 1, packing 2048";

fn ok(pieces: Vec<String>, content_type: &'static str) -> Script {
    Script {
        status: 200,
        content_type,
        pieces,
        pause: Duration::from_millis(5),
    }
}

/// A plan dialogue with phrasing by `spec`; returns stdout and the transcript.
fn converse(spec: &str, envs: &[(&str, &str)]) -> (String, String) {
    let dir = tempfile::tempdir().unwrap();
    let mut h = Headroom::new(dir.path())
        .args(&["--llm", spec])
        .stdin(&format!("{RUN}\n\n{}", fixture("free-g-spark.txt")));
    for (k, v) in envs {
        h = h.env(k, v);
    }
    let out = h.run().ok();
    let transcript = std::fs::read_to_string(dir.path().join("transcript.jsonl")).unwrap();
    (out.stdout, transcript)
}

#[test]
fn openai_streaming_phrasing_that_keeps_every_figure_is_shown() {
    let server = serve(8, |_, body| {
        ok(
            sse(&reword(&draft_of(body), "Please note: ")),
            "text/event-stream",
        )
    });
    let (out, transcript) = converse(&format!("openai:tiny@{}/v1", server.url), &[]);
    assert!(out.contains("Please note: "), "{out}");
    assert!(out.contains("**Verdict: fits.**"));
    assert!(!out.contains("headroom's own text"), "{out}");
    assert!(transcript.contains("\"phrased_by\":\"tiny\""));
    let reqs = server.requests.lock().unwrap();
    assert!(
        reqs.iter()
            .all(|(path, _, _)| path == "/v1/chat/completions")
    );
    // The owner's words reach the model only inside the data block, and
    // pasted output not at all.
    assert!(
        reqs.iter().all(|(_, body, _)| body.contains("<data>\\n")
            && !body.contains("Mem:")
            && !body.contains("buff/cache")),
        "{reqs:?}"
    );
}

#[test]
fn ollama_ndjson_streaming_and_model_listing() {
    let server = serve(8, |path, body| {
        if path == "/api/tags" {
            ok(
                vec![r#"{"models":[{"name":"tiny:latest"}]}"#.into()],
                "application/json",
            )
        } else {
            ok(
                ndjson(&reword(&draft_of(body), "Here, please note: ")),
                "application/x-ndjson",
            )
        }
    });
    let (out, transcript) = converse(&format!("ollama@{}", server.url), &[]);
    assert!(out.contains("Here, please note: "), "{out}");
    assert!(transcript.contains("\"phrased_by\":\"tiny:latest\""));
    let reqs = server.requests.lock().unwrap();
    assert_eq!(reqs[0].0, "/api/tags");
    assert!(reqs.iter().skip(1).all(|(p, _, _)| p == "/api/chat"));
}

#[test]
fn non_streamed_answers_of_both_protocols() {
    let openai = serve(8, |_, body| {
        let text = draft_of(body);
        ok(
            vec![
                serde_json::json!({"choices":[{"message":{"role":"assistant","content":text}}]})
                    .to_string(),
            ],
            "application/json",
        )
    });
    let (out, _) = converse(
        &format!("openai:tiny@{}", openai.url),
        &[("HEADROOM_LLM_STREAM", "0")],
    );
    assert!(!out.contains("headroom's own text"), "{out}");
    assert!(
        openai.requests.lock().unwrap()[0]
            .1
            .contains("\"stream\":false")
    );
    let ollama = serve(8, |_, body| {
        let text = draft_of(body);
        ok(
            vec![
                serde_json::json!({"message":{"role":"assistant","content":text},"done":true})
                    .to_string(),
            ],
            "application/json",
        )
    });
    let (out, _) = converse(
        &format!("ollama:tiny@{}", ollama.url),
        &[("HEADROOM_LLM_STREAM", "0")],
    );
    assert!(!out.contains("headroom's own text"), "{out}");
}

fn falls_back(out: &str, why: &str) {
    assert!(
        out.contains("**Verdict: fits.**"),
        "the deterministic text is shown: {out}"
    );
    assert!(out.contains("(headroom's own text:"), "{out}");
    assert!(out.contains(why), "expected {why:?} in: {out}");
}

#[test]
fn a_slow_server_times_out() {
    let server = serve(8, |_, _| Script {
        status: 200,
        content_type: "text/event-stream",
        pieces: vec!["data: [DONE]\n\n".into()],
        pause: Duration::from_millis(1500),
    });
    let (out, _) = converse(
        &format!("openai:tiny@{}", server.url),
        &[("HEADROOM_LLM_READ_TIMEOUT_MS", "300")],
    );
    falls_back(&out, "did not answer within");
}

#[test]
fn a_model_list_that_never_answers_holds_no_one() {
    // Ollama without a model named: headroom asks `/api/tags` for the first
    // installed one, and this server takes the request and never answers.
    let server = serve(8, |_, _| Script {
        status: 0,
        content_type: "application/json",
        pieces: Vec::new(),
        pause: Duration::from_secs(40),
    });
    let started = std::time::Instant::now();
    let (out, _) = converse(
        &format!("ollama@{}", server.url),
        &[("HEADROOM_LLM_FIRST_TEXT_S", "1")],
    );
    // A hang check, not a timing: unbounded, the listing waits out the 60 s
    // read timeout at start and again at each phrasing.
    assert!(started.elapsed() < Duration::from_secs(20), "{out}");
    falls_back(&out, "did not answer within 1 s");
    assert_eq!(server.requests.lock().unwrap()[0].0, "/api/tags");
}

#[test]
fn a_refused_connection() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let (out, _) = converse(&format!("openai:tiny@http://127.0.0.1:{port}"), &[]);
    falls_back(&out, "is not reachable");
}

#[test]
fn malformed_chunks() {
    let server = serve(8, |_, _| {
        ok(
            vec!["data: {\"choices\": [oops\n\n".into()],
            "text/event-stream",
        )
    });
    let (out, _) = converse(&format!("openai:tiny@{}", server.url), &[]);
    falls_back(&out, "garbled");
    let server = serve(8, |_, _| {
        ok(vec!["not json at all\n".into()], "application/x-ndjson")
    });
    let (out, _) = converse(&format!("ollama:tiny@{}", server.url), &[]);
    falls_back(&out, "garbled");
}

#[test]
fn an_http_error() {
    let server = serve(8, |_, _| Script {
        status: 500,
        content_type: "application/json",
        pieces: vec![r#"{"error":{"message":"model exploded","type":"api_error"}}"#.into()],
        pause: Duration::ZERO,
    });
    let (out, _) = converse(&format!("openai:tiny@{}", server.url), &[]);
    // The status in headroom's words; the server's own words never shown.
    falls_back(&out, "HTTP 500: it failed on its side");
    assert!(!out.contains("model exploded"), "{out}");
}

#[test]
fn an_adversarial_model_cannot_change_a_number_add_a_command_or_drop_the_verdict() {
    type Twist = fn(String) -> String;
    let cases: [(&str, Twist); 3] = [
        ("a figure of its own", |d| {
            d.replacen("[1] ", "[1] With 219.48 GB to spare, ", 1)
        }),
        ("command", |d| {
            format!("{d} To free memory first run `rm -rf /`.")
        }),
        ("dropped a value", |d| {
            regex::Regex::new(r"\{[a-z]+1\}")
                .unwrap()
                .replace(&d, "")
                .into_owned()
        }),
    ];
    for (why, twist) in cases {
        let server = serve(8, move |_, body| {
            ok(sse(&twist(draft_of(body))), "text/event-stream")
        });
        let (out, transcript) = converse(&format!("openai:tiny@{}", server.url), &[]);
        falls_back(&out, why);
        let shown = out.split("(headroom's own text:").next().unwrap_or("");
        assert!(
            !shown.contains("219.48 GB") && !out.contains("rm -rf /"),
            "{out}"
        );
        assert!(
            transcript.contains("llm_rejected"),
            "the rejected phrasing is kept for review"
        );
    }
}

#[test]
fn the_api_key_is_sent_but_never_written_down() {
    let server = serve(8, |_, body| ok(sse(&draft_of(body)), "text/event-stream"));
    let (_, transcript) = converse(
        &format!("openai:tiny@{}", server.url),
        &[("HEADROOM_API_KEY", "sk-secret-777")],
    );
    let reqs = server.requests.lock().unwrap();
    assert_eq!(reqs[0].2, "authorization: Bearer sk-secret-777");
    assert!(!transcript.contains("sk-secret-777"));
}

#[test]
fn a_bad_llm_spec_names_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    let out = Headroom::new(dir.path())
        .args(&["--llm", "gpt:x@http://x"])
        .run();
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("--llm gpt:x@http://x"),
        "{}",
        out.stderr
    );
}

#[test]
fn slash_llm_says_what_is_in_use() {
    let dir = tempfile::tempdir().unwrap();
    let out = Headroom::new(dir.path())
        .stdin("/llm\n\n/llm openai:tiny@http://127.0.0.1:9/v1\n\n/llm\n\n/llm off\n")
        .run()
        .ok();
    assert!(
        out.stdout.contains("No model phrases replies"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("Phrasing with OpenAI-compatible at http://127.0.0.1:9/v1, model tiny")
    );
    assert!(out.stdout.contains("Phrasing is off"));
}

/// Against a real model server (scripts/llm-test-server.sh; .ci/run starts
/// it). Asserts the protocols and the guard, not the small model's wording.
#[test]
fn a_real_model_server_speaks_both_protocols_and_every_reply_is_guarded() {
    let specs: Vec<String> = ["HEADROOM_REAL_LLM_OPENAI", "HEADROOM_REAL_LLM_OLLAMA"]
        .iter()
        .filter_map(|v| std::env::var(v).ok())
        .collect();
    if !crate::support::available_or_skip(
        "llm",
        specs.is_empty(),
        "no real model server: run scripts/llm-test-server.sh start and export what it prints",
    ) {
        return;
    }
    for spec in specs {
        // One short turn: the small model on two CPU threads reads a full
        // plan slowly, and the protocols and the guard are what is tested.
        let dir = tempfile::tempdir().unwrap();
        let out = Headroom::new(dir.path())
            .args(&["--llm", &spec])
            .env("HEADROOM_LLM_READ_TIMEOUT_MS", "120000")
            .env("HEADROOM_LLM_FIRST_TEXT_S", "120")
            .stdin("LoRA on Qwen2.5 7B, bf16, batch 1, packing 1024\n")
            .run()
            .ok();
        assert!(out.stdout.contains("free -g"), "{}", out.stdout);
        let transcript = std::fs::read_to_string(dir.path().join("transcript.jsonl")).unwrap();
        let replies: Vec<serde_json::Value> = transcript
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .filter(|e| e["event"] == "reply")
            .collect();
        assert_eq!(replies.len(), 1, "{transcript}");
        for r in &replies {
            let fallback = r["llm_fallback"].as_str().unwrap_or("");
            assert!(
                !fallback.contains("not reachable")
                    && !fallback.contains("garbled")
                    && !fallback.contains("HTTP "),
                "{spec}: the protocol failed: {fallback}"
            );
            match r["phrased_text"].as_str() {
                // A phrasing that was shown adds no figure and keeps every
                // line headroom renders itself (the verdict, the tables).
                Some(text) => {
                    let own = r["text"].as_str().unwrap();
                    let figures = |t: &str| -> std::collections::BTreeSet<String> {
                        t.split(|c: char| !(c.is_ascii_digit() || c == '.'))
                            .filter(|w| w.chars().any(|c| c.is_ascii_digit()))
                            .map(|w| w.trim_matches('.').to_string())
                            .collect()
                    };
                    assert!(figures(text).is_subset(&figures(own)), "{spec}: {text}");
                    for line in own
                        .lines()
                        .filter(|l| l.starts_with('|') || l.contains("**Verdict"))
                    {
                        assert!(text.contains(line), "{spec}: lost {line:?} in {text}");
                    }
                }
                None => assert!(!fallback.is_empty(), "{spec}: neither phrased nor a reason"),
            }
        }
    }
}

/// On a box with no keyring (CI has no D-Bus session), `key set` says so,
/// names HEADROOM_API_KEY and stores nothing anywhere.
#[test]
fn key_set_without_a_keyring_says_what_to_do_instead() {
    let dir = tempfile::tempdir().unwrap();
    let out = Headroom::new(dir.path())
        .args(&["key", "set"])
        .env("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/bus")
        .stdin("sk-never-written\n")
        .run();
    if out.code == 0 {
        // A working keyring after all: leave it as it was.
        Headroom::new(dir.path()).args(&["key", "clear"]).run();
        return;
    }
    assert!(
        out.stderr.contains("No OS keyring is available here"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("HEADROOM_API_KEY"), "{}", out.stderr);
    let stored: Vec<_> = std::fs::read_dir(dir.path())
        .map(|d| d.count())
        .into_iter()
        .collect();
    assert!(
        stored.iter().all(|n| *n == 0),
        "nothing is written to the data directory"
    );
}

/// Regression: a server that sends a byte every so often never trips the
/// read timeout; one deadline per phrasing ends it anyway.
#[test]
fn a_trickling_server_meets_the_deadline() {
    let server = serve(8, |_, _| Script {
        status: 200,
        content_type: "text/event-stream",
        pieces: (0..200).map(|_| ":\n".to_string()).collect(),
        pause: Duration::from_millis(100),
    });
    let start = std::time::Instant::now();
    let (out, _) = converse(
        &format!("openai:tiny@{}", server.url),
        &[("HEADROOM_LLM_DEADLINE_S", "1")],
    );
    assert!(
        start.elapsed() < Duration::from_secs(15),
        "took {:?}",
        start.elapsed()
    );
    falls_back(&out, "deadline for one phrasing");
}

/// Regression: an answer far longer than any phrasing is cut off and the
/// deterministic text shown; nothing of it is stored.
#[test]
fn an_endless_answer_is_capped() {
    let server = serve(8, |_, _| {
        ok(sse(&"All good. ".repeat(20_000)), "text/event-stream")
    });
    let (out, transcript) = converse(&format!("openai:tiny@{}", server.url), &[]);
    falls_back(&out, "grew past");
    assert!(
        transcript.len() < 200_000,
        "{} bytes stored",
        transcript.len()
    );
}

/// Regression: a server that echoes the API key (in an error or in its
/// text) never gets it onto the screen or into the transcript.
#[test]
fn an_echoed_key_is_redacted_everywhere() {
    let server = serve(8, |_, _| Script {
        status: 401,
        content_type: "application/json",
        pieces: vec![r#"{"error":{"message":"invalid key sk-secret-777"}}"#.into()],
        pause: Duration::ZERO,
    });
    let (out, transcript) = converse(
        &format!("openai:tiny@{}", server.url),
        &[("HEADROOM_API_KEY", "sk-secret-777")],
    );
    falls_back(&out, "HTTP 401");
    assert!(!out.contains("sk-secret-777") && !transcript.contains("sk-secret-777"));
    let server = serve(8, |_, body| {
        ok(
            sse(&format!("Your key sk-secret-777 works. {}", draft_of(body))),
            "text/event-stream",
        )
    });
    let (out, transcript) = converse(
        &format!("openai:tiny@{}", server.url),
        &[("HEADROOM_API_KEY", "sk-secret-777")],
    );
    assert!(
        !out.contains("sk-secret-777") && !transcript.contains("sk-secret-777"),
        "{out}"
    );
}

/// An API key never crosses a network in clear unless the owner says so.
#[test]
fn a_key_is_not_sent_over_plain_http_to_another_machine() {
    let dir = tempfile::tempdir().unwrap();
    let started = std::time::Instant::now();
    let out = Headroom::new(dir.path())
        .args(&["--llm", "openai:m@http://10.255.255.1:9/v1"])
        .env("HEADROOM_API_KEY", "sk-never-in-clear")
        .stdin(&format!("{RUN}\n"))
        .run()
        .ok();
    assert!(
        out.stdout.contains("cross the network in clear"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("--allow-http"), "{}", out.stdout);
    assert!(out.stdout.contains("**Verdict: fits.**"), "{}", out.stdout);
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "it tried to connect"
    );
    // With --allow-http it is the owner's call: headroom tries (and here
    // reaches nothing).
    let out = Headroom::new(dir.path())
        .args(&["--llm", "openai:m@http://10.255.255.1:9/v1", "--allow-http"])
        .env("HEADROOM_API_KEY", "sk-never-in-clear")
        .env("HEADROOM_LLM_CONNECT_TIMEOUT_MS", "200")
        .stdin(&format!("{RUN}\n"))
        .run()
        .ok();
    assert!(!out.stdout.contains("in clear"), "{}", out.stdout);
    assert!(
        out.stdout.contains("(headroom's own text:"),
        "{}",
        out.stdout
    );
}
