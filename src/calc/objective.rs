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
        /// The longest chosen or rejected sequence, prompt included, when
        /// the owner gave it: every row is padded to the longest, so a
        /// batch of shorter pairs costs less than the cap.
        longest_row: Option<u64>,
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

    /// Tokens per sequence the step pays for: the packing cap, or a
    /// preference run's longest row when it is shorter.
    pub fn row_tokens(&self, pack: u64) -> u64 {
        match self {
            Objective::Preference {
                longest_row: Some(row),
                ..
            } => pack.min(*row),
            _ => pack,
        }
    }

    pub fn reference(&self) -> Reference {
        match self {
            Objective::Sft => Reference::None,
            Objective::Preference { reference, .. } | Objective::Rl { reference, .. } => *reference,
        }
    }
}

/// An objective as the owner or the flags describe it, each part optional:
/// the chat fills it over several turns, the CLI from its flags, and one
/// `build` gives both the same defaults, TRL's (trl/trainer/grpo_config.py,
/// rloo_config.py, read at f2cd577): 8 generations, completion 256 (every
/// release to v1.9; 512 on main), prompt 512 (v0.14–v0.25; later releases
/// keep the data's), no vLLM unless named (`use_vllm=False`), and named
/// without a mode it is colocated (v1.0's default) at 0.3; GRPO holds no
/// reference (`beta=0.0` since v0.19), RLOO and PPO do (`beta` 0.05,
/// `kl_coef` 0.05).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ObjectiveSpec {
    /// sft, dpo, ipo, kto, orpo, grpo, rloo or ppo.
    pub kind: Option<String>,
    pub reference: Option<Reference>,
    pub generations: Option<u64>,
    pub prompt: Option<u64>,
    pub completion: Option<u64>,
    /// Preference pairs: the longest chosen and rejected sequences, prompt
    /// included (what TRL's collator pads each row to).
    pub chosen: Option<u64>,
    pub rejected: Option<u64>,
    pub beta: Option<f64>,
    /// colocate, server or policy.
    pub vllm: Option<String>,
    pub fraction: Option<f64>,
    pub shared: Option<bool>,
}

impl ObjectiveSpec {
    /// The parts `newer` gives replace the same parts of this one.
    pub fn merged(&self, newer: &ObjectiveSpec) -> ObjectiveSpec {
        ObjectiveSpec {
            kind: newer.kind.clone().or(self.kind.clone()),
            reference: newer.reference.or(self.reference),
            generations: newer.generations.or(self.generations),
            prompt: newer.prompt.or(self.prompt),
            completion: newer.completion.or(self.completion),
            chosen: newer.chosen.or(self.chosen),
            rejected: newer.rejected.or(self.rejected),
            beta: newer.beta.or(self.beta),
            vllm: newer.vllm.clone().or(self.vllm.clone()),
            fraction: newer.fraction.or(self.fraction),
            shared: newer.shared.or(self.shared),
        }
    }

    /// The parts given, in the owner's terms ("grpo, 8 generations").
    pub fn show(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        if let Some(k) = &self.kind {
            parts.push(k.to_ascii_uppercase());
        }
        if let Some(g) = self.generations {
            parts.push(format!("{g} generations"));
        }
        if let Some(p) = self.prompt {
            parts.push(format!("prompt {p}"));
        }
        if let Some(c) = self.completion {
            parts.push(format!("completion {c}"));
        }
        if let Some(c) = self.chosen {
            parts.push(format!("chosen {c}"));
        }
        if let Some(r) = self.rejected {
            parts.push(format!("rejected {r}"));
        }
        if let Some(b) = self.beta {
            parts.push(format!("beta {b}"));
        }
        if let Some(r) = self.reference {
            parts.push(format!("reference {}", r.key()));
        }
        if let Some(v) = &self.vllm {
            parts.push(format!("vLLM {v}"));
        }
        if let Some(f) = self.fraction {
            parts.push(format!("vLLM fraction {f}"));
        }
        if self.shared == Some(true) {
            parts.push("shared weights".into());
        }
        parts.join(", ")
    }

    /// The objective, with the stated defaults for what was not given.
    pub fn build(&self) -> Result<Objective, String> {
        let Some(kind) = self.kind.as_deref() else {
            return Err("the objective (sft, dpo, ipo, kto, orpo, grpo, rloo or ppo)".into());
        };
        if kind.eq_ignore_ascii_case("sft") {
            return Ok(Objective::Sft);
        }
        if let Some(method) = Preference::parse(kind) {
            let reference = if self.beta == Some(0.0) {
                Reference::None
            } else {
                self.reference.unwrap_or(method.default_reference())
            };
            // Only when both sides are known: an unknown side may reach
            // the cap.
            let longest_row = match (self.chosen, self.rejected) {
                (Some(c), Some(r)) => Some(c.max(r)),
                _ => None,
            };
            return Ok(Objective::Preference {
                method,
                reference,
                longest_row,
            });
        }
        let Some(method) = Rl::parse(kind) else {
            return Err(format!(
                "{kind}: expected sft, dpo, ipo, kto, orpo, grpo, rloo or ppo"
            ));
        };
        let fraction = self.fraction.unwrap_or(DEFAULT_COLOCATE_FRACTION);
        if !(fraction > 0.0 && fraction < 1.0) {
            return Err(format!(
                "vLLM fraction {fraction}: expected a fraction between 0 and 1 (vllm_gpu_memory_utilization)"
            ));
        }
        // A fraction or shared weights alone are a colocated vLLM's (server mode takes its own
        // `--gpu_memory_utilization`); nothing said is TRL's default, the
        // policy's own generate().
        let vllm = self
            .vllm
            .as_deref()
            .or(self.fraction.map(|_| "colocate"))
            .or(self.shared.filter(|s| *s).map(|_| "colocate"));
        let generator = match vllm {
            Some("colocate") => Generator::Colocate {
                fraction,
                shared: self.shared.unwrap_or(false),
            },
            Some("server") => Generator::Server,
            None | Some("policy" | "none") => Generator::Policy,
            Some(other) => {
                return Err(format!(
                    "vLLM mode {other}: expected colocate, server or policy"
                ));
            }
        };
        Ok(Objective::Rl {
            method,
            generations: self.generations.unwrap_or(8),
            prompt: self.prompt.unwrap_or(512),
            completion: self.completion.unwrap_or(256),
            reference: match (self.reference, self.beta) {
                (_, Some(0.0)) => Reference::None,
                (Some(r), _) => r,
                (None, Some(_)) => Reference::Model,
                (None, None) => method.default_reference(),
            },
            generator,
        })
    }
}

impl Reference {
    pub fn key(self) -> &'static str {
        match self {
            Reference::Model => "model",
            Reference::Precomputed => "precomputed",
            Reference::None => "none",
        }
    }

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

/// TRL's `vllm_gpu_memory_utilization` for colocate mode (0.3 since v0.18).
pub const DEFAULT_COLOCATE_FRACTION: f64 = 0.3;

impl Rl {
    /// GRPO's KL term is off by default (`beta=0.0` since TRL v0.19), so no
    /// reference is loaded; RLOO's `beta` is 0.05 and PPO's `kl_coef` 0.05.
    pub fn default_reference(self) -> Reference {
        match self {
            Rl::Grpo => Reference::None,
            Rl::Rloo | Rl::Ppo => Reference::Model,
        }
    }

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
