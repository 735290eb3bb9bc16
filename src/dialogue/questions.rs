//! Plain domain questions answered from knowledge/questions.md, each answer
//! with its row and source. A question changes nothing.

use crate::knowledge::Knowledge;
use crate::knowledge::questions::DomainAnswer;

/// The rows a question selects, in table order, at most three.
pub fn matching<'k>(text: &str, k: &'k Knowledge) -> Vec<&'k DomainAnswer> {
    matching_after(text, k, &[])
}

static COMPARED_WITH: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    crate::extract::re(
        r"\b(?:like|similar to|equivalent (?:of|to)|the same as|analogous to|as in)\s+(?:vllm|ollama|llama\.cpp|sglang|tgi)(?:'s)?(?:\s+(?:`[^`]*`|[\w-]+)){0,2}",
    )
});

/// The same, right after an answer on the topics `last`.
pub fn matching_after<'k>(text: &str, k: &'k Knowledge, last: &[String]) -> Vec<&'k DomainAnswer> {
    // "does ollama have something like vllm's gpu-memory-utilization?" is
    // about Ollama: what a question compares with is not its subject.
    let lower = COMPARED_WITH
        .replace_all(&text.to_ascii_lowercase(), " ")
        .into_owned();
    k.answers
        .iter()
        .filter(|a| a.keywords.iter().any(|w| w.found_in(&lower, last)))
        .take(3)
        .collect()
}

/// Each answer for the question with its topic, leaving out `covered`.
pub fn answers_after(
    text: &str,
    k: &Knowledge,
    covered: &[&str],
    last: &[String],
) -> Vec<(String, String)> {
    matching_after(text, k, last)
        .into_iter()
        .filter(|a| !covered.contains(&a.topic.as_str()))
        .map(|a| {
            (
                a.topic.clone(),
                format!(
                    "{} [knowledge/questions.md row {}: {}]",
                    a.answer, a.row, a.source
                ),
            )
        })
        .collect()
}

/// One paragraph per matching row, cited.
pub fn answer_texts(text: &str, k: &Knowledge) -> Vec<String> {
    answer_texts_except(text, k, &[])
}

/// The same, leaving out the topics a paste in the turn already answers.
pub fn answer_texts_except(text: &str, k: &Knowledge, covered: &[&str]) -> Vec<String> {
    answers_after(text, k, covered, &[])
        .into_iter()
        .map(|(_, text)| text)
        .collect()
}

/// A row by topic (the engine adds some answers without being asked, such
/// as why nvidia-smi shows no memory when its table is pasted).
pub fn by_topic(topic: &str, k: &Knowledge) -> Option<String> {
    k.answers.iter().find(|a| a.topic == topic).map(|a| {
        format!(
            "{} [knowledge/questions.md row {}: {}]",
            a.answer, a.row, a.source
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn topics(text: &str) -> Vec<String> {
        matching(text, Knowledge::embedded())
            .into_iter()
            .map(|a| a.topic.clone())
            .collect()
    }

    #[test]
    fn the_questions_owners_ask() {
        assert_eq!(topics("what can you do?"), ["capabilities"]);
        assert!(
            topics("how fast will Llama 3.1 8B LoRA train on this box, tokens per second?")
                .contains(&"speed_time".to_string())
        );
        assert!(
            topics("what does gpu-memory-utilization actually do for vllm?")
                .contains(&"vllm_cap".to_string())
        );
        assert!(
            topics("what does the flush do, why does drop_caches need root?")
                .contains(&"flush".to_string())
        );
        assert!(
            topics("why does nvidia-smi say Not Supported for memory?")
                .contains(&"nvidia_smi_gb10".to_string())
        );
        assert!(topics("QLoRA on Llama 3.1 70B, batch 1").is_empty());
        // Set 14's plain questions, and the settings and what-ifs beside
        // them that ask nothing.
        for (q, topic) in [
            (
                "what means paged_adamw? it is using less memory?",
                "optimizer_memory",
            ),
            ("does adamw_8bit save much memory", "optimizer_memory"),
            (
                "what's the difference between adamw and adamw 8bit",
                "optimizer_memory",
            ),
            ("thank you. and lora_r 16 is more better?", "lora_rank"),
            ("is a higher lora rank better?", "lora_rank"),
            (
                "what power is normal for this box when training?",
                "power_cap",
            ),
            ("how many watts should it draw", "power_cap"),
        ] {
            assert!(
                topics(q).contains(&topic.to_string()),
                "{q}: {:?}",
                topics(q)
            );
        }
        for s in [
            "what if adamw_8bit",
            "optimizer paged_adamw_8bit",
            "lora rank 32, batch 2",
        ] {
            assert!(topics(s).is_empty(), "{s}: {:?}", topics(s));
        }
    }

    #[test]
    fn every_answer_cites_a_source() {
        for a in &Knowledge::embedded().answers {
            assert!(!a.source.is_empty(), "{}", a.topic);
        }
    }
}
