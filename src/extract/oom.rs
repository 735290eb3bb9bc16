//! Recognises an out-of-memory report and the owner's answers on the OOM
//! ladder: the phase (mid-load or mid-step), a step's result, and a step the
//! owner says they already took.

use crate::extract::re;
use regex::Regex;
use serde::Serialize;
use std::sync::LazyLock;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// While loading the checkpoint (shards, quantization).
    MidLoad,
    /// During training steps.
    MidStep,
}

impl Phase {
    pub fn label(self) -> &'static str {
        match self {
            Phase::MidLoad => "mid-load",
            Phase::MidStep => "mid-step",
        }
    }
}

/// An OOM the owner reported, with what could be read from it.
#[derive(Debug, Clone, PartialEq)]
pub struct OomReport {
    pub phase: Option<Phase>,
    pub at_step: Option<u64>,
    /// "Tried to allocate 2.00 GiB", when a traceback says so.
    pub tried_to_allocate: Option<String>,
    /// The line that showed it, for quoting back.
    pub evidence: String,
    /// The memory figures PyTorch printed with it.
    pub figures: Option<crate::extract::oom_figures::OomFigures>,
}

/// A rung of the ladder, in the seed's order, with a preference or RL
/// run's own steps after step 1 (issue 20's order: fewer generations,
/// shorter completions, a lower colocate fraction, precomputed reference
/// log-probs, the reference shared by LoRA).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Rung {
    Flush,
    Generations,
    Completion,
    Colocate,
    Reference,
    Packing,
    Batch,
    LoraReference,
    Method,
}

/// The runs a rung belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RungFamily {
    /// Every run (the seed's rungs).
    Any,
    /// GRPO, RLOO, PPO: generation.
    Rl,
    /// DPO, IPO, KTO, ORPO.
    Preference,
    /// A preference or RL run that may hold a reference model.
    Reference,
}

impl Rung {
    pub const ALL: [Rung; 9] = [
        Rung::Flush,
        Rung::Generations,
        Rung::Completion,
        Rung::Colocate,
        Rung::Reference,
        Rung::Packing,
        Rung::Batch,
        Rung::LoraReference,
        Rung::Method,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Rung::Flush => "step 1: flush the page cache between runs",
            Rung::Generations => "RL step: fewer generations per prompt",
            Rung::Completion => "RL step: shorter completions",
            Rung::Colocate => "RL step: a lower colocate fraction",
            Rung::Reference => "precomputed reference log-probs",
            Rung::Packing => "step 2: shorter packing",
            Rung::Batch => "step 2: smaller batch",
            Rung::LoraReference => "full → LoRA (the base is the reference)",
            Rung::Method => "step 3: QLoRA → bf16 LoRA",
        }
    }

    /// The rung in a few words, for the ladder's order line.
    pub fn short(self) -> &'static str {
        match self {
            Rung::Flush => "flush the page cache between runs",
            Rung::Generations => "fewer generations",
            Rung::Completion => "shorter completions",
            Rung::Colocate => "a lower colocate fraction",
            Rung::Reference => "precomputed reference log-probs",
            Rung::Packing => "shorter packing",
            Rung::Batch => "a smaller batch",
            Rung::LoraReference => "full → LoRA, so the base is the reference",
            Rung::Method => "QLoRA → bf16 LoRA",
        }
    }

    pub fn family(self) -> RungFamily {
        match self {
            Rung::Generations | Rung::Completion | Rung::Colocate => RungFamily::Rl,
            Rung::Reference => RungFamily::Preference,
            Rung::LoraReference => RungFamily::Reference,
            Rung::Flush | Rung::Packing | Rung::Batch | Rung::Method => RungFamily::Any,
        }
    }
}

static OOM: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)(out of memory|OutOfMemoryError|\boom(?:ed|'d|d|s|ing|-killed|-kill)?\b|oom-kill|NV_ERR_NO_MEMORY|killed process|cudaErrorMemoryAllocation|CUBLAS_STATUS_ALLOC_FAILED|ran out of memory|got killed|was killed|\bkilled\b.*(?:load|shard|step|train)|\b(?:dies|died|crash(?:es|ed)?)\b.*(?:load|shard|step|train|epoch|iter|batch|forward|backward)|\b(?:dies|died) again\b|\b(?:froze|freez\w*|hung|hangs|locked up|wedged)\W+(?:\S+\W+){0,3}?(?:mid-step|mid-load|load\w*|shard\w*|step\w*|train\w*|epoch\w*)|\b(?:machine|box|system|spark|host|desktop|computer)\s+(?:\w+\s+)?(?:froze|freezes|frozen|hung|hangs|locked up|wedged)\b)",
    )
});
static LOAD: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)(while loading|during load(?:ing)?|loading (?:checkpoint )?shards|mid[\s-]?load|at load|when loading|from_pretrained|quantiz(?:ing|ation) the model|Loading checkpoint shards)",
    )
});
static RESUMED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:when|while|as|after) (?:i |we )?(?:resumed?|resuming|restarted|restarting) (?:it |the run |training )?from (?:the |a |my )?(?:last )?checkpoint|\b(?:on|at|during) (?:the )?resume\b|\bresum(?:e|ing) from (?:the |a |my )?(?:last )?checkpoint\b",
    )
});
static STEP_WORDS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)(mid[\s-]?step|during (?:a )?(?:training )?step|\b(?:first|1st|initial|second|2nd)\s+(?:training\s+)?(?:step|iteration|iter|batch|forward|backward)|(?:as soon as|right when|right after|when|once) (?:the )?training (?:starts|begins|started|began|kicks in)|in the middle of training|(?:during|while|mid)[\s-]training|in backward|in forward|\bbackward\b|optimizer\.step|\bat step\b|after \d+ steps|loss\.backward|training_step|\bepoch\b|it/s\]|s/it\]|trainer\.train\(\)|\d+/\d+ \[)",
    )
});
static AT_STEP: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)(?:\bat step|\bstep|after)\s+(\d+)(?:\s+steps)?"));
static TRIED: LazyLock<Regex> = LazyLock::new(|| re(r"Tried to allocate ([\d.]+ [KMGT]i?B)"));

/// "and if it OOMs anyway, what first?", "in case it dies at load": an OOM
/// supposed, not reported. The conditional governs the OOM's own clause
/// ("not sure if it matters but it OOMed" still reports one).
pub fn supposed_oom(text: &str) -> bool {
    // "so the process killed is my trainer?": a question about the last
    // report, not a new one.
    if crate::extract::intent::follow_up(text) == Some(crate::extract::intent::FollowUp::Victim) {
        return true;
    }
    static SUPPOSE: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?i)\b(?:if|in case|unless|whether|suppose|supposing|would|could|might|should it|will it|what if|what happens)\b",
        )
    });
    let Some(m) = OOM.find(text) else {
        return false;
    };
    let before = &text[..m.start()];
    let clause = before
        .rfind(['.', ',', ';', '!', '?', '\n'])
        .map_or(before, |i| &before[i + 1..]);
    // The part after the last "but" / "and" / "so": "and if it" keeps its
    // "if"; "if it matters but it" does not.
    static JOIN: LazyLock<Regex> = LazyLock::new(|| re(r"(?i)\b(?:but|and|so|then)\b"));
    let last = JOIN.split(clause).last().unwrap_or(clause);
    let last = if last.trim().is_empty() { clause } else { last };
    // "I keep seeing github threads where GRPO OOMs", "I'm nervous it
    // OOMs": hearsay and worry are not a report either.
    static HEARSAY: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?i)\b(?:seeing|seen|read|reading|heard|hear)\b.{0,40}\b(?:threads?|posts?|issues?|people|reports?|others|blogs?|reddit|forums?|github|stories)\b|\b(?:people|others|folks|everyone)\b|\b(?:reportedly|apparently|tends? to|known to|nervous|worried|afraid|scared|in general|usually|often)\b",
        )
    });
    SUPPOSE.is_match(last) || HEARSAY.is_match(clause) || asked_oom(text)
}

/// "is it out of memory again??", "was that an OOM?": asked, not told.
pub fn asked_oom(text: &str) -> bool {
    static ASK: LazyLock<Regex> = LazyLock::new(|| {
        re(r"(?i)\b(?:is|was|are|were|did|does|could|can)\s+(?:it|this|that|these|those)\b")
    });
    // Any sentence of the turn: "it died at step 40. was it an OOM?" asks.
    OOM.find_iter(text).any(|m| {
        let start = text[..m.start()]
            .rfind(['.', '!', '?', '\n'])
            .map_or(0, |i| i + 1);
        let end = text[m.end()..]
            .find(['.', '!', '?', '\n'])
            .map_or(text.len(), |i| m.end() + i);
        text[end..].starts_with('?') && ASK.is_match(&text[start..m.start()])
    })
}

/// Does the text report an OOM? Reads tracebacks, kernel OOM-killer lines
/// and plain words.
pub fn oom_report(text: &str) -> Option<OomReport> {
    let line = text.lines().find(|l| OOM.is_match(l))?;
    let phase = if LOAD.is_match(text) {
        Some(Phase::MidLoad)
    } else if STEP_WORDS.is_match(text) || AT_STEP.is_match(text) {
        Some(Phase::MidStep)
    } else if RESUMED.is_match(text) {
        // A resume from a checkpoint that failed before any step: it was
        // loading the weights and optimizer states.
        Some(Phase::MidLoad)
    } else {
        None
    };
    Some(OomReport {
        phase,
        at_step: AT_STEP.captures(text).and_then(|c| c[1].parse().ok()),
        tried_to_allocate: TRIED.captures(text).map(|c| c[1].to_string()),
        evidence: line.trim().chars().take(200).collect(),
        figures: crate::extract::oom_figures::oom_figures(text),
    })
}

static PASTED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?m)(?:^\s*(?:Traceback \(most recent call last\)|torch\.(?:cuda\.)?OutOfMemoryError|RuntimeError: CUDA|\[\s*\d+\.\d+\]|\w{3}\s+\d+ [\d:]+ \S+ kernel:|kernel:|NVRM:)|oom-kill:|Out of memory: Killed process|NV_ERR_NO_MEMORY|^\s*(?:\[|\d{4}-\d\d-\d\d[ T]).*CUDA out of memory\. Tried to allocate)",
    )
});

/// True for a pasted traceback or kernel log that reports an OOM (the
/// owner's own words about an OOM are read with the rest of their words).
pub fn looks_like_oom_paste(text: &str) -> bool {
    PASTED.is_match(text) && oom_report(text).is_some()
}

/// The registry's reader for OOM tracebacks and kernel lines.
pub struct OomPaste;

impl crate::extract::reading::Reader for OomPaste {
    fn kind(&self) -> &'static str {
        "an OOM report"
    }
    fn claims(&self, text: &str) -> bool {
        looks_like_oom_paste(text)
    }
    fn read(
        &self,
        text: &str,
    ) -> Result<crate::extract::reading::Reading, crate::extract::reading::ReadProblem> {
        oom_report(text)
            .map(crate::extract::reading::Reading::OomPaste)
            .ok_or_else(|| {
                crate::extract::reading::problem(
                    self.kind(),
                    "no out-of-memory line in it",
                    "Paste the last lines of the traceback (the `OutOfMemoryError` line) or the kernel's `Out of memory: Killed process` line from `sudo dmesg`.",
                )
            })
    }
}

/// The phase alone, as an answer to "mid-load or mid-step?".
pub fn phase_answer(text: &str) -> Option<Phase> {
    // "the model loads fine, then the first step dies": a load that went
    // well says the phase is after it.
    static LOADED_FINE: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?i)\bload(?:s|ed|ing)?\s+(?:fine|ok(?:ay)?|well|successfully|without\s+(?:a\s+)?(?:problem|issue|error)s?|no\s+problem|complete[sd]?|finishe[sd])\b|\b(?:after|once)\s+(?:the\s+)?(?:model\s+)?(?:is\s+|has\s+)?load(?:s|ed|ing)?\b",
        )
    });
    let loaded_fine = LOADED_FINE.is_match(text);
    let bare_load = text.to_ascii_lowercase().contains("load") && !loaded_fine;
    if LOAD.is_match(text) {
        Some(Phase::MidLoad)
    } else if loaded_fine || STEP_WORDS.is_match(text) || AT_STEP.is_match(text) {
        Some(Phase::MidStep)
    } else if bare_load || RESUMED.is_match(text) {
        Some(Phase::MidLoad)
    } else if text.to_ascii_lowercase().contains("step")
        || text.to_ascii_lowercase().contains("training")
    {
        Some(Phase::MidStep)
    } else {
        None
    }
}

/// The result of a step the owner tried.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StepResult {
    StillOom,
    Fixed,
}

static STILL: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(still (?:oom|ooms|oomed|out of memory|fails|failing|crash(?:es|ed)?|dies|died|killed|the same)|same (?:error|oom|thing|result|crash|problem|story|traceback)|no change|(?:didn'?t|did not) change anything|oom(?:ed|'d)? again|again oom|didn'?t help|did not help|no luck|nope,? still)\b",
    )
});
static FIXED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(it works|that worked|worked|fixed|solved|no more oom|no oom|it(?:'s| is) (?:running|training|fine)|runs now|running now|training now|got past|went through|(?:is |it'?s |now |and )?stable|runs fine|running fine|past step \d+|step \d+ now|step \d+ already|loads? (?:fine|ok|okay)|loaded (?:fine|ok|okay)|(?:is|now|it'?s) training|trains? (?:fine|now|again)|training (?:fine|again)|works now|no (?:more )?(?:crash|freeze)s?|no longer (?:ooms|dies|crashes|freezes)|doesn'?t (?:oom|crash|die|freeze) any ?more|(?:it\s+)?(?:runs?|running|trains?|training)\s+(?:since|for)\s+(?:\d+|an?|one|two|three|half)\s+(?:min\w*|hours?|h|steps?|epochs?))\b",
    )
});

/// "still", "same", "same thing" on their own, or after the step said done
/// ("flushed, same", "did it. still"): the short form of "still OOMs".
static STILL_SHORT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)^\s*(?:(?:ok(?:ay)?|done|did(?: it| that)?|flushed|ran it|restarted(?: it)?|relaunched(?: it)?|tried(?: it| that)?|rebooted)\s*[,.;:]?\s*(?:and\s+|but\s+)?)*(?:still|same|same thing|same again|same here|still the same|again)\s*[.!]*\s*$",
    )
});

/// A failure in the owner's words: the run died, froze, hung, OOMed.
static FAILS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:oom(?:s|ed|'d|ing)?|out of memory|di(?:es|ed|ing)|crash(?:es|ed|ing)?|fro(?:ze|zen)|freez(?:es|ing)|hang(?:s|ing)?|hung|killed|fail(?:s|ed|ing)?)\b",
    )
});
/// What makes a failure a repeat: "froze again", "also dies", "OOMs too".
static REPEAT: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)\b(?:still|again|also|too|as well|anyway|regardless|same)\b"));
/// A failure denied: "no longer dies", "doesn't crash any more".
static DENIED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:no longer|not|never|doesn'?t|does not|didn'?t|did not|won'?t|isn'?t|without)\b|\bno (?:more )?(?:oom|crash|freeze)",
    )
});

/// The sentence-sized parts of a message.
fn sentences_of(text: &str) -> impl Iterator<Item = &str> {
    text.split(['.', ';', '!', '?', '\n'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

/// A repeated failure in one sentence: "Froze again, around step 580",
/// "the shorter packing also dies", "batch 1 OOMs too".
fn failed_again(text: &str) -> bool {
    sentences_of(text).any(|s| FAILS.is_match(s) && REPEAT.is_match(s) && !DENIED.is_match(s))
}

/// A failure said plainly, not denied ("it dies as soon as it is training").
fn failure_said(text: &str) -> bool {
    sentences_of(text).any(|s| FAILS.is_match(s) && !DENIED.is_match(s))
}

pub fn step_result(text: &str) -> Option<StepResult> {
    if STILL.is_match(text) || STILL_SHORT.is_match(text) || failed_again(text) {
        Some(StepResult::StillOom)
    } else if FIXED.is_match(text) && !failure_said(text) {
        Some(StepResult::Fixed)
    } else {
        None
    }
}

/// A verb that reports a change already made ("cut", "flushed", "did").
static DONE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:did|done|ran|flushed|halved|reduced|lowered|dropped|cut|shortened|switched|moved|changed|tried|went down|brought)\b",
    )
});
/// A clause that says the change was not made, or asks about it.
static NOT_DONE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:not|never|didn'?t|haven'?t|hasn'?t|won'?t|can'?t|should|shall|could|would|whether)\b|^\s*(?:do|can|if|what if)\b",
    )
});
static FLUSH_WORDS: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)flush|drop_caches|drop(?:ped)? (?:the )?caches?|page cache|echo 3"));
static BATCH_WORDS: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)\bbatch|\bbs\b|micro_batch|per_device_train_batch_size|\bmbs\b"));
static PACKING_WORDS: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)\bpack|\bseq|max_seq_length|sequence_len|max_length|cutoff_len|\bcontext\b|\bctx\b")
});
static GENERATIONS_WORDS: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)\bgenerations?\b|num_generations|\bgens\b|samples per prompt|num_samples_per_prompt")
});
static COMPLETION_WORDS: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)\bcompletions?\b|max_completion_length|response_length"));
static COLOCATE_WORDS: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)gpu_memory_utilization|\b(?:vllm|colocate|colocation)\s+(?:fraction|share|util\w*)")
});
static REFERENCE_WORDS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\bprecompute\w*\s+(?:the\s+)?ref\w*|\bprecompute_ref_log_probs\b|\bref(?:erence)?[ _-]?(?:model )?log[ _-]?probs\b|\bcached? (?:the )?ref(?:erence)?\b",
    )
});
static METHOD_WORDS: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)\bswitched\b.*\blora\b|\bbf16 lora\b|\bfrom qlora\b|\bqlora\b.*\bto\b.*\blora\b")
});

/// The rungs named in the sentence that gives a result ("batch 1 still
/// OOMs, at step 57", "the shorter packing also dies"), in ladder order;
/// a rung named only in another sentence ("can we drop the batch
/// instead?") is not the one that failed.
pub fn rungs_with_result(text: &str) -> Vec<Rung> {
    sentences_of(text)
        .find(|s| step_result(s).is_some())
        .map(named_rungs)
        .unwrap_or_default()
}

/// Every rung the text names by its words, in ladder order.
fn named_rungs(text: &str) -> Vec<Rung> {
    [
        (Rung::Flush, &*FLUSH_WORDS),
        (Rung::Generations, &*GENERATIONS_WORDS),
        (Rung::Completion, &*COMPLETION_WORDS),
        (Rung::Colocate, &*COLOCATE_WORDS),
        (Rung::Reference, &*REFERENCE_WORDS),
        (Rung::Packing, &*PACKING_WORDS),
        (Rung::Batch, &*BATCH_WORDS),
        (Rung::Method, &*METHOD_WORDS),
    ]
    .into_iter()
    .filter(|(_, words)| words.is_match(text))
    .map(|(rung, _)| rung)
    .collect()
}

/// The clauses of a message: sentences, and the parts joined by "then".
fn clauses(text: &str) -> Vec<&str> {
    static SPLIT: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?i)[.;!\n]+\s+|[.;!]+$|,?\s+(?:and\s+)?then\s+"));
    SPLIT
        .split(text)
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect()
}

/// Every rung the owner says they already took, each with the clause that
/// says it ("I ALREADY did sync + echo 3 > …drop_caches. Then I cut
/// max_seq_length to 2048 and batch to 1" → flush, packing, batch). A
/// question or a negation ("should I cut the batch?", "didn't flush") is
/// not a step taken.
pub fn steps_taken(text: &str) -> Vec<(Rung, String)> {
    let mut out: Vec<(Rung, String)> = Vec::new();
    for clause in clauses(text) {
        if clause.ends_with('?') || !DONE.is_match(clause) {
            continue;
        }
        // The negation must come before the verb: "cut the batch, not the
        // packing" still cut the batch.
        let verb_at = DONE.find(clause).map_or(0, |m| m.start());
        if NOT_DONE.find(clause).is_some_and(|m| m.start() <= verb_at) {
            continue;
        }
        for rung in named_rungs(clause) {
            if !out.iter().any(|(r, _)| *r == rung) {
                out.push((rung, clause.to_string()));
            }
        }
    }
    out
}

/// The first rung the owner says they already took.
pub fn already_did(text: &str) -> Option<Rung> {
    steps_taken(text).first().map(|(r, _)| *r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hearsay_and_worry_are_no_report() {
        for t in [
            "I'm a bit nervous because I keep seeing github threads where GRPO OOMs after 100+ steps",
            "people say qlora OOMs at load on the spark",
            "I'm worried it OOMs halfway through the night",
            "I've read reddit posts where DPO runs out of memory",
        ] {
            assert!(supposed_oom(t), "{t}");
        }
        for t in [
            "it OOMed at step 40",
            "I read the log, it OOMed at step 40",
            "CUDA out of memory after 300 steps",
        ] {
            assert!(!supposed_oom(t), "{t}");
        }
    }

    #[test]
    fn a_freeze_of_the_whole_box_is_an_oom_on_unified_memory() {
        // Research: on a Spark an OOM exhausts the one pool and can wedge
        // the host instead of killing the job.
        for text in [
            "it froze mid-step at step 600",
            "the whole machine froze and I had to power cycle it",
            "my spark hangs while loading shards",
            "box locked up during training again",
        ] {
            assert!(oom_report(text).is_some(), "{text}");
        }
        assert!(oom_report("the terminal froze my scrolling").is_none());
        assert!(oom_report("vllm hung on a request, no training running").is_none());
    }

    #[test]
    fn the_first_step_or_the_start_of_training_is_mid_step() {
        for text in [
            "it OOMs in the very first step, evry time",
            "dies on the first iteration",
            "CUDA OOM on the 1st batch",
            "killed as soon as training starts",
            "out of memory in the first backward",
        ] {
            let r = oom_report(text).unwrap();
            assert_eq!(r.phase, Some(Phase::MidStep), "{text}");
        }
        let r = oom_report("OOM while loading shards, before the first step").unwrap();
        assert_eq!(r.phase, Some(Phase::MidLoad));
    }

    #[test]
    fn plain_words_and_their_phase() {
        let r = oom_report("OOM at step 340").unwrap();
        assert_eq!((r.phase, r.at_step), (Some(Phase::MidStep), Some(340)));
        let r = oom_report("it got killed while loading shards").unwrap();
        assert_eq!(r.phase, Some(Phase::MidLoad));
        let r = oom_report("OOM while training").unwrap();
        assert_eq!(r.phase, Some(Phase::MidStep));
        let r = oom_report("my run OOMed").unwrap();
        assert_eq!(r.phase, None);
        assert!(oom_report("batch 2, packing 1024").is_none());
    }

    #[test]
    fn a_pasted_torch_traceback() {
        let text = "Traceback (most recent call last):\n  File \"train.py\", line 88, in <module>\n    loss.backward()\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 119.70 GiB of which 1.12 GiB is free.";
        let r = oom_report(text).unwrap();
        assert_eq!(r.phase, Some(Phase::MidStep));
        assert_eq!(r.tried_to_allocate.as_deref(), Some("2.00 GiB"));
        assert!(r.evidence.starts_with("torch.OutOfMemoryError"));
    }

    #[test]
    fn real_kernel_oom_killer_lines() {
        let r = oom_report(include_str!("../../tests/fixtures/kernel-oom-kill.txt")).unwrap();
        assert!(r.evidence.contains("oom-kill") || r.evidence.contains("Out of memory"));
        assert_eq!(r.phase, None);
        assert!(
            oom_report(include_str!(
                "../../tests/fixtures/kernel-nv-err-no-memory.txt"
            ))
            .is_some()
        );
    }

    #[test]
    fn results_and_jumps() {
        assert_eq!(
            step_result("still OOMs at step 12"),
            Some(StepResult::StillOom)
        );
        assert_eq!(
            step_result("that worked, it's training now"),
            Some(StepResult::Fixed)
        );
        assert_eq!(step_result("batch 2"), None);
        // Running for a while, said the owner's way.
        for t in [
            "done, now it run since 20 minutes. thank you!",
            "it's been running for 2 hours",
            "training for 300 steps now",
        ] {
            assert_eq!(step_result(t), Some(StepResult::Fixed), "{t}");
        }
        assert_eq!(step_result("it ran for 20 minutes then OOMed"), None);
        // The step said done, then the short result.
        for t in [
            "flushed, same",
            "did it. still",
            "ok done, same again",
            "relaunched and same",
        ] {
            assert_eq!(step_result(t), Some(StepResult::StillOom), "{t}");
        }
        assert_eq!(step_result("flushed, same batch as before?"), None);
        assert_eq!(already_did("I already halved the batch"), Some(Rung::Batch));
        assert_eq!(
            already_did("I already dropped packing to 1024"),
            Some(Rung::Packing)
        );
        assert_eq!(already_did("I flushed the caches"), Some(Rung::Flush));
        let taken: Vec<Rung> = steps_taken(
            "Ok. To be clear, I ALREADY did sync + echo 3 > /proc/sys/vm/drop_caches as root before that launch, and it still OOMed. Then I cut max_seq_length to 2048 and batch to 1 and it still OOMs at step 1",
        )
        .into_iter()
        .map(|(r, _)| r)
        .collect();
        assert_eq!(taken, vec![Rung::Flush, Rung::Packing, Rung::Batch]);
        assert_eq!(
            steps_taken("dropped caches, lowered bs to 1, went from qlora to bf16 lora").len(),
            3
        );
        for not_taken in [
            "should I cut the batch?",
            "I didn't flush the cache",
            "I haven't changed the packing",
            "what if I halve the batch",
            "batch 4, packing 2048",
        ] {
            assert!(steps_taken(not_taken).is_empty(), "{not_taken}");
        }
        assert_eq!(
            phase_answer("mid-step, around step 340"),
            Some(Phase::MidStep)
        );
        assert_eq!(phase_answer("while loading"), Some(Phase::MidLoad));
        for after_load in [
            "the model load fine (~54GB) but in the first step it die",
            "it loaded ok, then died",
            "loads successfully and crashes right after",
            "after the model is loaded it dies at step 1",
        ] {
            assert_eq!(
                phase_answer(after_load),
                Some(Phase::MidStep),
                "{after_load}"
            );
        }
        assert_eq!(phase_answer("it dies at load"), Some(Phase::MidLoad));
    }

    #[test]
    fn an_oom_asked_about_is_not_one_reported() {
        for text in [
            "it crashed right after loading, here's the error. is it out of memory again??",
            "was that an OOM?",
            "did it oom?",
        ] {
            assert!(asked_oom(text), "{text}");
            assert!(supposed_oom(text), "{text}");
        }
        for text in [
            "it OOMed at step 40",
            "it ran out of memory, is that bad?",
            "it crashed at load, out of memory",
        ] {
            assert!(!asked_oom(text), "{text}");
        }
    }

    #[test]
    fn an_oom_supposed_is_not_one_reported() {
        for supposed in [
            "keep 2 then. and if it OOMs anyway, what do i try first?",
            "in case it runs out of memory at load, what then?",
            "what happens if it gets OOM killed halfway?",
        ] {
            assert!(supposed_oom(supposed), "{supposed}");
        }
        for reported in [
            "it OOMed at step 40",
            "if you ask me, it died at step 40 with CUDA out of memory",
            "OOM again. what if i halve the batch?",
            "not sure if it matters but it OOMed at step 40",
        ] {
            assert!(!supposed_oom(reported), "{reported}");
        }
    }
}
