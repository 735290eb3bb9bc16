//! Memory another process holds, said in words: "someone loaded gpt-oss
//! 120b in it, like 65gb", "vllm is sitting on 40 GB".
//!
//! Only sentences already known to be about a server or another person's
//! job are read here, so the figure is theirs, never a run setting.

use crate::calc::units::centi_gb_up;
use regex::Regex;
use std::sync::LazyLock;

/// "65gb", "like 65 GB", "~40 GiB", "30G": a size, with its unit.
static SIZE: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(?i)(?:^|[^\w.])(?:like|about|around|roughly|~|some)?\s*(\d{1,3}(?:\.\d+)?)\s*(gib|gb|gigs?|g)\b(\s+(?:available|avail|free|left))?",
    )
});
/// Which server the sentence names.
static SERVER: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(r"(?i)\b(ollama|vllm|sglang|llama[.-]?cpp|llama-server|tgi|lm ?studio)\b")
});

/// What the sentence says another process holds: (who, hundredths of a GB,
/// the words). None without a size, or when the size is free memory.
pub fn held_in_words(sentence: &str) -> Option<(String, u64, String)> {
    let c = SIZE.captures_iter(sentence).find(|c| c.get(3).is_none())?;
    let (bytes, _) = crate::extract::available_said::said_size(&c[1], &c[2])?;
    let who = SERVER
        .find(sentence)
        .map_or("the model loaded beside it", |m| {
            match m.as_str().to_ascii_lowercase().as_str() {
                "ollama" => "Ollama",
                "vllm" => "vLLM",
                "sglang" => "SGLang",
                "tgi" => "TGI",
                _ => "the inference server",
            }
        });
    let words: String = sentence.trim().chars().take(80).collect();
    Some((
        format!("{who} (your words: \"{words}\")"),
        centi_gb_up(bytes),
        words,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_size_said_of_another_process_is_what_it_holds() {
        let (who, centi, _) =
            held_in_words("someone just loaded gpt-oss 120b in it, like 65gb").unwrap();
        assert_eq!(centi, 6500);
        assert!(who.starts_with("the model loaded beside it"), "{who}");
        let (who, centi, _) = held_in_words("vllm is sitting on 40 GiB").unwrap();
        assert_eq!(centi, 4295); // 40 × 1.073741824 = 42.95 GB, rounded up
        assert!(who.starts_with("vLLM"), "{who}");
    }

    #[test]
    fn free_memory_or_no_size_is_nothing_held() {
        assert_eq!(held_in_words("ollama says 60 GB free"), None);
        assert_eq!(held_in_words("my colleague started llama 3.3 70b"), None);
        assert_eq!(held_in_words("he loaded 500 GB of data"), None);
    }
}
