//! What the run optimises, beside how many parameters it trains: supervised
//! fine-tuning, a preference method (DPO, IPO, KTO, ORPO) or an RL method
//! with generation (GRPO, RLOO, PPO-style). Each changes exactly its terms:
//! the sequences per example, a frozen reference model, and for RL the
//! generator's share of the pool and the completions kept for the loss.

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Preference {
    Dpo,
    Ipo,
    Kto,
    Orpo,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Rl {
    Grpo,
    Rloo,
    Ppo,
}

/// Where the reference log-probabilities come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reference {
    /// A frozen copy of the model, forward only (for LoRA: the base with
    /// the adapter disabled, no copy).
    Model,
    /// Computed once before training and read back (TRL
    /// `precompute_ref_log_probs`, open-instruct's dpo_tune_cache).
    Precomputed,
    /// No reference at all (ORPO; GRPO with `beta=0`).
    None,
}

/// Who generates the completions of an RL run.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "mode")]
pub enum Generator {
    /// vLLM inside the trainer's process (TRL `vllm_mode="colocate"`,
    /// Unsloth `fast_inference=True`): it claims `fraction` of the memory
    /// CUDA reports; `shared` when its weights are the policy's (Unsloth).
    Colocate { fraction: f64, shared: bool },
    /// A second process (`trl vllm-serve`): the pool question.
    Server,
    /// The policy's own `generate()`: no second copy, no KV share.
    Policy,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Objective {
    Sft,
    Preference {
        method: Preference,
        reference: Reference,
    },
    Rl {
        method: Rl,
        /// `num_generations`: completions per prompt.
        generations: u64,
        prompt: u64,
        completion: u64,
        reference: Reference,
        generator: Generator,
    },
}

impl Objective {
    pub fn label(&self) -> String {
        match self {
            Objective::Sft => "SFT".into(),
            Objective::Preference { method, .. } => method.label().into(),
            Objective::Rl {
                method,
                generations,
                ..
            } => format!("{} ({generations} generations)", method.label()),
        }
    }

    /// Sequences each example puts through the policy's forward and
    /// backward: a chosen and a rejected one for pairwise preference
    /// losses (TRL's concatenated forward), the completion and a mismatched
    /// KL pair for KTO.
    pub fn sequences_per_example(&self) -> u64 {
        match self {
            Objective::Preference { .. } => 2,
            _ => 1,
        }
    }

    pub fn reference(&self) -> Reference {
        match self {
            Objective::Sft => Reference::None,
            Objective::Preference { reference, .. } | Objective::Rl { reference, .. } => *reference,
        }
    }
}

impl Reference {
    pub fn parse(s: &str) -> Option<Reference> {
        match s.to_ascii_lowercase().as_str() {
            "model" => Some(Reference::Model),
            "precomputed" => Some(Reference::Precomputed),
            "none" => Some(Reference::None),
            _ => None,
        }
    }
}

impl Preference {
    pub fn parse(s: &str) -> Option<Preference> {
        match s.to_ascii_lowercase().as_str() {
            "dpo" => Some(Preference::Dpo),
            "ipo" => Some(Preference::Ipo),
            "kto" => Some(Preference::Kto),
            "orpo" => Some(Preference::Orpo),
            _ => None,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Preference::Dpo => "DPO",
            Preference::Ipo => "IPO",
            Preference::Kto => "KTO",
            Preference::Orpo => "ORPO",
        }
    }

    /// ORPO's odds-ratio term needs no reference model.
    pub fn default_reference(self) -> Reference {
        match self {
            Preference::Orpo => Reference::None,
            _ => Reference::Model,
        }
    }
}

impl Rl {
    pub fn parse(s: &str) -> Option<Rl> {
        match s.to_ascii_lowercase().as_str() {
            "grpo" => Some(Rl::Grpo),
            "rloo" => Some(Rl::Rloo),
            "ppo" => Some(Rl::Ppo),
            _ => None,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Rl::Grpo => "GRPO",
            Rl::Rloo => "RLOO",
            Rl::Ppo => "PPO",
        }
    }
}

/// The largest colocated vLLM fraction that leaves the rest of the step its
/// peak inside the budget: (budget − the step without the generator, plus
/// the weights vLLM shares with the policy) ÷ the memory CUDA reports,
/// rounded down to 0.01. None when nothing is left.
pub fn largest_fraction(
    budget_centi: u64,
    step_without_generator_centi: u64,
    shared_weights_centi: u64,
    cuda_total_centi: u64,
) -> Option<f64> {
    let room = (budget_centi + shared_weights_centi).checked_sub(step_without_generator_centi)?;
    let f = (room as f64 / cuda_total_centi as f64 * 100.0).floor() / 100.0;
    (f > 0.0).then_some(f.min(0.95))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_largest_fraction_leaves_the_step_its_peak() {
        // 119.48 GB budget, 60.00 GB step, 130.66 GB CUDA total: (119.48 − 60) / 130.66 = 0.455…
        assert_eq!(largest_fraction(11948, 6000, 0, 13066), Some(0.45));
        // Shared weights (16.07 GB) live inside vLLM's share.
        assert_eq!(largest_fraction(11948, 6000, 1607, 13066), Some(0.57));
        assert_eq!(largest_fraction(5000, 6000, 0, 13066), None);
    }
}
