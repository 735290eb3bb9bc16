//! The terms a preference or RL objective adds to the step: the reference
//! model, and for RL the colocated generator's share of the pool and the
//! completions' log-probabilities kept for the loss.

use super::{Sheet, Term, gb, term};
use crate::calc::objective::{Generator, Objective, Reference};
use crate::calc::units::{GIB, grouped, plain};

/// The reference model's term, for every objective but SFT.
pub(super) fn reference(s: &Sheet<'_>, weights: &Term) -> Option<Term> {
    let objective = s.input.objective;
    if objective == Objective::Sft {
        return None;
    }
    let source = "TRL DPOTrainer / GRPOTrainer: a frozen reference model (create_reference_model), or with a PEFT model the base with the adapter disabled (null_ref_context); precompute_ref_log_probs computes them once before training".to_string();
    let (bytes, formula) = match objective.reference() {
        Reference::Model if s.input.method.uses_adapter() => (
            0.0,
            "the base with the adapter disabled is the reference (PEFT): no second copy"
                .to_string(),
        ),
        Reference::Model => (
            weights.bytes,
            format!(
                "a frozen copy of the weights, forward only (no gradients, no optimizer state) = {}",
                gb(weights.bytes)
            ),
        ),
        Reference::Precomputed => (
            0.0,
            "reference log-probs computed once before training and read back: no model in memory"
                .to_string(),
        ),
        Reference::None => (
            0.0,
            "no reference model (ORPO needs none; GRPO with beta = 0 skips it)".to_string(),
        ),
    };
    Some(term("reference", "reference model", bytes, formula, source))
}

/// For an RL objective: the colocated generator and the rollout's
/// log-probabilities.
pub(super) fn generation(s: &Sheet<'_>, weights: &Term) -> Vec<Term> {
    let Objective::Rl {
        generations,
        completion,
        generator,
        ..
    } = s.input.objective
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if let Generator::Colocate { fraction, shared } = generator {
        let cuda = s.k.spark("memory CUDA reports");
        let claimed = fraction * cuda.value * GIB;
        let bytes = if shared {
            (claimed - weights.bytes).max(0.0)
        } else {
            claimed
        };
        out.push(term(
            "generator",
            "colocated vLLM (weights and KV cache)",
            bytes,
            format!(
                "vllm_gpu_memory_utilization {} × {} GiB CUDA reports = {}, claimed whole when vLLM starts{}",
                plain(fraction),
                plain(cuda.value),
                gb(claimed),
                if shared {
                    format!(
                        ", less the policy's weights it shares ({}) = {}",
                        gb(weights.bytes),
                        gb(bytes)
                    )
                } else {
                    String::new()
                }
            ),
            format!(
                "{}; TRL GRPOConfig(use_vllm=True, vllm_mode=\"colocate\", vllm_gpu_memory_utilization); Unsloth fast_inference shares the weights",
                cuda.cite
            ),
        ));
    }
    // Per completion token: the old policy's, the reference's and the
    // current policy's log-probability, fp32.
    let kept = s.input.batch as f64 * completion as f64 * 3.0 * 4.0;
    out.push(term(
        "rollout",
        "rollout log-probs",
        kept,
        format!(
            "batch {} completions ({generations} per prompt) × completion {} × 3 log-probs (old, reference, current) × 4 B = {}",
            s.input.batch,
            grouped(completion),
            gb(kept)
        ),
        "TRL GRPOTrainer: per-token log-probs of the completions, kept for the loss".into(),
    ));
    out
}
