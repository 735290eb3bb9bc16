//! Activation terms: what each decoder layer keeps for backward, and the
//! loss logits.

use super::Term;
use super::{Sheet, gb, term};
use crate::calc::setup::{Attention, Loss, Precision};
use crate::calc::units::{grouped, plain};

/// Bytes one decoder layer keeps for backward without checkpointing, and
/// the formula.
pub(super) fn layer_activation_bytes(s: &Sheet<'_>) -> (f64, String) {
    let input = s.input;
    let a = &input.model.arch;
    let elem = s.compute;
    let tokens = s.tokens as f64;
    let c = |name: &str| s.constant(name).value;
    // Under autocast the residual stream and norm inputs stay fp32.
    let h_elem = if input.precision == Precision::Mixed {
        c("fp32 activation bytes under autocast")
    } else {
        elem
    };
    let n_h = c("activation tensors of width hidden per layer");
    let n_q = c("activation tensors of width heads x head_dim per layer");
    let n_kv = c("activation tensors of width kv_heads x head_dim per layer");
    let n_i = if a.mlp_gated {
        c("activation tensors of width intermediate per layer")
    } else {
        c("activation tensors of width intermediate per layer, plain MLP")
    };
    let lse = c("SDPA softmax statistics bytes per head per token") * a.heads as f64;
    let mut bytes = tokens
        * (h_elem * n_h * a.hidden as f64
            + elem
                * (n_q * a.q_out() as f64
                    + n_kv * a.kv_out() as f64
                    + n_i * a.active_intermediate() as f64)
            + lse);
    let t = grouped(s.tokens);
    let mut text = format!(
        "{t} tokens × ({} B·{}·{} + {} B·({}·{} + {}·{} + {}·{}) + {} B·{} heads)",
        plain(h_elem),
        plain(n_h),
        a.hidden,
        plain(elem),
        plain(n_q),
        a.q_out(),
        plain(n_kv),
        a.kv_out(),
        plain(n_i),
        a.active_intermediate(),
        plain(c("SDPA softmax statistics bytes per head per token")),
        a.heads,
    );
    if input.attention == Attention::Eager {
        let per = c("eager attention bytes per score element");
        // One score matrix per sequence: a preference pair is two.
        let sequences = input.batch * input.objective.sequences_per_example();
        // In f64: at the largest inputs the u64 product would wrap.
        let scores = a.heads as f64 * s.row as f64 * s.row as f64 * sequences as f64;
        bytes += per * scores;
        text.push_str(&format!(
            " + eager attention {} B × {} heads × {}² × {} sequences",
            plain(per),
            a.heads,
            s.row,
            sequences
        ));
    }
    if input.method.uses_adapter() {
        let targeted: Vec<_> = a
            .linears()
            .into_iter()
            .filter(|l| input.lora_targets.includes(l.name, l.is_attention))
            .collect();
        let mut inputs: u64 = targeted
            .iter()
            .map(|l| l.in_features * l.active_copies)
            .sum();
        let mut modules: u64 = targeted.iter().map(|l| l.active_copies).sum();
        if input.lora_targets.includes_head() {
            inputs += a.hidden;
            modules += 1;
        }
        let rank_bytes = tokens * elem * (input.lora_rank * modules) as f64;
        bytes += rank_bytes;
        text.push_str(&format!(
            " + LoRA A outputs {} B × {t} tokens × rank {} × {} modules",
            plain(elem),
            input.lora_rank,
            modules
        ));
        if input.lora_dropout {
            let per = c("LoRA dropout bytes per input element");
            bytes += tokens * per * inputs as f64;
            text.push_str(&format!(
                " + LoRA dropout {} B × {t} tokens × {} input features",
                plain(per),
                grouped(inputs)
            ));
        }
    }
    (bytes, text)
}

pub(super) fn activations(s: &Sheet<'_>) -> Term {
    let input = s.input;
    let a = &input.model.arch;
    let (layer, layer_text) = layer_activation_bytes(s);
    let h_elem = if input.precision == Precision::Mixed {
        s.constant("fp32 activation bytes under autocast").value
    } else {
        s.compute
    };
    let source = format!(
        "knowledge/worksheet.md rows 3–8, 11, 12 and 14; shapes from {}",
        s.shape_source()
    );
    if input.grad_checkpointing {
        let kept = h_elem * s.tokens as f64 * a.hidden as f64 * a.layers as f64;
        let bytes = kept + layer;
        term(
            "activations",
            "activations",
            bytes,
            format!(
                "gradient checkpointing keeps each layer's input: {} B × {} tokens × hidden {} × {} layers = {}; plus one layer recomputed in backward: {} = {}; total {}",
                plain(h_elem),
                grouped(s.tokens),
                a.hidden,
                a.layers,
                gb(kept),
                layer_text,
                gb(layer),
                gb(bytes)
            ),
            source,
        )
    } else {
        let bytes = layer * a.layers as f64;
        term(
            "activations",
            "activations",
            bytes,
            format!(
                "no checkpointing: {} layers × {layer_text} = {} layers × {} = {}",
                a.layers,
                a.layers,
                gb(layer),
                gb(bytes)
            ),
            source,
        )
    }
}

pub(super) fn logits(s: &Sheet<'_>) -> Term {
    let input = s.input;
    let vocab = input.model.arch.vocab;
    if input.loss == Loss::Fused {
        return term(
            "logits",
            "loss logits",
            0.0,
            "fused linear cross-entropy: the batch × seq × vocab logits are never held whole"
                .into(),
            "shared/research/estimator.md §3.4 (Liger, Unsloth, torchtune chunked CE, Apple CCE)"
                .into(),
        );
    }
    let per = match input.loss {
        Loss::Native => s.constant("logits bytes per element without upcast"),
        Loss::Chunked => s.constant("logits bytes per element with a chunked loss"),
        Loss::Upcast | Loss::Fused => s.constant("logits bytes per element"),
    };
    let bytes = s.logit_tokens as f64 * vocab as f64 * per.value;
    term(
        "logits",
        "loss logits",
        bytes,
        format!(
            "{} × vocab {} × {} B = {}",
            s.logit_token_text(),
            grouped(vocab),
            plain(per.value),
            gb(bytes)
        ),
        per.cite.to_string(),
    )
}
