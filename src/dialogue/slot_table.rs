//! The slots a plan is made from, defined once: each row drives the
//! extraction's bookkeeping, `/forget`, `/status`, the ask for what is
//! missing, help and the `headroom plan` flag of the same answer.

use crate::dialogue::facts::SlotName;
use crate::extract::slots::Slot;

pub struct SlotDef {
    pub name: SlotName,
    /// The name `/forget` and `/status` use.
    pub key: &'static str,
    /// Other words for it in `/forget`.
    pub aliases: &'static [&'static str],
    /// How headroom asks for it, with examples of what to say.
    pub ask: &'static str,
    /// The `headroom plan` flag that sets it (None: pasted, not a flag).
    pub flag: Option<&'static str>,
}

pub const SLOTS: &[SlotDef] = &[
    SlotDef {
        name: SlotName::Model,
        key: "model",
        aliases: &["params", "size", "parameters"],
        ask: "the model: a catalog name (\"Llama 3.1 70B\", \"Qwen2.5 7B\"), a Hugging Face id, or its parameter count (\"params 8b\")",
        flag: Some("--model"),
    },
    SlotDef {
        name: SlotName::Method,
        key: "method",
        aliases: &[],
        ask: "the method: full fine-tune, LoRA or QLoRA",
        flag: Some("--method"),
    },
    SlotDef {
        name: SlotName::Dtype,
        key: "dtype",
        aliases: &[],
        ask: "the dtype: bf16, fp16 or fp32",
        flag: Some("--dtype"),
    },
    SlotDef {
        name: SlotName::Batch,
        key: "batch",
        aliases: &["batch_size", "bsz", "bs"],
        ask: "the batch size (\"batch 1\", \"per_device_train_batch_size=2\")",
        flag: Some("--batch"),
    },
    SlotDef {
        name: SlotName::Pack,
        key: "pack",
        aliases: &["packing", "seq", "max_seq_length"],
        ask: "the packing length (\"packing 2048\", \"max_seq_length=4096\")",
        flag: Some("--pack"),
    },
    SlotDef {
        name: SlotName::Free,
        key: "free",
        aliases: &["free-g", "free -g", "memory"],
        ask: "the memory the box has now: run `free -g` on the Spark and paste all three lines it prints",
        flag: Some("--free"),
    },
    SlotDef {
        name: SlotName::Optimizer,
        key: "optimizer",
        aliases: &["optim"],
        ask: "the optimizer (\"adamw\", \"adamw_8bit\", \"paged_adamw_8bit\", \"adafactor\")",
        flag: Some("--optimizer"),
    },
    SlotDef {
        name: SlotName::Checkpointing,
        key: "checkpointing",
        aliases: &["grad-checkpointing", "gradient_checkpointing", "ckpt"],
        ask: "gradient checkpointing on or off",
        flag: Some("--grad-checkpointing"),
    },
    SlotDef {
        name: SlotName::Rank,
        key: "rank",
        aliases: &["lora_rank", "r"],
        ask: "the LoRA rank (\"r=16\")",
        flag: Some("--lora-rank"),
    },
    SlotDef {
        name: SlotName::Targets,
        key: "targets",
        aliases: &["target_modules", "lora_targets"],
        ask: "the LoRA targets (\"all-linear\", \"q_proj,v_proj\")",
        flag: Some("--lora-targets"),
    },
    SlotDef {
        name: SlotName::Dropout,
        key: "dropout",
        aliases: &["lora_dropout"],
        ask: "LoRA dropout (\"lora_dropout=0.05\")",
        flag: Some("--lora-dropout"),
    },
    SlotDef {
        name: SlotName::Precision,
        key: "precision",
        aliases: &[],
        ask: "the precision set-up (\"pure bf16\", \"mixed precision\")",
        flag: Some("--precision"),
    },
    SlotDef {
        name: SlotName::Attention,
        key: "attention",
        aliases: &["attn", "attn_implementation"],
        ask: "the attention implementation (\"sdpa\", \"eager attention\")",
        flag: Some("--attn"),
    },
    SlotDef {
        name: SlotName::Loss,
        key: "loss",
        aliases: &["fused-loss", "fused_loss"],
        ask: "the loss (\"fused loss\", \"liger kernel\")",
        flag: Some("--fused-loss"),
    },
    SlotDef {
        name: SlotName::Nodes,
        key: "nodes",
        aliases: &["sparks"],
        ask: "how many Sparks (\"two sparks\")",
        flag: Some("--nodes"),
    },
    SlotDef {
        name: SlotName::Sharding,
        key: "sharding",
        aliases: &[],
        ask: "DDP or FSDP across Sparks",
        flag: Some("--sharding"),
    },
    SlotDef {
        name: SlotName::Offload,
        key: "offload",
        aliases: &[],
        ask: "whether you offload to CPU memory",
        flag: None,
    },
    SlotDef {
        name: SlotName::Framework,
        key: "framework",
        aliases: &["trainer", "stack"],
        ask: "the trainer stack (\"I use Unsloth\", axolotl, LLaMA-Factory, torchtune, TRL)",
        flag: Some("--framework"),
    },
    SlotDef {
        name: SlotName::EvalBatch,
        key: "eval",
        aliases: &["eval_batch", "per_device_eval_batch_size"],
        ask: "whether you evaluate during training, and the eval batch (\"per_device_eval_batch_size=8\")",
        flag: Some("--eval-batch"),
    },
    SlotDef {
        name: SlotName::Resume,
        key: "resume",
        aliases: &["resuming"],
        ask: "whether the run resumes from a checkpoint",
        flag: Some("--resume"),
    },
    SlotDef {
        name: SlotName::Loader,
        key: "loader",
        aliases: &["transformers"],
        ask: "which transformers loads the model (\"transformers 5\")",
        flag: Some("--loader"),
    },
    SlotDef {
        name: SlotName::Prequantized,
        key: "prequantized",
        aliases: &["bnb-4bit"],
        ask: "whether the checkpoint is already 4-bit (a -bnb-4bit repository)",
        flag: Some("--prequantized"),
    },
    SlotDef {
        name: SlotName::Packed,
        key: "packed",
        aliases: &["sample_packing"],
        ask: "whether batches are packed to one length (\"packing=True\") or padded per batch",
        flag: Some("--packed"),
    },
    SlotDef {
        name: SlotName::Objective,
        key: "objective",
        aliases: &["dpo", "grpo", "rl", "preference"],
        ask: "the objective: SFT, DPO/IPO/KTO/ORPO, or GRPO/RLOO/PPO with its generations (\"GRPO, 8 generations, vllm colocate at 0.3\")",
        flag: Some("--objective"),
    },
];

pub fn def(name: SlotName) -> &'static SlotDef {
    SLOTS
        .iter()
        .find(|d| d.name == name)
        .expect("every slot has a row in SLOTS")
}

/// The slot a `/forget` word names.
pub fn parse(word: &str) -> Option<SlotName> {
    let w = word.trim().to_ascii_lowercase();
    SLOTS
        .iter()
        .find(|d| d.key == w || d.aliases.contains(&w.as_str()))
        .map(|d| d.name)
}

/// Which remembered answer an extracted slot fills (None: not an answer).
pub fn slot_of(slot: &Slot) -> Option<SlotName> {
    Some(match slot {
        Slot::Model(_) | Slot::Params(_) => SlotName::Model,
        Slot::Method(_) => SlotName::Method,
        Slot::Dtype(_) => SlotName::Dtype,
        Slot::Batch(_) => SlotName::Batch,
        Slot::Pack(_) => SlotName::Pack,
        Slot::Optimizer(_) => SlotName::Optimizer,
        Slot::GradCheckpointing(_) => SlotName::Checkpointing,
        Slot::LoraRank(_) => SlotName::Rank,
        Slot::LoraTargets(_) => SlotName::Targets,
        Slot::LoraDropout(_) => SlotName::Dropout,
        Slot::Precision(_) => SlotName::Precision,
        Slot::Attention(_) => SlotName::Attention,
        Slot::Loss(_) => SlotName::Loss,
        Slot::Nodes(_) => SlotName::Nodes,
        Slot::Sharding(_) => SlotName::Sharding,
        Slot::Offload(_) => SlotName::Offload,
        Slot::Framework(_) => SlotName::Framework,
        Slot::EvalBatch(_) => SlotName::EvalBatch,
        Slot::Resume(_) => SlotName::Resume,
        Slot::Loader(_) => SlotName::Loader,
        Slot::Prequantized(_) => SlotName::Prequantized,
        Slot::Packed(_) => SlotName::Packed,
        Slot::Objective(_) => SlotName::Objective,
        Slot::Available(_) => SlotName::Free,
        Slot::UnknownModel(_) | Slot::Solve(_) | Slot::TensorParallel | Slot::OutOfRange(_) => {
            return None;
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_slot_has_one_row_and_keys_are_unique() {
        for name in SlotName::ALL {
            assert_eq!(SLOTS.iter().filter(|d| d.name == name).count(), 1);
        }
        let mut keys: Vec<&str> = SLOTS
            .iter()
            .flat_map(|d| std::iter::once(d.key).chain(d.aliases.iter().copied()))
            .collect();
        let n = keys.len();
        keys.sort();
        keys.dedup();
        assert_eq!(keys.len(), n, "a word names two slots");
    }

    #[test]
    fn every_flag_in_the_table_is_a_real_plan_flag() {
        use clap::CommandFactory;
        let cli = crate::cli::args::Cli::command();
        let plan = cli.find_subcommand("plan").expect("plan subcommand");
        for d in SLOTS {
            if let Some(flag) = d.flag {
                assert!(
                    plan.get_arguments()
                        .any(|a| a.get_long() == flag.strip_prefix("--")),
                    "{flag} is not a `headroom plan` flag"
                );
            }
        }
    }
}
