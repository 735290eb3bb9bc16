//! A transformer's shapes, and the parameter counts that follow from them.
//!
//! Every memory term that depends on the model is computed from these shapes
//! rather than from a headline parameter count, so grouped KV heads, tied
//! embeddings and mixture-of-experts layers are counted as they really are.

use serde::Serialize;

/// Decoder-only transformer shapes, as a Hugging Face `config.json` gives them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Arch {
    pub layers: u64,
    pub hidden: u64,
    /// Dense MLP width, or one expert's MLP width for MoE models.
    pub intermediate: u64,
    pub heads: u64,
    pub kv_heads: u64,
    pub head_dim: u64,
    pub vocab: u64,
    pub tied_embeddings: bool,
    /// A gated MLP (gate, up, down: SwiGLU/GeGLU) or a plain one (up, down).
    pub mlp_gated: bool,
    /// Experts per layer; 0 for a dense model.
    pub experts: u64,
    pub experts_per_token: u64,
}

/// One linear projection inside a decoder layer, as LoRA sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Linear {
    pub name: &'static str,
    pub in_features: u64,
    pub out_features: u64,
    /// How many copies a layer holds (the expert count for expert MLPs).
    pub copies: u64,
    /// Copies a token runs through (experts_per_token for expert MLPs).
    pub active_copies: u64,
    pub is_attention: bool,
}

impl Arch {
    pub fn q_out(&self) -> u64 {
        self.heads * self.head_dim
    }

    pub fn kv_out(&self) -> u64 {
        self.kv_heads * self.head_dim
    }

    pub fn is_moe(&self) -> bool {
        self.experts > 0
    }

    /// The projections of one decoder layer: q, k, v, o, then gate (gated
    /// MLPs only), up and down. Plain-MLP models' fc1/fc2 map to up/down.
    pub fn linears(&self) -> Vec<Linear> {
        let h = self.hidden;
        let (copies, active) = if self.is_moe() {
            (self.experts, self.experts_per_token)
        } else {
            (1, 1)
        };
        let attn = |name, in_features, out_features| Linear {
            name,
            in_features,
            out_features,
            copies: 1,
            active_copies: 1,
            is_attention: true,
        };
        let mlp = |name, in_features, out_features| Linear {
            name,
            in_features,
            out_features,
            copies,
            active_copies: active,
            is_attention: false,
        };
        let mut out = vec![
            attn("q_proj", h, self.q_out()),
            attn("k_proj", h, self.kv_out()),
            attn("v_proj", h, self.kv_out()),
            attn("o_proj", self.q_out(), h),
        ];
        if self.mlp_gated {
            out.push(mlp("gate_proj", h, self.intermediate));
        }
        out.push(mlp("up_proj", h, self.intermediate));
        out.push(mlp("down_proj", self.intermediate, h));
        out
    }

    /// Parameters in the decoder layers' linear projections (what 4-bit
    /// quantization replaces), plus MoE routers.
    pub fn linear_params(&self) -> u64 {
        let per_layer: u64 = self
            .linears()
            .iter()
            .map(|l| l.in_features * l.out_features * l.copies)
            .sum();
        let router = self.hidden * self.experts;
        self.layers * (per_layer + router)
    }

    /// Embedding matrix plus an untied lm_head.
    pub fn embedding_params(&self) -> u64 {
        let embed = self.vocab * self.hidden;
        if self.tied_embeddings {
            embed
        } else {
            2 * embed
        }
    }

    /// RMSNorm weights: two per layer and one final.
    pub fn norm_params(&self) -> u64 {
        self.layers * 2 * self.hidden + self.hidden
    }

    /// Parameters that stay in 16-bit when the linears are quantized.
    pub fn unquantized_params(&self) -> u64 {
        self.embedding_params() + self.norm_params()
    }

    pub fn total_params(&self) -> u64 {
        self.linear_params() + self.unquantized_params()
    }

    /// MLP width a token actually passes through (k experts for MoE).
    pub fn active_intermediate(&self) -> u64 {
        if self.is_moe() {
            self.intermediate * self.experts_per_token
        } else {
            self.intermediate
        }
    }

    /// This shape grown or shrunk to another parameter count: depth and
    /// width each scale by one factor, found by bisection so the scaled
    /// shapes hold about `params`; vocabulary and KV heads stay. Every
    /// dimension is non-decreasing in the count, so a larger model never
    /// plans smaller. Used only when the owner gave a bare parameter count.
    pub fn scaled_to(&self, params: u64) -> Arch {
        let (mut lo, mut hi) = (1e-3_f64, 1e3_f64);
        for _ in 0..80 {
            let mid = (lo * hi).sqrt();
            if self.scaled_by(mid).total_params() < params {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        self.scaled_by(hi)
    }

    fn scaled_by(&self, factor: f64) -> Arch {
        let scale = |v: u64| ((v as f64 * factor).round() as u64).max(1);
        let hidden = scale(self.hidden);
        Arch {
            layers: scale(self.layers),
            hidden,
            intermediate: scale(self.intermediate),
            heads: (hidden / self.head_dim).max(1),
            ..self.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn llama2_7b() -> Arch {
        Arch {
            layers: 32,
            hidden: 4096,
            intermediate: 11008,
            heads: 32,
            kv_heads: 32,
            head_dim: 128,
            vocab: 32000,
            tied_embeddings: false,
            mlp_gated: true,
            experts: 0,
            experts_per_token: 0,
        }
    }

    #[test]
    fn llama2_7b_counts_match_the_published_6_74b() {
        let total = llama2_7b().total_params();
        assert_eq!(total, 6_738_415_616);
    }

    #[test]
    fn tied_embeddings_count_once() {
        let tied = Arch {
            tied_embeddings: true,
            ..llama2_7b()
        };
        assert_eq!(
            llama2_7b().total_params() - tied.total_params(),
            32000 * 4096
        );
    }
}
