//! The command line, parsed once by clap into plain values.

use clap::{ArgGroup, Args, Parser, Subcommand};
use std::path::PathBuf;

#[derive(Debug, Parser)]
#[command(
    name = "headroom",
    version,
    about = "Memory headroom, OOMs, thermal throttling and the shared pool for ML training on an NVIDIA DGX Spark. Never runs a command.",
    long_about = "headroom answers four questions for ML training on an NVIDIA DGX Spark (one 128 GB pool shared by CPU and GPU): will this run fit, what to do about this OOM (in order), is this slowdown thermal throttling, and can the trainer share the box with vLLM or Ollama. \
With no subcommand it opens a chat: describe the run in plain words and paste command output. \
When stdin is not a terminal the same dialogue runs on it, turns separated by blank lines. \
headroom never runs a command: it tells you what to run and reads what you paste."
)]
pub struct Cli {
    /// Where transcripts and history live [env: HEADROOM_DATA_DIR; default: the platform data dir]
    #[arg(long, global = true, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,

    /// A local model to phrase replies: ollama[:MODEL][@URL] or openai:MODEL@URL [default: the config file's, else none]
    #[arg(long, global = true, value_name = "SPEC")]
    pub llm: Option<String>,

    /// Allow sending the API key over plain http:// to another machine (off: only https:// or this machine)
    #[arg(long, global = true)]
    pub allow_http: bool,

    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Answer "will this run fit?" in one shot
    Plan(Box<PlanArgs>),
    /// Compare the estimator with published measurements (validation/cases.md)
    Validate,
    /// Is this slowdown thermal throttling? Thermal CSV (and a training log) in
    #[command(after_help = "Examples:
  headroom thermal thermal.log --train-log train.log
  headroom thermal thermal.log --train-log train.log --start \"2026-11-29 10:00:00\" --png chart.png
  headroom thermal thermal.log --json")]
    Thermal {
        /// The sampler's CSV (or any nvidia-smi --query-gpu CSV with a timestamp)
        #[arg(value_name = "THERMAL.csv")]
        thermal: std::path::PathBuf,
        /// The training run's console log
        #[arg(long, value_name = "LOG")]
        train_log: Option<std::path::PathBuf>,
        /// When the run started (local time), for logs that carry no time
        #[arg(long, value_name = "TIME")]
        start: Option<String>,
        /// The sampler's UTC offset, for a log stamped in UTC (`…Z`, a
        /// container's clock): +01:00, -05:00
        #[arg(long, value_name = "±HH:MM", value_parser = parse_offset)]
        log_tz: Option<f64>,
        /// Tokens one step processes (batch × sequence), for logs that print
        /// only tokens per second (torchtune)
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
        tokens_per_step: Option<u64>,
        /// Print one JSON object instead of text
        #[arg(long)]
        json: bool,
        /// Also write the chart as SVG
        #[arg(long, value_name = "FILE")]
        svg: Option<std::path::PathBuf>,
        /// Also write the chart as PNG
        #[arg(long, value_name = "FILE")]
        png: Option<std::path::PathBuf>,
    },
    /// Print the thermal sampler script and how to start and stop it
    Sampler,
    /// List the model catalog headroom knows by name (knowledge/models.md)
    Models {
        /// Print one JSON array instead of a table
        #[arg(long)]
        json: bool,
    },
    /// Print a shell completion script: headroom completions bash > ~/.local/share/bash-completion/completions/headroom
    Completions {
        /// bash, zsh, fish, elvish or powershell
        #[arg(value_name = "SHELL")]
        shell: clap_complete::Shell,
    },
    /// The API key for an OpenAI-compatible server, in the OS keyring
    Key {
        #[command(subcommand)]
        action: KeyAction,
    },
    /// Check who shares the pool: ps aux lines in, keep/stop per process out
    #[command(after_help = "Examples:
  ps aux | grep -E 'vllm|ollama|trl|axolotl' | grep -v grep | headroom procs - --need 40
  headroom procs ps.txt --json")]
    Procs {
        /// A file holding the ps aux lines, or - for stdin (the default)
        #[arg(value_name = "FILE|-")]
        file: Option<std::path::PathBuf>,
        /// GB the planned run needs (from `headroom plan`)
        // Negative numbers reach the check that names --need, not clap's
        // "unexpected argument '-1'".
        #[arg(long, value_name = "GB", allow_negative_numbers = true)]
        need: Option<f64>,
        /// Print one JSON object instead of text
        #[arg(long)]
        json: bool,
    },
}

#[derive(Debug, Subcommand)]
pub enum KeyAction {
    /// Store the key (read without echo) in the OS keyring
    Set,
    /// Remove the key from the OS keyring
    Clear,
}

#[derive(Debug, Args)]
#[command(
    group(ArgGroup::new("size").required(true).args(["params", "model", "config"])),
    after_help = "Examples:
  headroom plan --params 70B --method qlora --batch 1 --pack 2048
  headroom plan --model \"Llama 3.1 70B\" --method qlora --free free.txt
  free -g | headroom plan --model gemma-2-9b --method full --optimizer adamw_8bit --free - --json
  headroom plan --config ./config.json --method lora --lora-rank 32 --lora-targets q_proj,v_proj
  headroom plan --model qwen2.5-32b --method lora --batch 4 --solve pack --free free.txt
  headroom plan --model \"Llama 3.1 70B\" --method lora --nodes 2 --sharding fsdp

Anything not given takes a common default that the answer states as an assumption:
bf16, AdamW, gradient checkpointing on, batch 1, packing 2048 (LoRA: rank 16 on all-linear)."
)]
pub struct PlanArgs {
    /// Total parameter count: 70B, 8.03b, 500M, 7000000000
    #[arg(long, value_name = "SIZE", value_parser = parse_params)]
    pub params: Option<u64>,
    /// A catalog model: "Llama 3.1 70B", qwen2.5-7b, gemma2:9b
    #[arg(long, value_name = "NAME")]
    pub model: Option<String>,
    /// A Hugging Face config.json giving the exact architecture
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// full, lora or qlora
    #[arg(long, value_name = "METHOD", value_parser = parse_method)]
    pub method: crate::calc::setup::Method,
    /// bf16, fp16, fp32 (or a weight format: nf4, nvfp4, mxfp4, fp8, int8, int4)
    #[arg(long, value_name = "DTYPE", value_parser = parse_dtype)]
    pub dtype: Option<crate::calc::setup::Dtype>,
    /// Micro-batch size per step (1 to 65536)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=crate::calc::setup::MAX_BATCH))]
    pub batch: Option<u64>,
    /// Packing length, tokens per sequence (1 to 4194304)
    #[arg(long, value_name = "TOKENS", value_parser = clap::value_parser!(u64).range(1..=crate::calc::setup::MAX_PACK))]
    pub pack: Option<u64>,
    /// adamw, adamw_8bit, paged_adamw_8bit, paged_adamw_32bit or sgd
    #[arg(long, value_name = "NAME", value_parser = parse_optimizer)]
    pub optimizer: Option<crate::calc::setup::Optimizer>,
    /// on or off
    #[arg(long, value_name = "on|off", value_parser = parse_on_off)]
    pub grad_checkpointing: Option<bool>,
    /// LoRA rank (1 to 65536)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=crate::calc::setup::MAX_RANK))]
    pub lora_rank: Option<u64>,
    /// all-linear, attn, or module names: q_proj,v_proj
    #[arg(long, value_name = "TARGETS", value_parser = parse_targets)]
    pub lora_targets: Option<crate::calc::setup::LoraTargets>,
    /// LoRA dropout above zero: on (default) or off
    #[arg(long, value_name = "on|off", value_parser = parse_on_off)]
    pub lora_dropout: Option<bool>,
    /// standard (16-bit weights, fp32 adapters and states), pure (all 16-bit) or mixed (fp32 master weights)
    #[arg(long, value_name = "SETUP", value_parser = parse_precision)]
    pub precision: Option<crate::calc::setup::Precision>,
    /// sdpa (default; flash too) or eager
    #[arg(long, value_name = "IMPL", value_parser = parse_attention)]
    pub attn: Option<crate::calc::setup::Attention>,
    /// A fused loss (Liger, Unsloth, TRL ≥ 1.7): on or off (older flag; --loss says more)
    #[arg(long, value_name = "on|off", value_parser = parse_on_off)]
    pub fused_loss: Option<bool>,
    /// The loss the stack runs: upcast (transformers' fp32 loss), bf16 (16-bit CE), chunked (torchtune, Liger chunked CE) or fused (fused linear CE: no full logits)
    #[arg(long, value_name = "KIND", value_parser = parse_loss, conflicts_with = "fused_loss")]
    pub loss: Option<crate::calc::setup::Loss>,
    /// Sparks the run spans
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=64))]
    pub nodes: Option<u64>,
    /// ddp or fsdp (tensor parallel is refused: see the answer)
    #[arg(long, value_name = "KIND")]
    pub sharding: Option<String>,
    /// What the run optimises: sft (default), dpo, ipo, kto, orpo (preference pairs), grpo, rloo, ppo (generation)
    #[arg(long, value_name = "KIND")]
    pub objective: Option<String>,
    /// The reference log-probs: model (a frozen copy; the adapter-disabled base for LoRA), precomputed, or none
    #[arg(long, value_name = "KIND")]
    pub reference: Option<String>,
    /// GRPO/RLOO: completions per prompt (num_generations; default 8, TRL's)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub generations: Option<u64>,
    /// GRPO/RLOO: max_prompt_length (default 512; TRL since v0.28 keeps the data's)
    #[arg(long, value_name = "TOKENS", value_parser = clap::value_parser!(u64).range(1..=1_048_576))]
    pub prompt_length: Option<u64>,
    /// GRPO/RLOO: max_completion_length (default 256, TRL's to v1.9)
    #[arg(long, value_name = "TOKENS", value_parser = clap::value_parser!(u64).range(1..=1_048_576))]
    pub completion_length: Option<u64>,
    /// DPO/IPO/KTO/ORPO: the longest chosen sequence, prompt included (rows are padded to the longest; default: the pack)
    #[arg(long, value_name = "TOKENS", value_parser = clap::value_parser!(u64).range(1..=1_048_576))]
    pub chosen_length: Option<u64>,
    /// DPO/IPO/KTO/ORPO: the longest rejected sequence, prompt included
    #[arg(long, value_name = "TOKENS", value_parser = clap::value_parser!(u64).range(1..=1_048_576))]
    pub rejected_length: Option<u64>,
    /// The KL coefficient; 0 drops the reference model (GRPO's default, 0.0 since TRL v0.19)
    #[arg(long, value_name = "BETA")]
    pub beta: Option<f64>,
    /// Who generates: colocate (vLLM in the trainer's process), server (trl vllm-serve) or policy (the model's own generate; the default, TRL's use_vllm=False; a fraction alone means colocate)
    #[arg(long, value_name = "MODE")]
    pub vllm: Option<String>,
    /// vllm_gpu_memory_utilization for colocated vLLM (of the memory CUDA reports)
    #[arg(long, value_name = "FRACTION")]
    pub vllm_fraction: Option<f64>,
    /// Colocated vLLM shares the policy's weights (Unsloth fast_inference)
    #[arg(long)]
    pub shared_weights: bool,
    /// Find the longest packing or the largest batch that fits
    #[arg(long, value_name = "pack|batch", value_parser = parse_solve)]
    pub solve: Option<crate::calc::solve::SolveFor>,
    /// The run evaluates during training, at this per-device eval batch (1 to 65536)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=crate::calc::setup::MAX_BATCH))]
    pub eval_batch: Option<u64>,
    /// The run resumes from a checkpoint (the optimizer state is read back)
    #[arg(long)]
    pub resume: bool,
    /// Which transformers loads the checkpoint: 4 (one shard at a time, default) or 5 (every shard mapped at once)
    #[arg(long, value_name = "4|5", value_parser = parse_loader)]
    pub loader: Option<crate::calc::runtime::Loader>,
    /// The checkpoint is already 4-bit (a -bnb-4bit repository): read at its stored size
    #[arg(long)]
    pub prequantized: bool,
    /// Batches are packed to one fixed length (packing=True, sample_packing):
    /// no allocator reserve for differently sized steps
    #[arg(long)]
    pub packed: bool,
    /// The trainer stack whose defaults fill what you leave open: hf, trl, unsloth, axolotl, llama-factory, torchtune (knowledge/frameworks.md)
    #[arg(long, value_name = "NAME")]
    pub framework: Option<String>,
    /// A file holding `free -g` output, or - for stdin
    #[arg(long, value_name = "FILE|-")]
    pub free: Option<PathBuf>,
    /// Print one JSON object instead of text
    #[arg(long)]
    pub json: bool,
}

pub fn parse_params(s: &str) -> Result<u64, String> {
    let t = s.trim().to_ascii_lowercase().replace(['_', ','], "");
    let (num, scale) = if let Some(n) = t.strip_suffix('b') {
        (n, 1e9)
    } else if let Some(n) = t.strip_suffix('m') {
        (n, 1e6)
    } else {
        (t.as_str(), 1.0)
    };
    let v: f64 = num
        .parse()
        .map_err(|_| "expected a size like 70B, 8.03B, 500M or 7000000000".to_string())?;
    let params = (v * scale).round();
    if !(1e6..=1e13).contains(&params) {
        return Err("expected between 1M and 10000B parameters".into());
    }
    Ok(params as u64)
}

fn parse_method(s: &str) -> Result<crate::calc::setup::Method, String> {
    crate::calc::setup::Method::parse(s).ok_or_else(|| "expected full, lora or qlora".into())
}

fn parse_dtype(s: &str) -> Result<crate::calc::setup::Dtype, String> {
    crate::calc::setup::Dtype::parse(s).ok_or_else(|| {
        "expected bf16, fp16, fp32, fp8, int8, int4, nf4, nf4-dq, nvfp4 or mxfp4".into()
    })
}

fn parse_optimizer(s: &str) -> Result<crate::calc::setup::Optimizer, String> {
    crate::calc::setup::Optimizer::parse(s).ok_or_else(|| {
        "expected adamw, adamw_8bit, paged_adamw_8bit, paged_adamw_32bit or sgd".into()
    })
}

fn parse_on_off(s: &str) -> Result<bool, String> {
    match s.to_ascii_lowercase().as_str() {
        "on" | "true" | "yes" | "1" => Ok(true),
        "off" | "false" | "no" | "0" => Ok(false),
        _ => Err("expected on or off".into()),
    }
}

fn parse_precision(s: &str) -> Result<crate::calc::setup::Precision, String> {
    crate::calc::setup::Precision::parse(s).ok_or_else(|| "expected standard, pure or mixed".into())
}

fn parse_loss(s: &str) -> Result<crate::calc::setup::Loss, String> {
    crate::calc::setup::Loss::parse(s)
        .ok_or_else(|| "expected upcast, bf16, chunked or fused".into())
}

fn parse_attention(s: &str) -> Result<crate::calc::setup::Attention, String> {
    crate::calc::setup::Attention::parse(s).ok_or_else(|| "expected sdpa or eager".into())
}

fn parse_solve(s: &str) -> Result<crate::calc::solve::SolveFor, String> {
    crate::calc::solve::SolveFor::parse(s).ok_or_else(|| "expected pack or batch".into())
}

fn parse_targets(s: &str) -> Result<crate::calc::setup::LoraTargets, String> {
    crate::calc::setup::LoraTargets::parse(s)
        .ok_or_else(|| "expected all-linear, attn, or names like q_proj,v_proj".into())
}

/// "+01:00", "-5", "+0530", "UTC" as seconds east of UTC.
fn parse_offset(s: &str) -> Result<f64, String> {
    let t = s.trim();
    if t.eq_ignore_ascii_case("utc") || t == "Z" {
        return Ok(0.0);
    }
    let (sign, rest) = match t.as_bytes().first() {
        Some(b'+') => (1.0, &t[1..]),
        Some(b'-') => (-1.0, &t[1..]),
        _ => (1.0, t),
    };
    let digits: String = rest.chars().filter(char::is_ascii_digit).collect();
    let (h, m) = match (rest.contains(':'), digits.len()) {
        (true, _) => {
            let (h, m) = rest.split_once(':').unwrap_or((rest, "0"));
            (h.parse::<f64>(), m.parse::<f64>())
        }
        (false, 3 | 4) => (
            digits[..digits.len() - 2].parse(),
            digits[digits.len() - 2..].parse(),
        ),
        _ => (digits.parse(), Ok(0.0)),
    };
    match (h, m) {
        (Ok(h), Ok(m)) if h <= 14.0 && m < 60.0 => Ok(sign * (h * 3600.0 + m * 60.0)),
        _ => Err(format!(
            "{s:?}: give the sampler's offset from UTC, like +01:00 or -05:00"
        )),
    }
}

fn parse_loader(s: &str) -> Result<crate::calc::runtime::Loader, String> {
    match s.trim_start_matches(['v', 'V']) {
        "4" => Ok(crate::calc::runtime::Loader::V4),
        "5" => Ok(crate::calc::runtime::Loader::V5),
        other => Err(format!(
            "{other:?}: give 4 or 5 (the transformers major version)"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_params("70B"), Ok(70_000_000_000));
        assert_eq!(parse_params("8.03b"), Ok(8_030_000_000));
        assert_eq!(parse_params("500M"), Ok(500_000_000));
        assert!(parse_params("seventy").is_err());
        assert!(parse_params("0").is_err());
    }
}
