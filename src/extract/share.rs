//! "Can I run vLLM beside my training?": a question about sharing the pool
//! with an inference server, read from the owner's words, with the memory
//! fraction when they give one.

use crate::extract::re;
use regex::Regex;
use std::sync::LazyLock;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Server {
    Vllm,
    Ollama,
    LlamaCpp,
}

impl Server {
    pub fn label(self) -> &'static str {
        match self {
            Server::Vllm => "vLLM",
            Server::Ollama => "Ollama",
            Server::LlamaCpp => "llama.cpp",
        }
    }
}

/// A sharing question: which server, and the fraction the owner named.
#[derive(Debug, Clone, PartialEq)]
pub struct ShareAsk {
    pub server: Server,
    pub fraction: Option<f64>,
    /// The server is up now and the owner asks to keep it ("can it stay
    /// up while this trains?"), not to start it.
    pub stays: bool,
}

static SERVER: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)\b(vllm|ollama|llama[\s.-]?cpp|llama-server)\b"));
/// Words that put the server and the run on the box at once.
static TOGETHER: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(beside|alongside|next to|at the same time|same time|together|concurrently|simultaneously|in parallel|shar(?:e|es|ed|ing)|coexist\w*|while (?:(?:i(?:'m| am)?|this|it|that|the|my|our|[\w-]+ing) )?(?:\w+ )?(?:train|fine-?tun|q?lora|sft|run)\w*|keep (?:\w+ )?running|stay(?:s|ing)? (?:up|on|running|loaded|alive)|leave (?:\w+ ){0,2}(?:up|running|loaded)|with (?:my|the|this) (?:training|trainer|run|fine-?tune|job)|during (?:my |the )?(?:training|run|fine-?tune)|(?:does|do|would|will) (?:that|it|both|they) (?:still )?fit|bring (?:\w+ )?back|(?:start|restart|launch|run|spin|turn) (?:\w+ )?(?:up )?(?:again|back)|on the same (?:node|box|spark|machine)|how much (?:memory |room |of the pool )?(?:does|will|would|do) (?:the )?(?:vllm|ollama)(?: part| side| generator| server| bit)? (?:take|use|need|hold|claim|eat)\w*)\b",
    )
});
/// The server is running and would stay so.
static STAYS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:stay(?:s|ing)? (?:up|on|running|loaded|alive)|keep (?:\w+ )?(?:running|up|loaded)|leave (?:\w+ ){0,2}(?:up|running|loaded)|(?:is|it's|is still|already) (?:up|running)|rather not restart)\b",
    )
});
/// "I stopped vllm, does it fit now?" is about the run alone.
static GONE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(stopped|killed|shut (?:it )?down|turned (?:it )?off|no longer|not running|isn'?t running|without)\b",
    )
});
static FRACTION: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)(?:gpu[\s_-]?memory[\s_-]?utili[sz]ation|utili[sz]ation|fraction|capped at|cap(?: of)?|at)\s*(?:=|of|to|at)?\s*(0?\.\d+)\b",
    )
});

static BARE_FRACTION: LazyLock<Regex> = LazyLock::new(|| re(r"(?:^|[^\d.])(0?\.\d+)\b"));
static MOST: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:most|max(?:imum)?|largest|biggest|highest|(?:what|which)(?: (?:lower|smaller|safe|other))? (?:frac(?:tion)?|util(?:i[sz]ation)?|gpu[\s_-]?mem(?:ory)?[\s_-]?util(?:i[sz]ation)?|setting|value|number) (?:would|will|could|should|can|to)\b|(?:what|which) (?:frac(?:tion)?|util(?:i[sz]ation)?)\s*(?:then|now|for (?:it|vllm))?\s*\?)",
    )
});
static INSTEAD: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)\b(?:instead|if it was|if it were|what about|how about)\b"));

/// "how do I restart it at 0.4?", "relaunch vllm with 0.35": a restart of
/// the server at a fraction the owner chose.
static RESTART: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:restart|re-?launch|re-?start|relaunch|bring (?:it|vllm|the server) back|start (?:it|vllm|the server) (?:again|back up))\b",
    )
});

static CONDITIONAL: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)\b(?:if|whether|would|could|should)\b"));

/// The fraction of a restart the owner asks for, if these words ask one.
pub fn restart_at(text: &str) -> Option<f64> {
    // "and if I bring vllm back at 0.5?" weighs it: the share arithmetic.
    if !RESTART.is_match(text) || CONDITIONAL.is_match(text) {
        return None;
    }
    BARE_FRACTION
        .captures(text)
        .and_then(|c| c[1].parse::<f64>().ok())
        .filter(|f| *f > 0.0 && *f < 1.0)
}

/// A follow-up on a server already in the conversation: "so 0.3 would
/// work?", "what's the most I could give vllm?", "and if it was ollama
/// instead?". Only asked where a server is the topic.
/// "what's the biggest fraction that still lets my run fit?": the largest
/// fraction alone is the answer, not the whole claim again.
pub fn asks_most(text: &str) -> bool {
    MOST.is_match(text) && !BARE_FRACTION.is_match(text)
}

pub fn share_follow_up(text: &str) -> Option<ShareAsk> {
    let named = SERVER.captures(text).map(|c| c[1].to_ascii_lowercase());
    let fraction = BARE_FRACTION
        .captures(text)
        .and_then(|c| c[1].parse::<f64>().ok())
        .filter(|f| *f > 0.0 && *f < 1.0);
    let asks =
        fraction.is_some() || MOST.is_match(text) || (named.is_some() && INSTEAD.is_match(text));
    if !asks || GONE.is_match(text) {
        return None;
    }
    let server = match named.as_deref() {
        Some(w) if w.starts_with("ollama") => Server::Ollama,
        Some(w) if w.starts_with("llama") => Server::LlamaCpp,
        _ => Server::Vllm,
    };
    Some(ShareAsk {
        server,
        fraction,
        stays: STAYS.is_match(text),
    })
}

/// Is this a question about running a server beside the training run?
pub fn share_question(text: &str) -> Option<ShareAsk> {
    if !TOGETHER.is_match(text) || GONE.is_match(text) {
        return None;
    }
    let word = SERVER.captures(text)?[1].to_ascii_lowercase();
    let server = if word.starts_with("vllm") {
        Server::Vllm
    } else if word.starts_with("ollama") {
        Server::Ollama
    } else {
        Server::LlamaCpp
    };
    let fraction = FRACTION
        .captures(text)
        .and_then(|c| c[1].parse::<f64>().ok())
        .filter(|f| *f > 0.0 && *f <= 1.0);
    Some(ShareAsk {
        server,
        fraction,
        stays: STAYS.is_match(text),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sharing_questions_in_everyday_words() {
        for (text, server, fraction) in [
            ("can I run vllm beside my training?", Server::Vllm, None),
            (
                "I want vllm with gpu-memory-utilization 0.3 next to it, does that fit?",
                Server::Vllm,
                Some(0.3),
            ),
            (
                "can ollama share the box with the trainer?",
                Server::Ollama,
                None,
            ),
            (
                "will llama.cpp fit alongside the fine-tune",
                Server::LlamaCpp,
                None,
            ),
            ("vllm at 0.25 while I train, ok?", Server::Vllm, Some(0.25)),
            (
                "and if I bring vllm back on the same node at 0.5?",
                Server::Vllm,
                Some(0.5),
            ),
            ("can I start ollama again after that?", Server::Ollama, None),
            (
                "and can the vllm server just stay up while this trains? I'd rather not restart it",
                Server::Vllm,
                None,
            ),
            ("leave ollama running during it?", Server::Ollama, None),
            ("is vllm ok to stay loaded?", Server::Vllm, None),
            ("will vllm be fine while the job runs", Server::Vllm, None),
        ] {
            let ask = share_question(text);
            assert_eq!(
                ask.as_ref().map(|a| (a.server, a.fraction)),
                Some((server, fraction)),
                "{text}"
            );
        }
    }

    #[test]
    fn a_server_kept_up_is_told_from_one_started() {
        for text in [
            "can the vllm server just stay up while this trains?",
            "leave ollama running during it?",
            "vllm is already running, can I train beside it?",
            "can I keep vllm up while I train",
        ] {
            assert!(share_question(text).is_some_and(|a| a.stays), "{text}");
        }
        for text in [
            "can I run vllm beside my training?",
            "and if I bring vllm back on the same node at 0.5?",
            "can I start ollama again after that?",
        ] {
            assert!(share_question(text).is_some_and(|a| !a.stays), "{text}");
        }
    }

    #[test]
    fn which_fraction_works_is_asking_the_largest_but_what_it_does_is_not() {
        for text in [
            "what frac would work",
            "which fraction should I use then?",
            "what gpu memory utilization would do it",
            "what safe value could vllm take",
        ] {
            assert!(asks_most(text), "{text}");
        }
        for text in [
            "what does gpu-memory-utilization do for vllm?",
            "what is the fraction for?",
            "which setting does vllm read",
        ] {
            assert!(!asks_most(text), "{text}");
        }
    }

    #[test]
    fn a_restart_at_a_fraction() {
        assert_eq!(restart_at("ok how do i restart it at 0.4"), Some(0.4));
        assert_eq!(restart_at("relaunch vllm with .35 then?"), Some(0.35));
        assert_eq!(restart_at("bring it back at 0.5"), Some(0.5));
        assert_eq!(restart_at("can both run at 0.4?"), None);
        assert_eq!(restart_at("restart it"), None);
        assert_eq!(restart_at("and if I bring vllm back at 0.5?"), None);
        assert_eq!(restart_at("would a restart at 0.3 work?"), None);
    }

    #[test]
    fn other_words_are_not_a_sharing_question() {
        assert_eq!(
            share_question("what does gpu-memory-utilization do for vllm?"),
            None
        );
        assert_eq!(
            share_question("can I run two trainings at the same time"),
            None
        );
        assert_eq!(share_question("LoRA on Qwen2.5 7B, batch 2"), None);
        assert_eq!(share_question("I stopped vllm, does it fit now?"), None);
        assert_eq!(
            share_question("would it fit without ollama running beside it?"),
            None
        );
    }
}
