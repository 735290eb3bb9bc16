//! Reads a pasted trainer config (LLaMA-Factory, axolotl or torchtune YAML,
//! or TRL/transformers `key=value` / `--key value`) into the settings that
//! size a run.
//!
//! No YAML parser: leaf `key: value` lines are read at any depth with their
//! parent section, which is all these flat-ish configs need.

use crate::extract::re;
use regex::Regex;
use serde::Serialize;
use std::sync::LazyLock;

#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct TrainerConfig {
    /// "LLaMA-Factory", "axolotl", "torchtune" or "TRL/transformers".
    pub framework: Option<&'static str>,
    pub model_id: Option<String>,
    /// "full", "lora" or "qlora".
    pub method: Option<&'static str>,
    /// 4 or 8 when the base weights are loaded quantized.
    pub load_bits: Option<u8>,
    pub batch: Option<u64>,
    /// Tokens per sequence.
    pub pack: Option<u64>,
    pub grad_accum: Option<u64>,
    pub lora_rank: Option<u64>,
    /// As written ("all", "q_proj,v_proj"); "all-linear" for axolotl's
    /// `lora_target_linear: true`.
    pub lora_targets: Option<String>,
    /// "bf16", "fp16" or "fp32".
    pub dtype: Option<&'static str>,
    pub optimizer: Option<String>,
    pub gradient_checkpointing: Option<bool>,
    pub eval_batch: Option<u64>,
    /// LoRA dropout above zero (`lora_dropout: 0.05`), or exactly zero.
    pub lora_dropout: Option<bool>,
    /// The loss the config selects, with the key and value that select it
    /// (torchtune's `loss._component_`, axolotl's `cut_cross_entropy`,
    /// `use_liger_kernel`).
    #[serde(skip)]
    pub loss: Option<(crate::calc::setup::Loss, String)>,
    /// Why the method is the trainer's default, when no key names it
    /// ("open-instruct trains every weight without --use_lora").
    pub method_default: Option<&'static str>,
    /// A preference or RL run's settings: `rl: dpo` (axolotl), `stage: dpo`
    /// (LLaMA-Factory), `DPOConfig(…)`/`GRPOConfig(…)` (TRL), verl's
    /// `adv_estimator: grpo`, with their generations, lengths and vLLM.
    #[serde(skip)]
    pub objective: Option<crate::calc::objective::ObjectiveSpec>,
    /// Every pair read, in order; nested YAML keys are dotted ("model.lora_rank").
    pub keys: Vec<(String, String)>,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TrainerConfigError {
    #[error(
        "none of the {read} settings in what you pasted is one I know (model, batch size, sequence length, LoRA)"
    )]
    NothingKnown { read: usize },
}

impl TrainerConfigError {
    /// What to paste instead, for the owner.
    pub fn hint(&self) -> &'static str {
        "Paste the training config itself: the LLaMA-Factory, axolotl or torchtune YAML file, or the TrainingArguments/SFTConfig call or command line, with the model, batch size, sequence length and LoRA lines."
    }
}

/// Keys that count as trainer settings, for recognising a paste
/// (space-separated to keep the list short).
const KNOWN: &str = "model_name_or_path base_model model_id model model_name pretrained_model_name_or_path \
    finetuning_type adapter peft use_peft load_in_4bit load_in_8bit \
    quantization_bit per_device_train_batch_size micro_batch_size batch_size \
    cutoff_len max_seq_length max_length sequence_len max_seq_len seq_length \
    gradient_accumulation_steps lora_rank lora_r lora_target lora_target_modules \
    target_modules lora_attn_modules lora_target_linear bf16 fp16 dtype torch_dtype \
    optim optimizer gradient_checkpointing enable_activation_checkpointing \
    per_device_eval_batch_size eval_batch_size _component_ num_generations max_completion_length \
    max_prompt_length use_vllm vllm_mode vllm_gpu_memory_utilization precompute_ref_log_probs \
    num_samples_per_prompt_rollout response_length max_response_length rl pref_loss \
    lora_dropout apply_lora_to_mlp packed sample_packing packing cut_cross_entropy \
    liger_fused_linear_cross_entropy use_liger_kernel enable_liger_kernel";

/// `key: value` or `key:` (a section or a list follows); indent kept.
static YAML: LazyLock<Regex> =
    LazyLock::new(|| re(r"^(\s*)([A-Za-z_][\w.-]*)\s*:(?:\s+(.*?))?\s*$"));
/// `key=value` inside a Python call; lists and quoted strings kept whole,
/// and `args = SFTConfig(` stops at the `(` so the call's own pairs are read.
static CALL: LazyLock<Regex> =
    LazyLock::new(|| re(r#"([A-Za-z_]\w*)\s*=\s*("[^"]*"|'[^']*'|\[[^\]]*\]|[^,\s()\[\]]+)"#));

#[derive(Debug, Clone, Copy, PartialEq)]
enum Form {
    Yaml,
    Call,
    Cli,
}

struct Pair {
    path: String,
    leaf: String,
    parent: Option<String>,
    value: String,
    quoted: bool,
    form: Form,
}

/// Strips quotes; `['q_proj', 'v_proj']` becomes `q_proj,v_proj`.
fn clean(value: &str) -> (String, bool) {
    let v = value.trim();
    let unquote = |s: &str| s.trim().trim_matches(['"', '\'']).to_string();
    if let Some(list) = v.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
        let items: Vec<String> = list
            .split(',')
            .map(unquote)
            .filter(|s| !s.is_empty())
            .collect();
        return (items.join(","), false);
    }
    let quoted = v.len() >= 2 && (v.starts_with('"') || v.starts_with('\''));
    (unquote(v), quoted)
}

fn strip_comment(line: &str) -> &str {
    if line.trim_start().starts_with('#') {
        return "";
    }
    line.find(" #").map_or(line, |i| &line[..i])
}

fn push(
    pairs: &mut Vec<Pair>,
    path: String,
    leaf: &str,
    parent: Option<String>,
    raw: &str,
    form: Form,
) {
    let (value, quoted) = clean(raw);
    let leaf = leaf.replace('-', "_");
    pairs.push(Pair {
        path,
        leaf,
        parent,
        value,
        quoted,
        form,
    });
}

/// A training script's own printout of its configuration, framed under a
/// title that says so ("LLAMA 3.1 8B LoRA FINE-TUNING CONFIGURATION", the
/// DGX Spark playbooks' `Llama3_8B_LoRA_finetuning.py`): its `Label: value`
/// lines in words are the run's settings, as a config file's keys are.
static BANNER_TITLE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?im)^\s*[=#*-]*\s*[\w .-]*\b(?:config(?:uration)?|settings|hyper-?parameters)\b\s*[=#*-]*\s*$",
    )
});
static BANNER_LINE: LazyLock<Regex> =
    LazyLock::new(|| re(r"^\s*([A-Za-z][A-Za-z ()/-]{1,40}?)\s*:\s+(\S.*?)\s*$"));

/// The printed labels and the config keys they stand for.
fn banner_key(label: &str) -> Option<&'static str> {
    Some(match label.trim().to_ascii_lowercase().as_str() {
        "model" | "model name" | "base model" => "model_name_or_path",
        "batch size" | "per device batch size" | "micro batch size" | "train batch size" => {
            "per_device_train_batch_size"
        }
        "sequence length"
        | "max sequence length"
        | "max seq length"
        | "max length"
        | "context length"
        | "seq length" => "max_seq_length",
        "lora rank" | "rank" => "lora_r",
        "gradient accumulation steps" | "gradient accumulation" => "gradient_accumulation_steps",
        "dtype" | "precision" | "torch dtype" => "torch_dtype",
        "gradient checkpointing" => "gradient_checkpointing",
        _ => return None,
    })
}

/// The pair that marks a printed configuration, with the method its title
/// names (or nothing).
const BANNER: &str = "printed_configuration";

fn banner_pairs(text: &str) -> Vec<Pair> {
    // A server's banner ("=== vLLM configuration ===", "Batch size: 512")
    // is the server's, never the run's.
    static SERVING: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?i)\b(?:vllm|ollama|llama[.-]?cpp|llama-server|sglang|serv(?:e|er|ing)|inference|endpoint)\b",
        )
    });
    let Some(title) = BANNER_TITLE.find(text) else {
        return Vec::new();
    };
    if SERVING.is_match(text) || SERVER_COMMAND.is_match(text) {
        return Vec::new();
    }
    let mut pairs = Vec::new();
    let heading = title.as_str().to_ascii_lowercase();
    let method = if heading.contains("qlora") {
        "qlora"
    } else if heading.contains("lora") {
        "lora"
    } else if heading.contains("full") {
        "full"
    } else {
        ""
    };
    push(&mut pairs, BANNER.into(), BANNER, None, method, Form::Yaml);
    for line in text[title.end()..].lines() {
        if let Some(c) = BANNER_LINE.captures(line)
            && let Some(key) = banner_key(&c[1])
        {
            push(&mut pairs, key.into(), key, None, &c[2], Form::Yaml);
        }
    }
    // Three settings in words or more, or it is a log that says "config".
    if pairs.iter().filter(|p| p.leaf != BANNER).count() >= 3 {
        pairs
    } else {
        Vec::new()
    }
}

/// A script's `parser.add_argument("--batch_size", type=int, default=8,
/// …)` calls, possibly over several lines: run with its defaults, each
/// `default=` is the run's setting, and a `store_true` flag not passed is
/// off. The calls are returned as pairs and cut from the text.
fn argparse_pairs(text: &str) -> (Vec<Pair>, String) {
    static OPEN: LazyLock<Regex> =
        LazyLock::new(|| re(r#"add_argument\(\s*["']-{1,2}([\w-]+)["']"#));
    static DEFAULT: LazyLock<Regex> =
        LazyLock::new(|| re(r#"\bdefault\s*=\s*("[^"]*"|'[^']*'|\[[^\]]*\]|[^,\s()\[\]]+)"#));
    static ACTION: LazyLock<Regex> =
        LazyLock::new(|| re(r#"\baction\s*=\s*["'](store_true|store_false)["']"#));
    let mut pairs = Vec::new();
    let mut rest = String::with_capacity(text.len());
    let mut at = 0;
    while let Some(c) = OPEN.captures_at(text, at) {
        let whole = c.get(0).expect("match");
        rest.push_str(&text[at..whole.start()]);
        // The call runs to its matching parenthesis, quotes skipped.
        let (mut depth, mut quote, mut end) = (1usize, None::<char>, text.len());
        for (i, ch) in text[whole.end()..].char_indices() {
            match (quote, ch) {
                (Some(q), _) if ch == q => quote = None,
                (Some(_), _) => {}
                (None, '"' | '\'') => quote = Some(ch),
                (None, '(') => depth += 1,
                (None, ')') => {
                    depth -= 1;
                    if depth == 0 {
                        end = whole.end() + i + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        let call = &text[whole.end()..end];
        let name = c[1].to_string();
        let value = match (DEFAULT.captures(call), ACTION.captures(call)) {
            (Some(d), _) => Some(d[1].to_string()),
            (None, Some(a)) => Some((&a[1] == "store_false").to_string()),
            _ => None,
        };
        if let Some(v) = value.filter(|v| v != "None") {
            push(
                &mut pairs,
                name.replace('-', "_"),
                &name,
                None,
                &v,
                Form::Call,
            );
        }
        at = end;
    }
    rest.push_str(&text[at..]);
    (pairs, rest)
}

fn read_pairs(text: &str) -> Vec<Pair> {
    let expanded = crate::extract::shell_vars::expand(text);
    let (mut parsed, rest) = argparse_pairs(expanded.as_ref());
    if !parsed.is_empty() {
        parsed.extend(read_pairs_of(&rest));
        return parsed;
    }
    let text = expanded.as_ref();
    let mut banner = banner_pairs(text);
    if !banner.is_empty() {
        banner.extend(read_pairs_of(text));
        return banner;
    }
    read_pairs_of(text)
}

fn read_pairs_of(text: &str) -> Vec<Pair> {
    let mut pairs: Vec<Pair> = Vec::new();
    // Open YAML sections: (indent, key, index of its pair for list items).
    let mut stack: Vec<(usize, String, usize)> = Vec::new();
    for line in text.lines().map(strip_comment) {
        let item = line.trim_start().strip_prefix("- ").map(str::trim);
        if let Some(item) = item {
            // A scalar list item belongs to the section above; `- key: v` is skipped.
            if let Some(&(_, _, at)) = stack.last().filter(|_| !YAML.is_match(item)) {
                let p = &mut pairs[at];
                p.value = if p.value.is_empty() {
                    clean(item).0
                } else {
                    format!("{},{}", p.value, clean(item).0)
                };
            }
        } else if let Some(c) = YAML.captures(line) {
            let indent = c[1].len();
            while stack.last().is_some_and(|s| s.0 >= indent) {
                stack.pop();
            }
            let key = c[2].to_string();
            let parent = stack.last().map(|s| s.1.clone());
            let path = parent
                .as_ref()
                .map_or(key.clone(), |p| format!("{p}.{key}"));
            let raw = c.get(3).map_or("", |m| m.as_str());
            if raw.is_empty() {
                stack.push((indent, path.clone(), pairs.len()));
            }
            let parent = parent.map(|p| p.rsplit('.').next().unwrap_or("").to_string());
            push(&mut pairs, path, &key, parent, raw, Form::Yaml);
        } else if line.contains("--") {
            let tokens: Vec<&str> = line.split_whitespace().filter(|t| *t != "\\").collect();
            for (i, t) in tokens.iter().enumerate() {
                let (key, value) = match t.strip_prefix("--") {
                    Some(k) if k.contains('=') => k.split_once('=').unwrap_or((k, "")),
                    Some(k) => match tokens.get(i + 1).filter(|n| !n.starts_with("--")) {
                        Some(v) => (k, *v),
                        None => (k, "true"), // a bare flag: `--bf16`
                    },
                    None => match t.split_once('=') {
                        Some((k, v))
                            if k.chars()
                                .all(|c| c.is_alphanumeric() || c == '_' || c == '.') =>
                        {
                            (k, v)
                        }
                        _ => continue,
                    },
                };
                push(
                    &mut pairs,
                    key.replace('-', "_"),
                    key,
                    None,
                    value,
                    Form::Cli,
                );
            }
        } else {
            for c in CALL.captures_iter(line) {
                push(&mut pairs, c[1].to_string(), &c[1], None, &c[2], Form::Call);
            }
        }
    }
    pairs.retain(|p| !p.value.is_empty());
    pairs
}

fn is_known(p: &Pair) -> bool {
    KNOWN.split_whitespace().any(|k| k == p.leaf) || p.form != Form::Yaml && p.leaf == "r"
}

/// True for at least 3 YAML `key: value` lines with 2 known keys, or 2
/// known keys written `key=value` / `--key value`.
pub fn looks_like_trainer_config(text: &str) -> bool {
    // A script's printout of its own configuration is the run's settings,
    // though the lines around it are the program's.
    if !banner_pairs(text).is_empty() {
        return true;
    }
    // A `ps` line of a running trainer carries flags but is not a config
    // paste; nor is a log a program printed (an Ollama runner's
    // `--batch-size 512` is the server's), nor a server's command line.
    if crate::extract::ps::looks_like_ps(text)
        || crate::extract::segment::printed(text)
        || SERVER_COMMAND.is_match(text)
    {
        return false;
    }
    let pairs = read_pairs(text);
    let yaml = pairs.iter().filter(|p| p.form == Form::Yaml);
    let known_yaml = yaml.clone().filter(|p| is_known(p)).count();
    let known_other = pairs
        .iter()
        .filter(|p| p.form != Form::Yaml && is_known(p))
        .count();
    // key=value pairs inside a sentence are the owner's words (read by the
    // slot extractor with the rest of the line); only code-shaped pastes
    // (`SFTConfig(…)`, `--flag value`, several lines) are a config.
    let code_shaped = text.lines().filter(|l| !l.trim().is_empty()).count() >= 3
        || CODE_START.is_match(text) && !words_around_a_call(text);
    (yaml.count() >= 3 && known_yaml >= 2) || (known_other >= 2 && code_shaped)
}

/// An inference server's command line or its printed arguments: its
/// `--model` and `--batch-size` are the server's, not the run's.
static SERVER_COMMAND: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    crate::extract::re(
        r"(?m)(?:^|[\s/$#])(?:vllm\s+serve|llama-server|llama-swap|ollama\s+(?:serve|run)|sglang\.launch_server|text-generation-launcher|trl\s+vllm-serve)\b|api_server\.py|\bargs:\s*Namespace\(",
    )
});

/// A paste that configures an inference server or a container (a server's
/// command line, a compose service, a Kubernetes pod): its lengths and
/// batch sizes are the server's, never the training run's.
pub fn configures_a_server(text: &str) -> bool {
    static MANIFEST: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?m)^\s*(?:-\s+)?image:\s*\S|^services:\s*$|^\s*containers:\s*$|^\s*(?:-\s+)?container_name:\s*\S",
        )
    });
    // A command line starts with the server (after a prompt); a sentence
    // that names one ("…, trl vllm-serve") is the owner's.
    static LEADING: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?m)^\s*(?:\$\s+)?(?:sudo\s+)?(?:[A-Z_][A-Z0-9_]*=\S*\s+)*(?:\S*/)?(?:vllm\s+serve|llama-server|llama-swap|ollama\s+serve|python3?\s+-m\s+sglang\.launch_server|text-generation-launcher|trl\s+vllm-serve|docker\s+run)\b",
        )
    });
    LEADING.is_match(text) || MANIFEST.is_match(text)
}

/// One line where a call is quoted inside the owner's sentence
/// ("GRPOConfig(num_generations=4, …) on llama 3.1 8b lora, bf16"): the
/// words outside the parentheses are theirs, so the line is prose.
fn words_around_a_call(text: &str) -> bool {
    static CALL_SPAN: LazyLock<Regex> = LazyLock::new(|| re(r"[A-Za-z_][\w.]*\s*\([^)]*\)"));
    if text.trim().lines().count() != 1 {
        return false;
    }
    let outside = CALL_SPAN.replace_all(text, " ");
    outside
        .split_whitespace()
        .filter(|w| {
            let w = w.trim_matches(|c: char| ",.;:".contains(c));
            w.len() > 1 && w.chars().all(char::is_alphabetic)
        })
        .count()
        >= 3
}

static CODE_START: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    crate::extract::re(
        r"^\s*(?:[A-Za-z_][\w.]*\s*\(|--[a-z_]+|[a-z_]+\s*=|(?:python3?|accelerate\s+launch|torchrun|deepspeed|uv\s+run)\s)",
    )
});

fn boolean(v: &str) -> Option<bool> {
    match v.to_ascii_lowercase().as_str() {
        "true" | "yes" | "on" | "1" => Some(true),
        "false" | "no" | "off" | "0" => Some(false),
        _ => None,
    }
}

fn dtype_of(v: &str) -> Option<&'static str> {
    match v.to_ascii_lowercase().trim_start_matches("torch.") {
        "bf16" | "bfloat16" => Some("bf16"),
        "fp16" | "float16" | "half" => Some("fp16"),
        "fp32" | "float32" | "float" => Some("fp32"),
        _ => None,
    }
}

/// torchtune's loss components by their class name
/// (torchtune/modules/loss/): the chunked CE keeps bf16 logits and upcasts
/// one chunk at a time; the linear CE never builds the full logits.
fn loss_component(v: &str) -> Option<crate::calc::setup::Loss> {
    use crate::calc::setup::Loss;
    match v.rsplit('.').next().unwrap_or(v) {
        "CEWithChunkedOutputLoss" => Some(Loss::Chunked),
        "LinearCrossEntropyLoss" => Some(Loss::Fused),
        _ => None,
    }
}

fn set<T>(slot: &mut Option<T>, value: Option<T>) {
    if slot.is_none() {
        *slot = value;
    }
}

pub fn parse_trainer_config(text: &str) -> Result<TrainerConfig, TrainerConfigError> {
    let expanded = crate::extract::shell_vars::expand(text);
    let text = expanded.as_ref();
    let pairs = read_pairs(text);
    if !pairs.iter().any(is_known) {
        return Err(TrainerConfigError::NothingKnown { read: pairs.len() });
    }
    let mut c = TrainerConfig::default();
    let (mut lora, mut qlora, mut full, mut to_qlora) = (false, false, false, false);
    let mut extra_targets: Vec<&str> = Vec::new();
    for p in &pairs {
        let v = p.value.as_str();
        let num = || v.replace('_', "").parse::<u64>().ok();
        let on = boolean(v) == Some(true);
        let parent = p.parent.as_deref();
        match p.leaf.as_str() {
            "model_name_or_path"
            | "base_model"
            | "model_id"
            | "model_name"
            | "model"
            | "pretrained_model_name_or_path"
                // `model=model` in a Python call names a variable, not a model.
                if p.form != Form::Call || p.quoted =>
            {
                set(&mut c.model_id, Some(v.to_string()));
            }
            "_component_" if parent == Some("model") => {
                // torchtune.models.llama3_1.qlora_llama3_1_8b
                let last = v.rsplit('.').next().unwrap_or(v);
                let (id, method) = match (last.strip_prefix("qlora_"), last.strip_prefix("lora_")) {
                    (Some(id), _) => (id, &mut qlora),
                    (_, Some(id)) => (id, &mut lora),
                    _ => (last, &mut full),
                };
                *method = true;
                set(&mut c.model_id, Some(id.to_string()));
            }
            "_component_" if parent == Some("optimizer") => {
                set(&mut c.optimizer, v.rsplit('.').next().map(str::to_string));
            }
            BANNER => match v {
                "qlora" => qlora = true,
                "lora" => lora = true,
                "full" => full = true,
                _ => {}
            },
            "finetuning_type" => match v {
                "lora" => lora = true,
                "full" | "freeze" => full = true,
                _ => {}
            },
            "adapter" => match v {
                "lora" => lora = true,
                "qlora" => qlora = true,
                _ => {}
            },
            "peft" | "use_peft" | "use_lora" if on => lora = true,
            "use_qlora" if on => qlora = true,
            "full_finetuning" if on => full = true,
            "load_in_4bit" if on => (c.load_bits, to_qlora) = (Some(4), true),
            "load_in_8bit" if on => set(&mut c.load_bits, Some(8)),
            "quantization_bit" => set(
                &mut c.load_bits,
                num().filter(|b| *b == 4 || *b == 8).map(|b| b as u8),
            ),
            "per_device_train_batch_size" | "micro_batch_size" | "batch_size" => {
                set(&mut c.batch, num())
            }
            "cutoff_len" | "max_seq_length" | "max_length" | "sequence_len" | "max_seq_len"
            | "seq_length" => set(&mut c.pack, num()),
            "gradient_accumulation_steps" => set(&mut c.grad_accum, num()),
            "lora_rank" | "lora_r" => set(&mut c.lora_rank, num()),
            "r" if p.form != Form::Yaml => set(&mut c.lora_rank, num()),
            "rank" if parent.is_some() || p.form != Form::Yaml => set(&mut c.lora_rank, num()),
            "lora_target" | "lora_target_modules" | "target_modules" | "lora_attn_modules" => {
                set(&mut c.lora_targets, Some(v.to_string()))
            }
            // torchtune: adapters on the MLP's and the output projection too.
            "apply_lora_to_mlp" if on => extra_targets.push("gate_proj,up_proj,down_proj"),
            "apply_lora_to_output" if on => extra_targets.push("lm_head"),
            "lora_dropout" => set(
                &mut c.lora_dropout,
                v.parse::<f64>().ok().map(|d| d > 0.0),
            ),
            "_component_" if parent == Some("loss") => {
                set(&mut c.loss, loss_component(v).map(|l| (l, format!("loss: {v}"))))
            }
            // Fused linear cross-entropy: the full logits are never held
            // (axolotl's cut_cross_entropy and Liger flags; Liger's
            // `apply_liger_kernel_to_*` fuses the linear CE by default).
            "cut_cross_entropy"
            | "liger_fused_linear_cross_entropy"
            | "use_liger_kernel"
            | "enable_liger_kernel"
                if on =>
            {
                set(
                    &mut c.loss,
                    Some((crate::calc::setup::Loss::Fused, format!("{}: {v}", p.leaf))),
                )
            }
            // Targets every linear layer, whatever modules are also listed.
            "lora_target_linear" if on => c.lora_targets = Some("all-linear".to_string()),
            "bf16" if on || v == "auto" => set(&mut c.dtype, Some("bf16")),
            "fp16" if on => set(&mut c.dtype, Some("fp16")),
            "dtype" | "torch_dtype" => set(&mut c.dtype, dtype_of(v)),
            "optim" | "optimizer" => set(&mut c.optimizer, Some(v.to_string())),
            "gradient_checkpointing" | "enable_activation_checkpointing" => {
                // axolotl also takes `unsloth` for its offloaded variant.
                set(
                    &mut c.gradient_checkpointing,
                    boolean(v).or(Some(v == "unsloth")),
                )
            }
            "per_device_eval_batch_size" | "eval_batch_size" => set(&mut c.eval_batch, num()),
            _ => {}
        }
    }
    if let Some(t) = c
        .lora_targets
        .as_mut()
        .filter(|_| !extra_targets.is_empty())
    {
        for extra in extra_targets {
            t.push(',');
            t.push_str(extra);
        }
    }
    // Unsloth's `get_peft_model(…)` and PEFT's `LoraConfig(…)` attach
    // adapters; `full_finetuning=True` (Unsloth) trains every weight.
    static ADAPTER_CALL: LazyLock<Regex> =
        LazyLock::new(|| re(r"\b(?:get_peft_model|LoraConfig)\s*\("));
    if ADAPTER_CALL.is_match(text) && !full {
        lora = true;
    }
    // A TRL trainer built without `peft_config` trains every weight:
    // `GRPOTrainer(model=…, args=…)` with no adapter anywhere is a full run.
    static TRL_TRAINER: LazyLock<Regex> =
        LazyLock::new(|| re(r"\b(?:SFT|DPO|GRPO|ORPO|KTO|RLOO|PPO|CPO|Reward)Trainer\s*\("));
    let trl_full =
        TRL_TRAINER.is_match(text) && !text.contains("peft_config") && !lora && !qlora && !full;
    if trl_full {
        c.method_default = Some("a TRL trainer built without peft_config trains every weight");
        full = true;
    }
    c.method = if qlora || lora && to_qlora {
        Some("qlora")
    } else if lora {
        Some("lora")
    } else if full {
        Some("full")
    } else {
        None
    };
    let has = |keys: &[&str]| pairs.iter().any(|p| keys.contains(&p.leaf.as_str()));
    let torchtune =
        has(&["_component_"]) || pairs.iter().any(|p| p.value.starts_with("torchtune."));
    // Most specific first: LLaMA-Factory and axolotl also use HF key names.
    static UNSLOTH: LazyLock<Regex> = LazyLock::new(|| {
        re(r"\bfrom unsloth import\b|\bimport unsloth\b|\bFast(?:Language|Vision)?Model\.")
    });
    static OPEN_INSTRUCT: LazyLock<Regex> = LazyLock::new(|| re(r"\bopen_instruct/\w+\.py\b"));
    c.framework = if has(&[BANNER]) {
        Some("the script's printed")
    } else if UNSLOTH.is_match(text) {
        Some("Unsloth")
    } else if torchtune {
        Some("torchtune")
    } else if has(&["finetuning_type", "cutoff_len", "lora_target"]) {
        Some("LLaMA-Factory")
    } else if has(&["base_model", "adapter", "sequence_len", "micro_batch_size"]) {
        Some("axolotl")
    } else if OPEN_INSTRUCT.is_match(text)
        || has(&[
            "dataset_mixer_list",
            "num_samples_per_prompt_rollout",
            "response_length",
        ])
    {
        Some("open-instruct")
    } else if has(&["per_device_train_batch_size", "max_seq_length"]) {
        Some("TRL/transformers")
    } else {
        None
    };
    // A pre-quantized 4-bit checkpoint (`…-bnb-4bit`, Unsloth's and
    // bitsandbytes' naming) loads quantized: only adapters train on it.
    static PREQUANTIZED_4BIT: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?i)[-_.](?:bnb|nf4)[-_]?4bit\b|[-_]4bit[-_]bnb\b"));
    if c.method.is_none()
        && c.model_id
            .as_deref()
            .is_some_and(|m| PREQUANTIZED_4BIT.is_match(m))
    {
        c.method = Some("qlora");
        c.load_bits = Some(4);
        c.method_default =
            Some("a bitsandbytes 4-bit checkpoint loads quantized, so only adapters train on it");
    }
    // open-instruct's scripts train every weight unless `--use_lora` or
    // `--use_qlora` is passed (their default is `use_lora=False`).
    if c.method.is_none() && c.framework == Some("open-instruct") {
        c.method = Some("full");
        c.method_default = Some("open-instruct trains every weight without --use_lora");
    }
    // A config that evaluates during training (axolotl's `val_set_size` or
    // `evals_per_epoch`, transformers' `eval_strategy`) has an evaluation
    // peak to plan even when it names no eval batch: axolotl's defaults to
    // `micro_batch_size`, TrainingArguments' to 8.
    if c.eval_batch.is_none() && evaluates(&pairs) {
        c.eval_batch = if c.framework == Some("axolotl") {
            c.batch
        } else {
            Some(8)
        };
    }
    c.objective = objective_of(text, &pairs);
    c.keys = pairs.into_iter().map(|p| (p.path, p.value)).collect();
    Ok(c)
}

/// Whether the config runs evaluation during training.
fn evaluates(pairs: &[Pair]) -> bool {
    pairs.iter().any(|p| {
        let v = p
            .value
            .trim()
            .trim_matches(['"', '\''])
            .to_ascii_lowercase();
        let positive = v.parse::<f64>().is_ok_and(|n| n > 0.0);
        match p.leaf.as_str() {
            "val_set_size" | "evals_per_epoch" | "eval_steps" | "val_size" => positive,
            "eval_strategy" | "evaluation_strategy" => {
                matches!(
                    v.as_str(),
                    "steps" | "epoch" | "intervalstrategy.steps" | "intervalstrategy.epoch"
                )
            }
            "do_eval" => v == "true",
            _ => false,
        }
    })
}

/// The objective a config names by its keys, not by words in its values
/// (an `output_dir: ./dpo-test` of an SFT run names nothing).
fn objective_of(text: &str, pairs: &[Pair]) -> Option<crate::calc::objective::ObjectiveSpec> {
    static CALL_KIND: LazyLock<Regex> =
        LazyLock::new(|| re(r"\b(DPO|IPO|KTO|ORPO|GRPO|RLOO|PPO)(?:Config|Trainer)\s*\("));
    let kinds = ["dpo", "ipo", "kto", "orpo", "grpo", "rloo", "ppo", "simpo"];
    // LLaMA-Factory's `pref_loss: orpo|simpo` under `stage: dpo` is a
    // reference-free loss: it wins over the stage.
    let reference_free = pairs.iter().find_map(|p| {
        (p.leaf == "pref_loss" && matches!(p.value.to_ascii_lowercase().as_str(), "orpo" | "simpo"))
            .then(|| "orpo".to_string())
    });
    let by_key = reference_free.or_else(|| {
        pairs.iter().find_map(|p| {
            let v = p.value.to_ascii_lowercase();
            let named = matches!(
                p.leaf.as_str(),
                "rl" | "stage" | "adv_estimator" | "trainer_type" | "pref_loss" | "algorithm"
            );
            (named && kinds.contains(&v.as_str())).then(|| match v.as_str() {
                // SimPO is CPO's reference-free loss: like ORPO, no reference.
                "simpo" => "orpo".to_string(),
                _ => v,
            })
        })
    });
    let kind = by_key.or_else(|| CALL_KIND.captures(text).map(|c| c[1].to_ascii_lowercase()));
    let (mut spec, _) = crate::extract::objective_words::objective_in(text)?;
    spec.kind = kind;
    let rl_keys = spec.generations.is_some() || spec.completion.is_some();
    if rl_keys && spec.fraction.is_none() {
        spec.fraction = crate::extract::objective_words::config_fraction(text);
    }
    (spec.kind.is_some() || rl_keys).then_some(spec)
}

crate::extract::reading::paste_reader!(
    /// The registry's reader for a trainer config.
    TrainerConfigPaste,
    "a trainer config",
    looks_like_trainer_config,
    parse_trainer_config => crate::extract::reading::Reading::TrainerConfig
);

#[cfg(test)]
#[path = "trainer_config_tests.rs"]
mod tests;
