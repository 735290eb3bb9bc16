//! What the owner means by a turn of words, before any slot is read: a
//! statement or correction changes the run; a question is answered and
//! changes nothing it conflicts with; a what-if is planned beside the
//! current run until adopted; a short yes/no answers what is pending.
//!
//! Intent is read per sentence, so "I already halved the batch and it still
//! OOMs. Should I switch to bf16 LoRA?" is a report and then a question.

use crate::extract::approval::{Approval, approval};
use crate::extract::re;
use regex::Regex;
use std::sync::LazyLock;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Intent {
    /// Says how the run is, or corrects it.
    Statement,
    /// Asks something; slots in it that differ from the run are hypothetical.
    Question,
    /// "what if …", "… instead": planned beside the run, adopted only on
    /// the owner's word.
    WhatIf,
}

/// A whole-turn request that needs no slots.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Request {
    /// "ok do that": adopt the what-if just shown.
    Adopt,
    /// "plan" or "does it fit?" (the one-screen answer), "full plan" or
    /// "why?" (the worksheet), "phases", "anchors", "assumptions" (a part).
    Plan(crate::reply::PlanDetail),
    /// "what do I do now?", "next step?".
    NextStep,
    /// "how much memory will this need?", "what's the peak now?".
    Summary,
}

/// A turn that asks about the last answer rather than saying anything new.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FollowUp {
    /// "how do I stop it?", "what can I do about it?", "what now?"
    Advice,
    /// "can both run at once?", "will they fit together?"
    Together,
    /// "is that bad?", "so?", "what does that mean for my run?"
    Judge,
    /// "so I just launch it?", "good to go?", "can I start it now?"
    Launch,
    /// "so the process killed is my trainer?", "was pid 7899 my run?"
    Victim,
}

static ADVICE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)^\s*(?:(?:so|ok(?:ay)?|and|well|right|hmm+)[,\s]+)*(?:how (?:do|can|could|should|would) (?:i|we|you) (?:stop|fix|avoid|prevent|reduce|solve|deal with|get rid of|handle|cure|resolve|improve)|how to (?:stop|fix|avoid|prevent|solve|deal with)|what (?:can|could|should|do) (?:i|we) do(?: about (?:it|that|this))?|what do you (?:suggest|recommend|advise)|what (?:would|should|do|could) (?:you|i|we) (?:change|do|try|tweak|adjust)|what (?:to|should i) change|(?:what (?:i|we) (?:do|should do|can do)|what to do)(?: now| next)?\s*[?.!]*\s*$|what now|now what|what next|could it be|might it be|is it because|was it because|could that be|what(?:'s| is) next|what should i do(?: now| next)?|any (?:fix|advice|suggestions?|ideas?)|what(?:'s| is) the fix|can (?:i|we|it) (?:be )?(?:fix|stop|avoid|prevent)(?:ed)?(?: it| that| this)?|how do i make it stop|what (?:number|value|fraction|setting|cap) should (?:he|she|i|we|they) (?:use|set|pick|give it)|how (?:low|far|much) should (?:he|she|i|we|they) (?:lower|drop|cut|set) it)\b",
    )
});
static TOGETHER: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)^\s*(?:(?:so|ok(?:ay)?|and|well|right|hmm+)[,\s]+)*(?:(?:they|we|both)\s+)?(?:can|could|will|would|do) (?:both|they|the two|both of them|them both|we both|it and (?:my|the) (?:run|training|trainer))(?: both)? (?:still )?(?:run|fit|work|live|coexist|share|stay)(?: on)?(?: the box| the pool| at once| together| at the same time| side by side| beside each other)*(?:,?\s+or not)?\s*[?.!]*\s*$|^\s*(?:(?:so|ok(?:ay)?|and|but)[,\s]+)*(?:(?:is\s+)?(?:it|that)\s+)?(?:possible|ok(?:ay)?|fine|safe)\s+(?:with|while|beside|next to|alongside)\s+(?:vllm|ollama|the server|the model server|it|that|them)(?:\s+(?:keeps?|stays?|still))?(?:\s+(?:running|up|loaded|on|serving))?\s*[?.!]*\s*$|^\s*(?:(?:so|and)[,\s]+)?both\s+(?:ok(?:ay)?|fine|good|at once|together)\s*[?.!]*\s*$|^\s*(?:(?:so|and|ok(?:ay)?)[,\s]+)*(?:they|both|we)\s+can\s+both\s+(?:run|stay|fit|live)\b[^?]*\?(?:\s*(?:and\s+)?nothing\s+(?:to|needs? to be)\s+(?:stop|kill)(?:ped)?\s*\??)?\s*$",
    )
});
static VICTIM: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)^(?:(?:so|ok(?:ay)?|and|but|wait)[,\s]+)*(?:(?:is|was) (?:it|that|the (?:killed )?process|the process (?:it |that was )?killed|pid \d+|the one (?:it )?killed|the victim) (?:really )?(?:my|the) (?:trainer|training(?: run| job| process)?|run|job|script)|(?:the )?(?:process|one|thing) (?:it |that was |that got )?killed (?:is|was) (?:really )?(?:my|the) (?:trainer|training(?: run| job| process)?|run|job|script)|(?:did|was) (?:it|the kernel|the oom killer) kill(?:ed)? (?:my|the) (?:trainer|training(?: run| job| process)?|run|job|script))\b[^?]{0,40}\??\s*$",
    )
});
static JUDGE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)^\s*(?:(?:so|ok(?:ay)?|and|well|right|hmm+)[,\s]+)*(?:so\s*[?.!]*\s*$|so what\b|and\s*\?|is (?:that|this|it) (?:bad|good|ok(?:ay)?|normal|a problem|serious|expected|fine|an issue|worrying|a concern)|should i (?:be )?worr(?:y|ied)|do i need to worry|what does (?:that|this|it) (?:mean|tell (?:you|me)|say|imply)|what do you make of (?:that|this|it)|meaning\s*\?|how bad is (?:it|that|this)|does (?:that|this|it) matter|(?:are you )?sure\s*[?!]|(?:are you )?sure (?:it|that|this|they|we|i) (?:fits?|works?|will fit|will work|can run|is (?:ok(?:ay)?|fine|right))\s*[?!]|(?:it'?s|its|that'?s|thats|this is) (?:bad|good|ok(?:ay)?|normal|fine|a problem|an issue|broken|expected)\s*\?|(?:is (?:it |that |this )?)?(?:a )?problem\s*\?|(?:is it|it'?s|its|is that) (?:the )?(?:heat|thermal|throttling|temperature|power)\s*\?|really\s*\?|(?:(?:is|it'?s|its) (?:it |that |this )?)?(?:too |very |really )?(?:tight|close|risky|enough|cutting it close)\s*\?|(?:now\s+)?(?:it is|is it|it's|does it|will it) (?:fits?|fitting)(?: well| now| ok(?:ay)?)?\s*\?)",
    )
});

static LAUNCH: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)^\s*(?:(?:so|ok(?:ay)?|and|well|right|cool|great|nice|perfect|alright|done|killed it|stopped it)[,.\s]+)*(?:(?:so\s+)?(?:i|we) (?:just |can )?(?:launch|start|run|kick off|go ahead with) (?:it|this|that|the run|the job|training)(?: now| then)?|(?:can|should|shall) (?:i|we) (?:launch|start|run|kick off) (?:it|this|that|the run|the job|training)(?: now| then)?|(?:am i |are we )?good to go|anything else before (?:i|we) (?:launch|start|run|kick off)(?: it)?|(?:so\s+)?(?:i'?m|im|i am|we'?re|we are|am i|are we) (?:good|fine|ok(?:ay)?|safe|set)(?: then| now| to go| to (?:launch|start|run|begin|kick (?:it )?off)(?: (?:it|this|the run|the job|training))?(?: now| then)?)?|(?:is )?(?:it )?still ok(?:ay)?|ready to (?:launch|go|start)|safe to (?:launch|start|run)(?: it)?|(?:just )?go for it|launch it|(?:is (?:it|that) |it'?s |its |that'?s )?(?:good|ok(?:ay)?|fine|safe) enough to (?:launch|start|run|go)(?: (?:it|the run|the job|the training|training|my run|my training))?(?: now| then| tonight)?|(?:i'?m |im |we'?re )?(?:starting|launching|kicking off|running) (?:it|the run|the job|the training|training|my run)(?: now| then| tonight)?|(?:after that|then|once (?:it|she|he|they|that) (?:finish(?:es)?|is done|are done|stops?))[,\s]+(?:can i|i can|can we|we can) (?:start|launch|run|go)(?: (?:it|mine|my run|the run|training))?)\s*[?.!]*\s*$",
    )
});

/// "is that bad?" or "how do I stop it?" as a whole short turn.
pub fn follow_up(text: &str) -> Option<FollowUp> {
    let t = text.trim();
    if t.contains('\n') || t.chars().count() > 160 {
        return None;
    }
    if let Some(f) = follow_up_sentence(t) {
        return Some(f);
    }
    // "can we both stay on the box if he lowers it? what number should he
    // use": each question on its own; asking what to do wins.
    let parts: Vec<FollowUp> = t
        .split_inclusive(['?', '!', '.'])
        .filter_map(|s| follow_up_sentence(s.trim()))
        .collect();
    if parts.contains(&FollowUp::Advice) {
        Some(FollowUp::Advice)
    } else {
        parts.first().copied()
    }
}

/// Words that open a reply without saying anything ("hm", "ok so",
/// "cool,"): the follow-up is what comes after them.
static LEAD_IN: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)^(?:(?:so|ok(?:ay)?|and|but|well|right|hm+|um+|uh+|ah+|oh+|cool|great|nice|perfect|alright|yeah|yep|thanks|thx|got it|i see|understood)\b[,.!\s]*)+",
    )
});

fn follow_up_sentence(t: &str) -> Option<FollowUp> {
    if t.is_empty() || t.chars().count() > 100 {
        return None;
    }
    let bare = LEAD_IN.replace(t, "");
    follow_up_kind(t).or_else(|| {
        bare.chars()
            .any(char::is_alphanumeric)
            .then(|| follow_up_kind(bare.trim()))
            .flatten()
    })
}

fn follow_up_kind(t: &str) -> Option<FollowUp> {
    if VICTIM.is_match(t) {
        Some(FollowUp::Victim)
    } else if TOGETHER.is_match(t) {
        Some(FollowUp::Together)
    } else if LAUNCH.is_match(t) {
        Some(FollowUp::Launch)
    } else if ADVICE.is_match(t) {
        Some(FollowUp::Advice)
    } else if JUDGE.is_match(t) {
        Some(FollowUp::Judge)
    } else {
        None
    }
}

/// One sentence of the owner's words and what it means.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sentence {
    pub text: String,
    pub intent: Intent,
}

static WHAT_IF: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)(\bwhat if\b|\bwhat about\b|\bhow about\b|\bsuppose\b|\bsupposing\b|\bif i (?:use|used|switch|switched|went|go|try|tried|drop|dropped|change|changed)\b|\bwould it fit (?:with|if|at)\b|\bcompare\b)",
    )
});
static INTERROGATIVE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)^\s*(?:and\s+|so\s+|but\s+|ok(?:ay)?,?\s+)?(what|how|why|when|which|who|should|would|could|can|is|are|does|do|will|did|may|might|shall|isn't|doesn't|won't)\b",
    )
});
/// "did the drop caches and relaunched", "did it, still dies": a report
/// with its subject left out, not "did you …?".
static REPORT_WITHOUT_SUBJECT: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)^\s*(?:and\s+|so\s+|ok(?:ay)?,?\s+)?did\s+(\w+)"));

fn report_without_subject(t: &str) -> bool {
    REPORT_WITHOUT_SUBJECT.captures(t).is_some_and(|c| {
        !["you", "i", "we", "they", "he", "she", "anyone", "anybody"]
            .contains(&c[1].to_ascii_lowercase().as_str())
    })
}
static ADOPT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)^\s*(?:(?:ok(?:ay)?|k+|yes|yeah|yep|yup|sure|fine|great|good|alright|perfect)[\s,!.]*)?(?:then\s+|let'?s\s+|please\s+|i'?ll\s+)?(?:do|use|go with|go ahead with|go for|switch to|take|adopt|apply|keep|make it|make that)\s+(?:that|it|this|those|them|both(?: of them| changes)?|all(?: of them)?|the what-?if|the new (?:one|plan)|the second(?: one)?)\b[\s.!]*(?:then|please)?[\s.!]*$",
    )
});
/// "show me", "give me the", "print your" … before a plan part's name.
const SHOW: &str = r"(?i)^\s*(?:(?:ok(?:ay)?|and|so|now)[,\s]+)?(?:(?:show|give|print|redo|see|list)\s+(?:me\s+)?)?(?:the\s+|your\s+|all\s+(?:the\s+)?)?";
/// The end of a whole-turn request: "again", "please", punctuation.
const END: &str = r"(?:\s+again)?(?:\s+please)?\s*[.!?]*\s*$";
static BRIEF_PLAN: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"{SHOW}(?:plan|verdict|answer){END}|^\s*(?:so\s+)?(?:will|does|would) it fit{END}|^\s*(?:so|and|ok(?:ay)?)?[,\s]*(?:it\s+)?fits?\s*\?+\s*$|^\s*(?:so\s+)?(?:is it|it is|it's) (?:ok|okay|fine|good)(?: then)?\s*\?+\s*$"
    ))
});
static FULL_PLAN: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"{SHOW}(?:(?:full|whole|complete|entire|detailed)\s*(?:plan|worksheet|breakdown|details|numbers|estimate)|worksheet|breakdown|details|more details?|every term|terms|(?:the\s+)?math|working|work|formulas?){END}|^\s*why\s*(?:so much|that much|so high)?{END}"
    ))
});
static PHASES: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"{SHOW}(?:phases|phase peaks|other (?:moments|phases|peaks)|load,? eval(?:uation)?,? (?:and )?save peaks){END}"
    ))
});
static ANCHORS: LazyLock<Regex> =
    LazyLock::new(|| re(&format!(r"{SHOW}(?:seed\s+)?anchors?{END}")));
static ASSUMPTIONS: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"{SHOW}(?:assumptions|inputs|defaults|what (?:did )?you assumed?){END}"
    ))
});
static NEXT_STEP: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(what (?:do|should|can) i (?:do|try)(?: now| next)?|(?:what (?:i|we) (?:do|try|can do)|what to do)(?: now| next)?\s*[?.!]*\s*$|what else (?:can|could|should|do) i (?:do|try)|any other (?:options?|ideas?|way)|what are my options|what now|now what|and now|what next|next step|what'?s next|how do i fix|what should i do|what do i do|help me fix)\b",
    )
});
static SUMMARY: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(how much (?:memory|ram|vram|gb)|what(?:'s| is| are) (?:the|my) (?:peak|total|estimate|verdict|numbers)|(?:will|does|would|can) (?:it|this|the run|that|my run) (?:still |now )?fit|is it (?:still |now )?(?:going to )?fit|where (?:do|does) (?:i|it|we) stand|(?:which|what) (?:model|run) (?:are|is) (?:you|it|we|headroom) (?:planning|using|assuming)|what(?:'s| is) (?:the|my) run\b)\b",
    )
});
static SENTENCE_END: LazyLock<Regex> = LazyLock::new(|| re(r"[?!]+|\.\s+|\.$|\n+"));

/// The turn split into sentences, each with its intent. A `.` inside a
/// number ("Llama 3.1", "0.5") does not end a sentence.
pub fn sentences(text: &str) -> Vec<Sentence> {
    let mut out = Vec::new();
    let mut start = 0;
    for m in SENTENCE_END.find_iter(text) {
        let piece = &text[start..m.end()];
        start = m.end();
        push_sentence(&mut out, piece);
    }
    push_sentence(&mut out, &text[start..]);
    out
}

fn push_sentence(out: &mut Vec<Sentence>, piece: &str) {
    let t = piece.trim();
    if t.is_empty() {
        return;
    }
    let intent = if WHAT_IF.is_match(t) {
        Intent::WhatIf
    } else if t.ends_with('?') || INTERROGATIVE.is_match(t) && !report_without_subject(t) {
        Intent::Question
    } else {
        Intent::Statement
    };
    out.push(Sentence {
        text: t.to_string(),
        intent,
    });
}

/// A short typed yes or no (never inside a paste).
pub fn short_answer(text: &str) -> Option<Approval> {
    if ADOPT.is_match(text) {
        return None;
    }
    approval(text)
}

/// "Could you show me the full plan? I like to see where it goes": the
/// request inside a longer turn of words.
static ASKED_FULL_PLAN: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:could|can|would|will) you (?:please )?(?:show|give|walk|take) (?:me |us )?(?:through )?(?:the |your )?(?:full|whole|complete|entire|detailed) (?:plan|worksheet|breakdown|estimate)\b|\b(?:i'?d like|i want|i would like) (?:to see )?(?:the |your )?(?:full|whole|complete|detailed) (?:plan|worksheet|breakdown)\b",
    )
});

/// A whole-turn request, when the turn is one.
pub fn request(text: &str) -> Option<Request> {
    let t = text.trim();
    if !t.contains('\n') && t.chars().count() <= 400 && ASKED_FULL_PLAN.is_match(t) {
        return Some(Request::Plan(crate::reply::PlanDetail::Full));
    }
    if t.contains('\n') || t.chars().count() > 80 {
        return None;
    }
    // "ok leave ollama alone. full plan please": the last sentence asks.
    let last = t
        .trim_end_matches(['.', '!', '?', ' '])
        .rsplit(['.', '!', '?', ';'])
        .next()
        .map(str::trim)
        .filter(|l| !l.is_empty() && l.len() < t.len());
    whole_request(t).or_else(|| last.and_then(whole_request))
}

fn whole_request(t: &str) -> Option<Request> {
    if ADOPT.is_match(t) {
        Some(Request::Adopt)
    } else if let Some(detail) = plan_detail(t) {
        Some(Request::Plan(detail))
    } else if NEXT_STEP.is_match(t) {
        Some(Request::NextStep)
    } else if SUMMARY.is_match(t) {
        Some(Request::Summary)
    } else {
        None
    }
}

fn plan_detail(t: &str) -> Option<crate::reply::PlanDetail> {
    use crate::reply::PlanDetail;
    [
        (&*FULL_PLAN, PlanDetail::Full),
        (&*PHASES, PlanDetail::Phases),
        (&*ANCHORS, PlanDetail::Anchors),
        (&*ASSUMPTIONS, PlanDetail::Assumptions),
        (&*BRIEF_PLAN, PlanDetail::Brief),
    ]
    .into_iter()
    .find_map(|(pattern, detail)| pattern.is_match(t).then_some(detail))
}

/// Any sentence that asks or supposes rather than states.
pub fn asks(text: &str) -> bool {
    sentences(text)
        .iter()
        .any(|s| s.intent != Intent::Statement)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn intents(text: &str) -> Vec<Intent> {
        sentences(text).into_iter().map(|s| s.intent).collect()
    }

    #[test]
    fn a_report_then_a_question() {
        assert_eq!(
            intents("I already halved the batch and it still OOMs. Should I switch to bf16 LoRA?"),
            vec![Intent::Statement, Intent::Question]
        );
        assert_eq!(
            intents("should I switch to plain bf16 LoRA, would it be faster?"),
            vec![Intent::Question]
        );
        // An order is a statement, however it is phrased.
        assert_eq!(intents("switch to qlora"), vec![Intent::Statement]);
        assert_eq!(intents("use 8-bit adam instead"), vec![Intent::Statement]);
    }

    #[test]
    fn a_report_that_leaves_out_its_subject_is_no_question() {
        for t in [
            "did the drop caches as root and relaunched",
            "did it, still dies",
            "Did the flush as root and relaunched.",
        ] {
            assert_eq!(intents(t)[0], Intent::Statement, "{t}");
        }
        assert_eq!(intents("did you mean the batch")[0], Intent::Question);
        assert_eq!(intents("did it fit?")[0], Intent::Question);
    }

    #[test]
    fn versions_and_decimals_do_not_split() {
        assert_eq!(
            sentences("QLoRA on Llama 3.1 70B, batch 1, packing 2048").len(),
            1
        );
    }

    #[test]
    fn what_ifs_questions_and_statements() {
        assert_eq!(
            intents("what if I use the 8-bit adam optimizer instead?"),
            vec![Intent::WhatIf]
        );
        assert_eq!(
            intents("and what about Falcon-H1 34B?"),
            vec![Intent::WhatIf]
        );
        assert_eq!(
            intents("would a LoRA of Mistral 7B fit? bf16, batch 8, packing 4096"),
            vec![Intent::Question, Intent::Statement]
        );
        assert_eq!(intents("actually packing 8192"), vec![Intent::Statement]);
        assert_eq!(
            intents("what does gpu-memory-utilization actually do for vllm?"),
            vec![Intent::Question]
        );
    }

    #[test]
    fn follow_ups_about_the_last_answer() {
        for t in [
            "how do I stop it?",
            "ok so how can I fix that",
            "what can I do about it?",
            "any advice?",
            "what do you suggest",
            "how to prevent this?",
            "what would you change?",
            "so what do I change?",
            "ok what should I try",
            "hm what do you recommend",
            "uh, what should i do now",
            "alright so what do you suggest?",
        ] {
            assert_eq!(follow_up(t), Some(FollowUp::Advice), "{t}");
        }
        for t in [
            "cool so I just launch it?",
            "good to go?",
            "ok, can I start it now?",
            "safe to launch?",
            "so we just run it then?",
            "so im good?",
            "am I fine then?",
            "done, killed it. anything else before i launch?",
            "good enough to start the training now?",
            "is it ok enough to launch it tonight?",
            "cool, starting it",
            "ok launching the run now",
            "she say it finish in 1 hour. after that i can start?",
            "once it finishes can i start mine?",
        ] {
            assert_eq!(follow_up(t), Some(FollowUp::Launch), "{t}");
        }
        for t in [
            "is that bad?",
            "so?",
            "So what",
            "what does that mean for my run?",
            "what does that tell you?",
            "should I be worried?",
            "hmm, is it normal?",
            "does it matter?",
            "so its fine?",
            "thats bad?",
            "she train things. is problem?",
            "so its the heat?",
            "hmm ok. sure it fits?",
        ] {
            assert_eq!(follow_up(t), Some(FollowUp::Judge), "{t}");
        }
        for t in [
            "batch 2",
            "so the batch is 4",
            "is batch 8 ok with 4096?",
            "stop vllm",
            "so its batch 4 now",
            "hm, starting with batch 2 and packing 1024",
        ] {
            assert_eq!(follow_up(t), None, "{t}");
        }
    }

    #[test]
    fn requests() {
        assert_eq!(request("ok do that"), Some(Request::Adopt));
        assert_eq!(request("Let's do that."), Some(Request::Adopt));
        assert_eq!(request("Good, go ahead with both."), Some(Request::Adopt));
        assert_eq!(request("ok, apply them"), Some(Request::Adopt));
        use crate::reply::PlanDetail::*;
        for (words, detail) in [
            ("show the full plan", Full),
            ("full plan", Full),
            ("why?", Full),
            ("show the worksheet", Full),
            ("ok, show me every term", Full),
            ("details please", Full),
            ("plan", Brief),
            ("will it fit?", Brief),
            ("does it fit", Brief),
            ("phases", Phases),
            ("show me the other peaks", Phases),
            ("anchors?", Anchors),
            ("the seed anchors", Anchors),
            ("assumptions", Assumptions),
            ("what did you assume?", Assumptions),
        ] {
            assert_eq!(request(words), Some(Request::Plan(detail)), "{words}");
        }
        assert_eq!(request("ok what do I do"), Some(Request::NextStep));
        assert_eq!(request("next step?"), Some(Request::NextStep));
        assert_eq!(
            request("ok so what else can I do?"),
            Some(Request::NextStep)
        );
        assert_eq!(request("batch 2"), None);
        assert_eq!(
            request("how much memory will this need?"),
            Some(Request::Summary)
        );
        assert_eq!(request("what's the peak now?"), Some(Request::Summary));
        assert_eq!(short_answer("ok do that"), None);
        assert_eq!(short_answer("yes"), Some(Approval::Yes));
    }
}
