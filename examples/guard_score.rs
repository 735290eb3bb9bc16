//! Score recorded model answers against the phrasing guard: each line of an
//! attacks file names the request it answers, the answer, and whether it
//! should be refused or accepted. Prints each miss and the totals.
//!
//!     cargo run --example guard_score -- REQUESTS.txt ATTACKS.jsonl
//!
//! REQUESTS.txt holds the passage blocks as the model received them,
//! separated by lines of `=====`.

use headroom::llm::phrase::checked_passages;
use headroom::llm::template::passages_of;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(requests), Some(attacks)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: guard_score REQUESTS.txt ATTACKS.jsonl");
        std::process::exit(2);
    };
    let requests = std::fs::read_to_string(requests).expect("requests");
    let blocks: Vec<_> = requests.split("\n=====\n").map(passages_of).collect();
    let (mut right, mut total) = (0, 0);
    for line in std::fs::read_to_string(attacks).expect("attacks").lines() {
        let Ok(case) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        let block = &blocks[case["request"].as_u64().unwrap_or(0) as usize];
        let got = checked_passages(case["answer"].as_str().unwrap_or(""), block);
        total += 1;
        if got.is_err() == (case["expect"] == "refuse") {
            right += 1;
            continue;
        }
        println!(
            "MISS {} [{}] expected {}, got {}: {}",
            case["id"].as_str().unwrap_or("?"),
            case["family"].as_str().unwrap_or("?"),
            case["expect"].as_str().unwrap_or("?"),
            match &got {
                Ok(_) => "accepted".to_string(),
                Err(e) => format!("refused ({e})"),
            },
            case["why"].as_str().unwrap_or("")
        );
    }
    println!("{right} of {total} as expected");
}
