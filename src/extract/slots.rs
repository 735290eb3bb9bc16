//! Plain language to plan slots: "QLoRA on Llama 3.1 70B, batch 1, packing
//! 2048", "params 8b", "bf16", "max_seq_length=4096", "bs 2".
//!
//! Extraction is deliberately literal: a slot is filled only by words that
//! name it, and each value keeps the words it came from so the answer can
//! quote them back.

use crate::calc::setup::{
    Attention, Dtype, LoraTargets, Loss, Method, Optimizer, Precision, Sharding, is_tensor_parallel,
};
use crate::calc::solve::SolveFor;
use crate::extract::re;
use crate::knowledge::Knowledge;
use regex::Regex;
use std::sync::LazyLock;

#[derive(Debug, Clone, PartialEq)]
pub enum Slot {
    /// A catalog model by its name in knowledge/models.md.
    Model(String),
    /// A bare parameter count.
    Params(u64),
    /// A model the owner named that is not in the catalog, in their words.
    UnknownModel(String),
    Method(Method),
    Dtype(Dtype),
    Batch(u64),
    Pack(u64),
    Optimizer(Optimizer),
    GradCheckpointing(bool),
    LoraRank(u64),
    LoraTargets(LoraTargets),
    LoraDropout(bool),
    Precision(Precision),
    Attention(Attention),
    Loss(Loss),
    Nodes(u64),
    Sharding(Sharding),
    /// The owner offloads optimizer state or activations to "CPU" memory.
    Offload(bool),
    /// A question, not an answer: the longest packing or largest batch.
    Solve(SolveFor),
    /// A request for tensor parallelism, which is refused.
    TensorParallel,
    /// The trainer stack, by its knowledge/frameworks.md key.
    Framework(String),
    /// The run evaluates, at this per-device eval batch.
    EvalBatch(u64),
    /// Batches have one fixed length (packing on) or are padded per batch.
    Packed(bool),
    /// The run resumes from a checkpoint.
    Resume(bool),
    /// Which transformers loads the checkpoint.
    Loader(crate::calc::runtime::Loader),
    /// The checkpoint is already 4-bit (`…-bnb-4bit`).
    Prequantized(bool),
    /// What the run optimises (DPO, GRPO …), the parts the words give.
    Objective(crate::calc::objective::ObjectiveSpec),
    /// The available memory the owner said in words, as a reading.
    Available(crate::readings::memory::FreeReading),
    /// A value no plan can use, with why ("a batch of 4294967296 is beyond …").
    OutOfRange(String),
}

/// A slot value and the owner's words that gave it.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    pub slot: Slot,
    pub words: String,
}

static METHOD: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(q-?lora|lora|full[\s_-]*(?:fine[\s_-]*tun(?:e|ing)|finetun(?:e|ing)|ft|param(?:eter)?s?|dpo|ipo|kto|orpo|grpo|rloo|ppo|sft|rl)|fft|finetuning_type\s*(?:[:=]|\s+(?:is|to|=))\s*full|go\s+full|all\s+(?:the\s+)?(?:weights|param(?:eter)?s)|(?:the\s+)?whole\s+model|every\s+weight|no\s+adapters?)\b",
    )
});
static LORA_QUALIFIER: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)^\s*[-_]?\s*(?:rank|r\b|alpha|dropout|targets?|target_modules|adapter rank)")
});
static DTYPE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(bf\s?16|bfloat16|fp\s?16|float16|fp\s?32|float32|fp8|int8|int4|nf4|nvfp4|mxfp4|single[\s-]precision|full[\s-]precision)\b",
    )
});
static BATCH: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)(?:\b|--)(?:per_device_train_batch_size|train_micro_batch_size_per_gpu|micro[\s_-]?batch(?:[\s_-]?size)?|batch(?:[\s_-]?size)?|bsz|bs|mbs|micro)\s*(?:=|:|of|is|to|was|at)?\s*(\d+)\b",
    )
});
static PACK: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:packing(?:[\s_-]?(?:length|len))?|pack(?:[\s_-]?(?:length|len))?|(?:model_)?max_seq_length|max_seq_len|(?:model_)?max[\s_]length|sequence_len|cutoff(?:[\s_-]?len(?:gth)?)?|seq(?:uence)?(?:[\s_-]?len(?:gth)?)?|block_size|context(?:[\s_-]?len(?:gth)?)?|ctx(?:[\s_-]?len(?:gth)?)?|pack(?:ed|ing)?(?:\s+(?:sequences|samples|them|it))?)\s*(?:=|:|\.|of|is|(?:down\s+|up\s+)?to|at|was)?\s*(\d[\d,_]*)(\s*k)?\b",
    )
});
static OPTIMIZER: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(adafactor|paged[\s_-]?adamw?[\s_-]?(?:8|32)[\s_-]?bit|paged[\s_-]?(?:8|32)[\s_-]?bit[\s_-]?adamw?|adamw?[\s_-]?(?:bnb[_-]?)?8[\s_-]?bit|(?:bnb[\s_-]?)?8[\s_-]?bit[\s_-]?adamw?|adamw(?:_torch(?:_fused)?)?|adam|sgd)\b",
    )
});
static CHECKPOINTING: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)\b(no|without|not|never|(?:didn'?t|did\s+not|never)\s+(?:pass|set|use|enable|turn\s+on)|turn\s+off|switch\s+off|disable|disabled|turn\s+on|switch\s+on|enable|enabled)?\s*(?:--)?(?:use_)?(?:(?:gradient|grad|activation)[\s_-]?)?(?:checkpointing|ckpt)\b(?:\s*(?:=|:|is)?\s*["']?(on|off|true|false|yes|no|enabled|disabled|unsloth)\b|\s+(?:was\s+|is\s+)?(not|never)\s+(?:passed|set|enabled|used|on)\b)?"#,
    )
});
static RANK: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)(?:\b(?:lora[\s_-]?|adapter[\s_-]+)?rank\s*(?:=|:|of|is|to)?\s*|\blora[\s_-]?r\s*(?:=|:)?\s*|\blora_r\s*|\br\s*[=:]\s*)(\d+)\b",
    )
});
static TARGETS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:target_modules\s*=\s*([\w,\[\]'\x22 ]+)|(all[-_]linear)|(attention[\s-]only|attention[\s-](?:projections?|proj|layers?|modules?|weights?|matrices)[\s-]only|only (?:on )?(?:the )?attention|attn[\s-](?:proj[\s-])?only)|((?:q|k|v|o|gate|up|down)_proj(?:\s*(?:,|and|\+)\s*(?:q|k|v|o|gate|up|down)_proj)*)|(?:only\s+)?on\s+(?:the\s+)?([qkvo](?:\s*[,/+]\s*[qkvo]){1,3}|qkvo?)\b)",
    )
});
static PRECISION: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(pure[\s-]?(?:bf16|fp16|16[\s-]?bit)|bf16[-_]true|mixed[\s-]?precision|(?:bf16|fp16)[-_]mixed|amp|fp32 master weights)\b",
    )
});
static ATTENTION: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)(?:attn_implementation\s*=\s*['"]?(eager|sdpa|flash_attention_2)|\b(eager|sdpa|flash)[\s_-]*(?:attention|attn)\b|\b(?:attention|attn)\s*(?:=|:)?\s*(eager|sdpa|flash)\b)"#,
    )
});
static FUSED_LOSS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(no\s+)?(fused[\s_-]?(?:loss|ce|cross[\s_-]?entropy)|chunked[\s_-]?(?:loss|ce|cross[\s_-]?entropy)|CEWithChunkedOutputLoss|LinearCrossEntropyLoss|liger(?:[\s_-]?kernel)?|cut[\s_-]?cross[\s_-]?entropy)\b",
    )
});
/// "bf16 cross-entropy", "fp32 loss": the loss's own precision.
static LOSS_KIND: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:(bf16|fp16|16[\s-]?bit)|fp32|upcast)[\s_-]+(?:loss|ce|cross[\s_-]?entropy|logits)\b",
    )
});
static DROPOUT: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)(?:lora_dropout\s*[=:]\s*([0-9.]+)|\b(no|without)\s+(?:lora\s+)?dropout\b)")
});
static NODES: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:(\d+|two|three|four)\s*(?:dgx\s+)?(?:sparks|nodes|boxes)|(?:nodes|num_nodes|nnodes)\s*(?:=|:)?\s*(\d+))\b",
    )
});
static SHARDING: LazyLock<Regex> = LazyLock::new(|| re(r"(?i)\b(fsdp|zero[-_ ]?3|ddp)\b"));
static OFFLOAD: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)\b(no\s+)?(?:cpu[\s_-]?)?offload(?:ing|ed)?\b"));
static EVAL: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:per_device_eval_batch_size|eval[\s_-]?batch(?:[\s_-]?size)?)\s*(?:=|:|of|is)?\s*(\d+)\b|\b(?:eval_strategy|evaluation_strategy)\s*[=:]\s*['\x22]?(steps|epoch)|\b(?:eval(?:uate|uation)?s?|evaluating)\s+(?:every|each|on|at)\b|\bwith\s+eval(?:uation)?\b",
    )
});
static PACKED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:(packing\s*[=:]\s*true|sample_packing\s*[=:]?\s*true|packed (?:batches|sequences|samples)|sample packing|fixed[- ]length (?:batches|sequences))|(packing\s*[=:]\s*false|sample_packing\s*[=:]\s*false|no (?:sample )?packing|not packed|padded (?:batches|to the longest)))\b",
    )
});
static RESUME: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(resum(?:e|ed|es|ing)(?:_from_checkpoint)?|from (?:a |the )?checkpoint|restart(?:ing)? from)\b",
    )
});
static LOADER: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)\btransformers\s*(?:v|version\s*|==|>=|@)?\s*([45])(?:\.\d+)*\b"));
static PREQUANTIZED: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)(?:-bnb-4bit\b|\bbnb[-_ ]4bit\b|\bpre-?quantized\b)"));
/// "longest ctx", "max batch size", "how big a batch", "how long can the
/// context be": a question for the solver. Groups 1 and 3 name the packing,
/// 2 and 4 the batch.
static SOLVE: LazyLock<Regex> = LazyLock::new(|| {
    const PACK: &str = r"packing|pack|ctx|context(?:[\s_-]?(?:len(?:gth)?|window|size))?|seq(?:uence)?(?:[\s_-]?len(?:gth)?)?|seqlen|max_seq_len(?:gth)?|sequence_len|max_length|cutoff(?:_len)?|cut-off|block_size";
    const BATCH: &str = r"(?:micro[\s_-]?)?batch(?:[\s_-]?size)?|per_device_train_batch_size|micro_batch_size|bsz|bs|mbs";
    re(&format!(
        r"(?i)\b(?:(?:longest|max(?:imum)?|biggest|largest|highest|how long an?|how big an?|how large an?)\s+(?:possible\s+|usable\s+)?(?:({PACK})|({BATCH}))|how (?:long|big|large|high|far)\s+(?:can|could)\s[^.?!\n]{{0,25}}?\b(?:({PACK})|({BATCH})))\b"
    ))
});
/// After a solve word, a figure makes it a setting: "max seq length 4096".
static SETTING_AFTER: LazyLock<Regex> = LazyLock::new(|| re(r"(?i)^\s*(?:[:=]|of|is|to|at)?\s*\d"));
static PARAMS_NAMED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:params?|parameters?|param count|size)\s*(?:=|:|of|is)?\s*(\d+(?:\.\d+)?)\s*(b|bn|billion|m|million)\b",
    )
});
static PARAMS_BARE: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)\b(\d+(?:\.\d+)?)\s*(b|bn|billion)\b(?:[\s-]*(?:params?|parameters?|model))?")
});

fn normalized(text: &str) -> String {
    text.to_ascii_lowercase()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '.')
        .collect()
}

/// The catalog model named in the text: the longest alias that appears,
/// or, for a name with a point release between its family and its size
/// ("gemma-1.1-7b-it"), the catalog entry of that family and size (the
/// caller names it as an assumption: see `near_match_words`).
pub fn find_model(text: &str, k: &Knowledge) -> Option<(String, String)> {
    exact_model(text, k)
        .or_else(|| {
            // torchtune's builder names write the release with underscores
            // ("llama3_1_8b", "qwen2_5_7b"): the same model.
            let dotted = UNDERSCORE_RELEASE.replace_all(text, "$family.$minor $size");
            (dotted != text).then(|| exact_model(&dotted, k)).flatten()
        })
        .or_else(|| {
            let unversioned = POINT_RELEASE.replace_all(text, "$family-$size");
            (unversioned != text)
                .then(|| exact_model(&unversioned, k))
                .flatten()
                .map(|(name, _)| (name, NEAR_MATCH.to_string()))
        })
}

/// "llama3_1_8b": a family with its major release, the minor, a size.
static UNDERSCORE_RELEASE: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)\b(?P<family>[a-z]+\d+)_(?P<minor>\d)_(?P<size>\d+(?:\.\d+)?b)\b"));

/// The alias `find_model` gives for a match made without a point release.
const NEAR_MATCH: &str = "\u{0}near";

/// "gemma-1.1-7b", "mistral-v0.3-7b": a family, a release number, a size.
static POINT_RELEASE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?P<family>gemma|mistral|phi|falcon|olmo|granite|yi)[-_ ]v?\d+(?:\.\d+)+[-_ ](?P<size>\d+(?:\.\d+)?b)\b",
    )
});

/// What the owner is told when their id matched only without its point
/// release: the catalog entry it is planned as, and how to correct it.
pub fn near_match_words(name: &str, alias: &str) -> Option<String> {
    (alias == NEAR_MATCH).then(|| {
        format!(
            "not in the catalog by that name, planned as {name}: the same family and size; paste its config.json if the shapes differ"
        )
    })
}

fn exact_model(text: &str, k: &Knowledge) -> Option<(String, String)> {
    let hay = normalized(text);
    let mut best: Option<(usize, &str, String)> = None;
    for m in &k.models {
        for alias in std::iter::once(&m.name).chain(m.aliases.iter()) {
            let needle = normalized(alias);
            if needle.len() < 4 || !hay.contains(&needle) {
                continue;
            }
            if best.as_ref().is_none_or(|(len, _, _)| needle.len() > *len) {
                best = Some((needle.len(), &m.name, alias.clone()));
            }
        }
    }
    best.map(|(_, name, alias)| (name.to_string(), alias))
}

/// Every catalog model the text names, each once, longest alias first
/// ("Qwen2.5 14B or Llama 3.1 8B?" names two).
pub fn find_models(text: &str, k: &Knowledge) -> Vec<String> {
    let mut hay = normalized(text);
    let mut found: Vec<(usize, String)> = Vec::new();
    loop {
        let mut best: Option<(usize, &str, String)> = None;
        for m in &k.models {
            for alias in std::iter::once(&m.name).chain(m.aliases.iter()) {
                let needle = normalized(alias);
                if needle.len() >= 4
                    && hay.contains(&needle)
                    && best.as_ref().is_none_or(|(len, _, _)| needle.len() > *len)
                {
                    best = Some((needle.len(), &m.name, needle));
                }
            }
        }
        let Some((_, name, needle)) = best else {
            break;
        };
        let at = hay.find(&needle).unwrap_or(0);
        hay.replace_range(at..at + needle.len(), &"#".repeat(needle.len()));
        if !found.iter().any(|(_, n)| n == name) {
            found.push((at, name.to_string()));
        }
    }
    found.sort();
    found.into_iter().map(|(_, n)| n).collect()
}

/// "a qwen 32b", "llama 70b": a family word and a size with no version.
static FAMILY_SIZE: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)\b([a-z]{3,})[-_ ]?(\d+(?:\.\d+)?)\s*b\b"));

/// The catalog models a family word and a size name when no alias matches
/// ("a qwen 32b": Qwen2.5 32B and Qwen3 32B). Even one is a question
/// for the owner, never a guess; the size in the name must be the one said.
pub fn versions_named(text: &str, k: &Knowledge) -> Vec<String> {
    if exact_model(text, k).is_some() {
        return Vec::new();
    }
    for c in FAMILY_SIZE.captures_iter(text) {
        let family = c[1].to_ascii_lowercase();
        let size = format!("{}b", &c[2]);
        let found: Vec<String> = k
            .models
            .iter()
            .filter(|m| m.family.to_ascii_lowercase().starts_with(&family))
            .filter(|m| {
                m.name
                    .split_whitespace()
                    .last()
                    .is_some_and(|last| last.eq_ignore_ascii_case(&size))
            })
            .map(|m| m.name.clone())
            .collect();
        // One version is asked too: "llama 8b" may be Llama 3 or 3.1.
        if !found.is_empty() {
            return found;
        }
    }
    Vec::new()
}

/// Model families owners name; one of these without a catalog match is a
/// model headroom does not know, and is said so rather than dropped.
const FAMILIES: [&str; 30] = [
    "llama",
    "qwen",
    "mistral",
    "mixtral",
    "gemma",
    "phi",
    "falcon",
    "deepseek",
    "gpt-oss",
    "olmo",
    "granite",
    "command-r",
    "yi-",
    "internlm",
    "smollm",
    "nemotron",
    "glm",
    "kimi",
    "minimax",
    "starcoder",
    "codellama",
    "codestral",
    "hermes",
    "solar",
    "exaone",
    "jamba",
    "dbrx",
    "grok",
    "baichuan",
    "magistral",
];
/// Tools whose names start like a model family.
const NOT_MODELS: [&str; 6] = [
    "llama-factory",
    "llamafactory",
    "llama.cpp",
    "llama-server",
    "llama_factory",
    "llama-cpp",
];
/// Words that end a model's name.
const NAME_ENDS: [&str; 24] = [
    "with", "on", "in", "at", "and", "for", "using", "via", "lora", "qlora", "full", "bf16",
    "fp16", "fp32", "batch", "packing", "pack", "seq", "fit", "fits", "instead", "model", "please",
    "then",
];

/// The owner's words for a model that is not in the catalog: a family word
/// and the name parts after it ("Falcon-H1 34B", "Llama 4 Scout"), or a
/// Hugging Face id (`org/name`).
pub fn unknown_model(text: &str) -> Option<String> {
    let tokens: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | '(' | ')' | '?' | '!' | ';' | '"'))
        .filter(|t| !t.is_empty())
        .collect();
    let start = tokens.iter().position(|t| {
        let l = t.to_ascii_lowercase();
        if NOT_MODELS.iter().any(|n| l.starts_with(n)) {
            return false;
        }
        let name = l.rsplit('/').next().unwrap_or(&l);
        FAMILIES.iter().any(|f| name.starts_with(f))
    })?;
    let mut words = vec![tokens[start].trim_end_matches(['.', ':'])];
    for t in &tokens[start + 1..] {
        let l = t.to_ascii_lowercase();
        let part = t.chars().any(|c| c.is_ascii_digit())
            || t.chars().next().is_some_and(char::is_uppercase);
        if words.len() >= 4 || !part || NAME_ENDS.contains(&l.trim_end_matches(['.', ':'])) {
            break;
        }
        words.push(t.trim_end_matches(['.', ':']));
    }
    Some(words.join(" "))
}

/// "batch 4, 2048, bf16": in a list of settings, one item that is only a
/// token count (a multiple of 64 from 256, or "4k") is the packing length.
/// Two such items, or one that could be anything else, are left alone.
fn bare_length_in_list(text: &str) -> Option<(u64, String)> {
    let items: Vec<(u64, &str)> = text
        .split([',', ';', '\n'])
        .filter_map(|item| {
            let t = item.trim().trim_end_matches(['.', '!']).trim();
            let (digits, k) = match t.strip_suffix(['k', 'K']) {
                Some(d) => (d.trim(), true),
                None => (t, false),
            };
            let n: u64 = digits.parse().ok()?;
            let n = if k { n.checked_mul(1024)? } else { n };
            ((256..=131_072).contains(&n) && n % 64 == 0).then_some((n, t))
        })
        .collect();
    match items.as_slice() {
        [(n, t)] => Some((
            *n,
            format!("{t} (a bare length beside the batch, read as packing)"),
        )),
        _ => None,
    }
}

fn params_value(num: &str, unit: &str) -> Option<u64> {
    let v: f64 = num.parse().ok()?;
    let scale = match unit.to_ascii_lowercase().as_str() {
        "b" | "bn" | "billion" => 1e9,
        "m" | "million" => 1e6,
        _ => return None,
    };
    let params = (v * scale).round();
    (1e6..=1e13).contains(&params).then_some(params as u64)
}

/// A figure longer than any number headroom can hold, in the owner's digits
/// (never a saturated stand-in for them).
fn too_many_digits(name: &str, raw: &str) -> String {
    let limit = if name.contains("batch") {
        crate::calc::setup::MAX_BATCH
    } else {
        crate::calc::setup::MAX_PACK
    };
    format!("{name} of {raw} is beyond what headroom plans (at most {limit}); check the number")
}

fn number(raw: &str) -> Option<u64> {
    raw.replace([',', '_'], "").parse().ok()
}

/// Every slot the text names, in the order the slots are listed above.
pub fn extract(text: &str, k: &Knowledge) -> Vec<Found> {
    let mut out = Vec::new();
    let mut push = |slot: Slot, words: &str| {
        out.push(Found {
            slot,
            words: words.trim().to_string(),
        })
    };

    let model = find_model(text, k);
    let unknown = if model.is_none() {
        unknown_model(text)
    } else {
        None
    };
    if let Some(c) = PARAMS_NAMED.captures(text) {
        if let Some(p) = params_value(&c[1], &c[2]) {
            push(Slot::Params(p), &c[0]);
        }
    } else if let Some((name, alias)) = &model {
        let said = if alias == NEAR_MATCH {
            let id = POINT_RELEASE
                .find(text)
                .map_or(name.as_str(), |m| m.as_str());
            format!(
                "{id}; {}",
                near_match_words(name, alias).unwrap_or_default()
            )
        } else {
            alias.clone()
        };
        push(Slot::Model(name.clone()), &said);
    } else if let Some(c) = unknown.as_ref().and_then(|w| {
        // "qwen1.5 … it has 7.7B params": the count said as a count, apart
        // from the name, is the model's size (what the unknown name lacks).
        PARAMS_BARE
            .captures_iter(text)
            .find(|c| c[0].to_ascii_lowercase().contains("param") && !w.contains(&c[0]))
    }) && let Some(p) = params_value(&c[1], &c[2])
    {
        push(Slot::Params(p), &c[0]);
    } else if let Some(words) = &unknown {
        // "Falcon-H1 34B" is a model headroom does not know, not a bare 34B.
        push(Slot::UnknownModel(words.clone()), words);
    } else if let Some(c) = {
        // "acme-lm 13b (13.4b parameters)": the figure said as a count wins.
        let all: Vec<_> = PARAMS_BARE.captures_iter(text).collect();
        let counted = all
            .iter()
            .position(|c| c[0].to_ascii_lowercase().contains("param"));
        all.into_iter().nth(counted.unwrap_or(0))
    } && let Some(p) = params_value(&c[1], &c[2])
    {
        push(Slot::Params(p), &c[0]);
    }

    // "lora rank 64", "lora dropout": LoRA names the setting there, not
    // the method (the run may be QLoRA).
    let qualifies = |c: &regex::Captures| {
        let after = &text[c.get(0).map_or(0, |m| m.end())..];
        c[1].eq_ignore_ascii_case("lora") && LORA_QUALIFIER.is_match(after)
    };
    let method = METHOD.captures_iter(text).find(|c| !qualifies(c));
    let qualifier_lora = METHOD
        .captures_iter(text)
        .find(|c| qualifies(c))
        .map(|c| c[0].to_string());
    let mut qlora = false;
    if let Some(c) = method {
        let word = c[1].to_ascii_lowercase().replace('-', "");
        let method = if word == "qlora" {
            Method::Qlora
        } else if word == "lora" {
            Method::Lora
        } else {
            Method::Full
        };
        qlora = method == Method::Qlora;
        push(Slot::Method(method), &c[0]);
    }
    // "bf16 cross-entropy", "fp32 loss": the loss's precision, not the run's.
    let loss_precision = LOSS_KIND.find(text);
    if let Some(c) = DTYPE.captures_iter(text).find(|c| {
        loss_precision.is_none_or(|m| !m.range().contains(&c.get(0).map_or(0, |g| g.start())))
    }) {
        let word = c[1].to_ascii_lowercase().replace([' ', '-'], "");
        let word = if word.ends_with("precision") {
            "fp32".to_string()
        } else {
            word
        };
        // QLoRA's nf4 is how the base is stored, not the compute dtype.
        if let Some(d) = Dtype::parse(&word)
            && !(qlora && matches!(d, Dtype::Nf4 | Dtype::Int4))
        {
            push(Slot::Dtype(d), &c[0]);
        }
    }
    if let Some(c) = BATCH.captures(text) {
        match number(&c[1]) {
            Some(b) => match crate::calc::setup::out_of_range("batch", b) {
                None => push(Slot::Batch(b), &c[0]),
                Some(why) => push(Slot::OutOfRange(why), &c[0]),
            },
            None => push(Slot::OutOfRange(too_many_digits("a batch", &c[1])), &c[0]),
        }
    }
    if let Some(c) = PACK.captures(text)
        && number(&c[1]).is_none()
    {
        push(
            Slot::OutOfRange(too_many_digits("a packing length", &c[1])),
            &c[0],
        );
    }
    if let Some(c) = PACK.captures(text)
        && let Some(n) = number(&c[1])
    {
        let pack = if c.get(2).is_some() {
            n.saturating_mul(1024)
        } else {
            n
        };
        match crate::calc::setup::out_of_range("pack", pack) {
            None => push(Slot::Pack(pack), &c[0]),
            Some(why) => push(Slot::OutOfRange(why), &c[0]),
        }
    }
    if !PACK.is_match(text)
        && BATCH.is_match(text)
        && let Some((pack, said)) = bare_length_in_list(text)
    {
        push(Slot::Pack(pack), &said);
    }
    if let Some(c) = OPTIMIZER.captures(text) {
        let word = c[1].to_ascii_lowercase().replace(['-', ' '], "_");
        let key = if word.starts_with("paged") {
            let bits = if word.contains("32") { 32 } else { 8 };
            format!("paged_adamw_{bits}bit")
        } else if word.contains('8') {
            "adamw_8bit".to_string()
        } else {
            word
        };
        if let Some(o) = Optimizer::parse(&key) {
            push(Slot::Optimizer(o), &c[0]);
        }
    }
    if let Some(c) = CHECKPOINTING.captures(text) {
        // "No --gradient_checkpointing passed", "didn't pass
        // --gradient_checkpointing", "gradient_checkpointing not set".
        let negated = c.get(1).is_some_and(|w| {
            let w = w.as_str().to_ascii_lowercase();
            ["no", "without", "not", "never"].contains(&w.as_str())
                || w.starts_with("didn")
                || w.starts_with("did ")
                || w.starts_with("never ")
                || w.contains("off")
                || w.starts_with("disable")
        }) || c.get(3).is_some();
        let off = c.get(2).is_some_and(|v| {
            matches!(
                v.as_str().to_ascii_lowercase().as_str(),
                "off" | "false" | "no" | "disabled"
            )
        });
        push(Slot::GradCheckpointing(!(negated ^ off)), &c[0]);
    }
    if let Some(c) = RANK.captures(text)
        && let Some(r) = number(&c[1])
    {
        match crate::calc::setup::out_of_range("rank", r) {
            None => push(Slot::LoraRank(r), &c[0]),
            Some(why) => push(Slot::OutOfRange(why), &c[0]),
        }
    }
    if let Some(c) = PRECISION.captures(text) {
        let w = c[1].to_ascii_lowercase();
        let p = if w.contains("mixed") || w == "amp" || w.contains("master") {
            Precision::Mixed
        } else {
            Precision::Pure
        };
        push(Slot::Precision(p), &c[0]);
    }
    if let Some(c) = ATTENTION.captures(text) {
        let w = c
            .get(1)
            .or(c.get(2))
            .or(c.get(3))
            .map_or("", |m| m.as_str());
        if let Some(a) = Attention::parse(w) {
            push(Slot::Attention(a), &c[0]);
        }
    }
    if let Some(c) = FUSED_LOSS.captures(text) {
        let loss = if c.get(1).is_some() {
            Loss::Upcast
        } else if c[2].to_ascii_lowercase().contains("chunked") {
            Loss::Chunked
        } else {
            Loss::Fused
        };
        push(Slot::Loss(loss), &c[0]);
    } else if let Some(c) = LOSS_KIND.captures(text) {
        let loss = if c.get(1).is_some() {
            Loss::Native
        } else {
            Loss::Upcast
        };
        push(Slot::Loss(loss), &c[0]);
    }
    if let Some((spec, words)) = crate::extract::objective_words::objective_in(text) {
        push(Slot::Objective(spec), &words);
    }
    if let Some(c) = DROPOUT.captures(text) {
        let on = c
            .get(1)
            .is_some_and(|v| v.as_str().parse::<f64>().is_ok_and(|d| d > 0.0));
        push(Slot::LoraDropout(on), &c[0]);
    }
    if is_tensor_parallel(text) || text.to_ascii_lowercase().contains("tensor parallelism") {
        push(Slot::TensorParallel, "tensor parallel");
    } else {
        if let Some(c) = NODES.captures(text) {
            let raw = c
                .get(1)
                .or(c.get(2))
                .map_or("", |m| m.as_str())
                .to_ascii_lowercase();
            let n = match raw.as_str() {
                "two" => Some(2),
                "three" => Some(3),
                "four" => Some(4),
                digits => digits.parse().ok(),
            };
            if let Some(n) = n.filter(|n: &u64| (1..=64).contains(n)) {
                push(Slot::Nodes(n), &c[0]);
            }
        }
        if let Some(c) = SHARDING.captures(text)
            && let Some(s) = Sharding::parse(&c[1])
        {
            push(Slot::Sharding(s), &c[0]);
        }
    }
    if let Some(c) = OFFLOAD.captures(text) {
        push(Slot::Offload(c.get(1).is_none()), &c[0]);
    }
    if let Some(c) = EVAL.captures(text) {
        let n = c.get(1).and_then(|m| number(m.as_str())).unwrap_or(8);
        match crate::calc::setup::out_of_range("batch", n) {
            None => push(Slot::EvalBatch(n), &c[0]),
            Some(why) => push(Slot::OutOfRange(why), &c[0]),
        }
    }
    if let Some(c) = PACKED.captures(text) {
        push(Slot::Packed(c.get(1).is_some()), &c[0]);
    }
    if let Some(c) = RESUME.captures(text) {
        push(Slot::Resume(true), &c[0]);
    }
    if let Some(c) = LOADER.captures(text) {
        let loader = if &c[1] == "5" {
            crate::calc::runtime::Loader::V5
        } else {
            crate::calc::runtime::Loader::V4
        };
        push(Slot::Loader(loader), &c[0]);
    }
    if let Some(c) = PREQUANTIZED.captures(text) {
        push(Slot::Prequantized(true), &c[0]);
    }
    if let Some((reading, words)) = crate::extract::available_said::said_available(text) {
        push(Slot::Available(reading), &words);
    }
    if let Some(key) = crate::calc::runtime::find(text, k) {
        push(Slot::Framework(key.clone()), &key);
    }
    if let Some(c) = SOLVE
        .captures_iter(text)
        .find(|c| !SETTING_AFTER.is_match(&text[c.get(0).map_or(0, |m| m.end())..]))
    {
        let what = if c.get(2).is_some() || c.get(4).is_some() {
            SolveFor::Batch
        } else {
            SolveFor::Pack
        };
        push(Slot::Solve(what), &c[0]);
    }
    if let Some(c) = TARGETS.captures(text) {
        let targets = if c.get(2).is_some() {
            Some(LoraTargets::AllLinear)
        } else if c.get(3).is_some() {
            Some(LoraTargets::Attention)
        } else if let Some(list) = c.get(4) {
            LoraTargets::parse(&list.as_str().replace(" and ", ",").replace('+', ","))
        } else if let Some(letters) = c.get(5) {
            // "only on q,k,v,o", "on qkv": the projections by their letter.
            let names: Vec<String> = letters
                .as_str()
                .chars()
                .filter(|ch| matches!(ch, 'q' | 'k' | 'v' | 'o'))
                .map(|ch| format!("{ch}_proj"))
                .collect();
            LoraTargets::parse(&names.join(","))
        } else {
            let list: String = c[1]
                .chars()
                .filter(|ch| !matches!(ch, '[' | ']' | '\'' | '"'))
                .collect();
            LoraTargets::parse(&list)
        };
        if let Some(t) = targets {
            push(Slot::LoraTargets(t), &c[0]);
        }
    }
    // "LoRA r=16, bf16, bs 4 …" describes a LoRA run; "lora rank 64" alone
    // only its rank.
    if let Some(words) = qualifier_lora
        && !out.iter().any(|f| matches!(f.slot, Slot::Method(_)))
        && out.iter().any(|f| {
            // A rank refused as out of range is still a rank: "lora rank 0"
            // names no method.
            !matches!(
                f.slot,
                Slot::LoraRank(_)
                    | Slot::LoraDropout(_)
                    | Slot::LoraTargets(_)
                    | Slot::OutOfRange(_)
            )
        })
    {
        out.push(Found {
            slot: Slot::Method(Method::Lora),
            words,
        });
    }
    out
}

#[cfg(test)]
#[path = "slots_tests.rs"]
mod tests;
