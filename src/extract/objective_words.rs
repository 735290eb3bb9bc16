//! The objective in the owner's words or a pasted trainer config: "GRPO
//! with 8 generations, vllm colocate at 0.3", `num_generations=8`,
//! `max_completion_length: 512`, "DPO with precomputed reference log-probs".
//! Each part is optional; the dialogue merges them turn by turn.

use crate::calc::objective::{ObjectiveSpec, Reference};
use crate::extract::re;
use regex::Regex;
use std::sync::LazyLock;

static KIND: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(dpo|ipo|kto|orpo|grpo|rloo|ppo)\b|\b(DPOConfig|GRPOConfig|KTOConfig|ORPOConfig|RLOOConfig|PPOConfig)\b",
    )
});
static GENERATIONS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:num_generations|num_samples_per_prompt_rollout|n_samples_per_prompt|rollout\.n)(?:\s*[=:]\s*|\s+)(\d+)|\b(\d+)\s*(?:generations|gens|completions per prompt|samples per prompt|rollouts per prompt|completions each)\b",
    )
});
static PROMPT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:max_prompt_length|max_prompt_token_length|prompt_max_len)(?:\s*[=:]\s*|\s+)(\d+)|\bprompts? (?:length |len |lengths |are |is )?(?:of |up to |at most |about |around |roughly |under |~ ?)?(\d+)\b(?:\s*tokens?)?|\b(\d+)[- ]token prompts?\b",
    )
});
static COMPLETION: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:max_completion_length|max_response_length|response_length|generate_max_len)(?:\s*[=:]\s*|\s+)(\d+)|\bcompletions? (?:length |len |lengths |are |is )?(?:of |up to |at most |about |around |roughly |under |~ ?)?(\d+)\b|\b(\d+)[- ]token completions?\b",
    )
});
/// "chosen up to 700 tokens", "max chosen len 700", "rejected ~500".
static CHOSEN: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:longest |max(?:imum)? )?chosen(?: sequences?| responses?| rows?)?(?: lengths?| len)(?: is| are| of| up to| at most| about| around|:|=|~)*\s*(\d{2,})\b|\bchosen(?: sequences?| responses?| rows?)?(?: is| are| of| up to| at most| about| around|:|=|~)*\s*(\d{2,})\s*(?:tokens?|tok)\b|\bchosen(?: sequences?| responses?| rows?)? (?:up to|at most) (\d{2,})\b",
    )
});
static REJECTED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:longest |max(?:imum)? )?rejected(?: sequences?| responses?| rows?)?(?: lengths?| len)(?: is| are| of| up to| at most| about| around|:|=|~)*\s*(\d{2,})\b|\brejected(?: sequences?| responses?| rows?)?(?: is| are| of| up to| at most| about| around|:|=|~)*\s*(\d{2,})\s*(?:tokens?|tok)\b|\brejected(?: sequences?| responses?| rows?)? (?:up to|at most) (\d{2,})\b",
    )
});
/// "pairs up to 700 tokens": both sequences.
static PAIRS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:preference )?pairs?(?: are| of)?(?: only| just| all)?(?: up to| at most| under| about| around| roughly| max(?:imum)?| below)\s*(\d+)\s*(?:tokens?|tok)\b",
    )
});
static BETA: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)\bbeta(?:\s*(?:=|:|of|is|at)\s*|\s+)(\d*\.?\d+)\b"));
static NO_REFERENCE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\bno (?:ref|reference)(?: model)?\b|\bwithout (?:a |the )?(?:ref|reference)(?: model)?\b|\bref_model\s*=\s*None\b",
    )
});
static PRECOMPUTED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\bpre-?comput(?:e|ed|ing)[_ ](?:the\s+)?(?:ref|reference)\w*|\bprecompute_ref_log_probs\s*[=:]\s*true\b|\bcach(?:e|ed|ing)\s+(?:the\s+)?(?:ref|reference)\s+log-?\s?probs\b|\b(?:ref|reference)\s+log-?\s?probs\s+(?:cached|precomputed)\b|\bdpo_tune_cache\b",
    )
});
static SERVER: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)\bvllm_mode\s*[=:]\s*["']?server|\btrl vllm-serve\b|\bserver mode\b|\bvllm (?:as a |in )?server\b"#,
    )
});
static COLOCATE: LazyLock<Regex> = LazyLock::new(|| {
    re(r#"(?i)\bvllm_mode\s*[=:]\s*["']?colocate|\bcolocat\w*|\bfast_inference\s*[=:]\s*true\b"#)
});
static FRACTION: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\bvllm_gpu_memory_utilization(?:\s*[=:]\s*|\s+)(0?\.\d+)|\bgpu_memory_utilization\s*[=:]\s*(0?\.\d+)|\bcolocat\w*\s+(?:vllm\s+)?(?:at|with|@)\s+(0?\.\d+)|\bvllm (?:colocat\w* )?at (0?\.\d+)",
    )
});
/// The generator's fraction as a config key writes it, for a config that
/// is an RL run by its keys (generations, completion lengths) even where
/// no word names the method (open-instruct's `grpo_fast.py` flags).
pub fn config_fraction(text: &str) -> Option<f64> {
    FRACTION.captures(text)?.get(1)?.as_str().parse().ok()
}

static NO_VLLM: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)\buse_vllm\s*[=:]\s*false\b|\b(?:without|no) vllm\b|\bfast_inference\s*[=:]\s*false\b")
});
static USE_VLLM: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)\buse_vllm\s*[=:]\s*true\b|\b(?:with|using|via|through|on) vllm\b"));
static SHARED: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)\bfast_inference\s*[=:]\s*true\b|\bshared? (?:the )?weights\b"));

fn first_number(c: &regex::Captures) -> Option<String> {
    c.iter()
        .skip(1)
        .flatten()
        .next()
        .map(|m| m.as_str().to_string())
}

/// The parts of an objective the text names, with the words that named
/// them; `None` when it names none.
pub fn objective_in(text: &str) -> Option<(ObjectiveSpec, String)> {
    let mut words: Vec<String> = Vec::new();
    let mut take = |pattern: &Regex| -> Option<String> {
        let c = pattern.captures(text)?;
        words.push(c[0].trim().to_string());
        first_number(&c).or_else(|| Some(c[0].to_string()))
    };
    let kind = take(&KIND).map(|k| {
        k.to_ascii_lowercase()
            .trim_end_matches("config")
            .to_string()
    });
    let rl_words = kind
        .as_deref()
        .is_some_and(|k| matches!(k, "grpo" | "rloo" | "ppo"));
    let number = |n: Option<String>| n.and_then(|n| n.parse::<u64>().ok());
    let chosen = number(take(&CHOSEN));
    let rejected = number(take(&REJECTED));
    let pairs = if chosen.or(rejected).is_none() {
        number(take(&PAIRS))
    } else {
        None
    };
    let spec = ObjectiveSpec {
        generations: take(&GENERATIONS).and_then(|n| n.parse().ok()),
        prompt: take(&PROMPT).and_then(|n| n.parse().ok()),
        completion: take(&COMPLETION).and_then(|n| n.parse().ok()),
        chosen: chosen.or(pairs),
        rejected: rejected.or(pairs),
        beta: take(&BETA).and_then(|n| n.parse().ok()),
        reference: if take(&PRECOMPUTED).is_some() {
            Some(Reference::Precomputed)
        } else if take(&NO_REFERENCE).is_some() {
            Some(Reference::None)
        } else {
            None
        },
        vllm: if take(&SERVER).is_some() {
            Some("server".into())
        } else if take(&COLOCATE).is_some() {
            Some("colocate".into())
        } else if take(&NO_VLLM).is_some() {
            Some("policy".into())
        } else if rl_words && take(&USE_VLLM).is_some() {
            // Named without a mode: TRL's default since v1.0, colocate.
            Some("colocate".into())
        } else {
            None
        },
        // "vllm at 0.3" is a generator's fraction only in an RL sentence;
        // elsewhere it is a server beside the run.
        fraction: if rl_words || text.to_ascii_lowercase().contains("colocat") {
            take(&FRACTION).and_then(|n| n.parse().ok())
        } else {
            None
        },
        shared: take(&SHARED).map(|_| true),
        kind,
    };
    (spec != ObjectiveSpec::default()).then(|| (spec, words.join(", ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grpo_in_words_and_in_config_keys() {
        let (s, _) = objective_in(
            "I'm doing GRPO on Qwen3 8B with LoRA, 8 generations, vllm colocate at 0.3",
        )
        .unwrap();
        assert_eq!(s.kind.as_deref(), Some("grpo"));
        assert_eq!(s.generations, Some(8));
        assert_eq!(s.vllm.as_deref(), Some("colocate"));
        assert_eq!(s.fraction, Some(0.3));
        let (s, _) = objective_in(
            "GRPOConfig(num_generations=4, max_prompt_length=256, max_completion_length=1024, beta=0.0, use_vllm=True, vllm_mode=\"server\")",
        )
        .unwrap();
        assert_eq!(s.kind.as_deref(), Some("grpo"));
        assert_eq!(
            (s.generations, s.prompt, s.completion, s.beta),
            (Some(4), Some(256), Some(1024), Some(0.0))
        );
        assert_eq!(s.vllm.as_deref(), Some("server"));
        // Lengths said loosely (set 14, 12 T1).
        for (t, prompt, completion) in [
            (
                "GRPO on qwen2.5 7b with lora, 8 generations, vllm colocate at 0.3, completions up to 1024, prompts about 512",
                512,
                1024,
            ),
            (
                "grpo, prompts around 256 tokens, completion length of 768",
                256,
                768,
            ),
            (
                "grpo with prompts ~300 and completions under 2048",
                300,
                2048,
            ),
        ] {
            let (s, _) = objective_in(t).unwrap();
            assert_eq!(
                (s.prompt, s.completion),
                (Some(prompt), Some(completion)),
                "{t}"
            );
        }
    }

    #[test]
    fn preference_runs_and_their_reference() {
        let (s, _) =
            objective_in("full DPO of qwen3 0.6b with precomputed reference log-probs").unwrap();
        assert_eq!(s.kind.as_deref(), Some("dpo"));
        assert_eq!(s.reference, Some(Reference::Precomputed));
        for said in [
            "Is precompute the reference logprobs helping me here?",
            "what if I precompute the ref log-probs",
            "with cached reference log-probs",
            "reference logprobs precomputed",
        ] {
            let (s, _) = objective_in(said).unwrap();
            assert_eq!(s.reference, Some(Reference::Precomputed), "{said}");
        }
        let (s, _) = objective_in("orpo, no reference model").unwrap();
        assert_eq!(s.reference, Some(Reference::None));
        // A follow-up that only changes a part.
        let (s, _) = objective_in("make it 16 generations").unwrap();
        assert_eq!((s.kind, s.generations), (None, Some(16)));
    }

    #[test]
    fn chosen_or_rejected_without_a_length_is_no_length() {
        for t in [
            "DPO: I've chosen 8 for the batch",
            "dpo, the rejected 2 times were retried",
        ] {
            let (s, _) = objective_in(t).unwrap();
            assert_eq!((s.chosen, s.rejected), (None, None), "{t}");
        }
        let (s, _) = objective_in("dpo, chosen length 700, rejected up to 600").unwrap();
        assert_eq!((s.chosen, s.rejected), (Some(700), Some(600)));
    }

    #[test]
    fn sft_words_name_no_objective() {
        for t in [
            "lora on llama 3.1 8b, batch 4, packing 2048",
            "can I run vllm at 0.3 beside my training?",
            "what does gpu-memory-utilization do?",
        ] {
            assert_eq!(objective_in(t), None, "{t}");
        }
    }
}
