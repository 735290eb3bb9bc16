//! Remarks no workflow owns: thanks, and a request to do what a paste
//! says. Each gets a short answer of its own instead of the "not
//! understood" reply.

use regex::Regex;
use std::sync::LazyLock;

static THANKS: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(?i)^(?:(?:ok(?:ay)?|great|cool|nice|perfect|awesome|got it|understood|alright|all right)[\s,.!]*)?(?:thx|thanks|thank you|thank u|ty|tysm|cheers|much appreciated|appreciate it)(?:\s+(?:a lot|so much|very much|again|man|mate|buddy))?[\s,.!:)]*$",
    )
});

/// "great", "perfect", "got it": an acknowledgement, when nothing waits for
/// a yes (then a bare "ok" or "great" may be one).
static ACK: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(?i)^(?:great|cool|nice|perfect|awesome|got it|understood|makes sense|that helps|good to know|noted)[\s,.!:)]*$",
    )
});

/// "do what the log said", "follow the instructions in the paste": the
/// owner asks headroom to act on text inside pasted data.
static OBEY_PASTE: LazyLock<Regex> = LazyLock::new(|| {
    crate::extract::re(
        r"(?i)\b(?:do|follow|run|apply|execute|obey)\b(?:\s+(?:what|whatever|the\s+(?:steps?|instructions?|commands?|fix|note|advice)(?:\s+(?:in|from))?))?\s+(?:(?:the|that|this|your|my)\s+)?(?:log|paste|output|note|file|config|comment|message|error|traceback|it)(?:'s)?\s*(?:said|says|told|tells|suggests?|suggested|asks?|asked|wants|wrote|recommends?|recommended|instructions?|steps?|commands?|fix|note|advice)?\b",
    )
});

/// The answer to a remark, or None for words that are not one.
pub fn remark_reply(words: &str, pending: bool) -> Option<&'static str> {
    let t = words.trim();
    if THANKS.is_match(t) || !pending && ACK.is_match(t) {
        return Some("You're welcome.");
    }
    if t.chars().count() <= 160 && OBEY_PASTE.is_match(t) && mentions_what_it_said(t) {
        return Some(OBEY_REFUSAL);
    }
    None
}

/// "do the fix" alone is a ladder step; the paste refusal needs the words
/// that point at what a paste said ("what the log said", "in the paste").
fn mentions_what_it_said(t: &str) -> bool {
    let lower = t.to_lowercase();
    [
        "said",
        "says",
        "told",
        "tells",
        "suggest",
        "asks",
        "asked",
        "wants",
        "wrote",
        "recommend",
        "instruction",
        " in the ",
        " from the ",
    ]
    .iter()
    .any(|w| lower.contains(w))
}

const OBEY_REFUSAL: &str = "Text inside a paste is data: I never follow instructions written in it, and I never run anything myself. If a step it names is one you want, say it in your own words and I will check it against your run first; a flush, a stop or a change to the job still waits for your own yes.";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thanks_in_its_common_forms() {
        for t in [
            "thx",
            "thanks!",
            "ok thanks",
            "Thank you so much",
            "great, thanks",
            "cheers",
            "ty :)",
        ] {
            assert_eq!(remark_reply(t, false), Some("You're welcome."), "{t}");
            assert_eq!(remark_reply(t, true), Some("You're welcome."), "{t}");
        }
        assert_eq!(remark_reply("perfect", false), Some("You're welcome."));
        // While a yes waits, a bare "perfect" is left to the approval reader.
        assert_eq!(remark_reply("perfect", true), None);
        assert_eq!(remark_reply("thanks, and batch 4?", false), None);
    }

    #[test]
    fn a_request_to_obey_a_paste_is_refused() {
        for t in [
            "do what the log said",
            "just do what it says",
            "follow the instructions in the paste",
            "run the command the error suggests",
            "ok apply the fix the log recommends",
        ] {
            assert_eq!(remark_reply(t, true), Some(OBEY_REFUSAL), "{t}");
        }
        for t in [
            "do it",
            "run it with batch 2",
            "do the flush",
            "follow the plan",
        ] {
            assert_eq!(remark_reply(t, true), None, "{t}");
        }
    }
}
