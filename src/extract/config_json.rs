//! Reads a Hugging Face `config.json` into the shapes the estimator needs.

use crate::calc::arch::Arch;
use serde_json::Value;

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ConfigError {
    #[error("it is not JSON ({0})")]
    NotJson(String),
    #[error("it has no `{0}` field")]
    Missing(&'static str),
    #[error("`{field}` is {value}, which no model has")]
    Impossible { field: &'static str, value: u64 },
}

impl ConfigError {
    pub fn hint(&self) -> &'static str {
        "Give the model's config.json from its Hugging Face repository (the file beside the safetensors)."
    }
}

fn field(v: &Value, names: &[&'static str]) -> Option<u64> {
    names.iter().find_map(|n| v.get(*n).and_then(Value::as_u64))
}

fn required(v: &Value, names: &[&'static str]) -> Result<u64, ConfigError> {
    field(v, names).ok_or(ConfigError::Missing(names[0]))
}

/// True when the text is a JSON object with a model's shapes in it.
pub fn looks_like_config(text: &str) -> bool {
    let t = text.trim_start();
    t.starts_with('{') && (t.contains("\"hidden_size\"") || t.contains("\"num_hidden_layers\""))
}

crate::extract::reading::paste_reader!(
    /// The registry's reader for a pasted `config.json`.
    ConfigJsonPaste,
    "a config.json",
    looks_like_config,
    parse_config => |a| crate::extract::reading::Reading::ConfigJson(Box::new(a))
);

pub fn parse_config(text: &str) -> Result<Arch, ConfigError> {
    let root: Value =
        serde_json::from_str(text).map_err(|e| ConfigError::NotJson(e.to_string()))?;
    // Multimodal configs (Gemma 3, Llama 4) nest the language model.
    let v = root.get("text_config").unwrap_or(&root);
    let hidden = required(v, &["hidden_size", "n_embd", "d_model"])?;
    let heads = required(v, &["num_attention_heads", "n_head"])?;
    let experts = field(v, &["num_local_experts", "num_experts", "n_routed_experts"]).unwrap_or(0);
    let intermediate = if experts > 0 {
        field(v, &["moe_intermediate_size"])
            .or_else(|| field(v, &["intermediate_size"]))
            .ok_or(ConfigError::Missing("intermediate_size"))?
    } else {
        required(v, &["intermediate_size", "n_inner", "ffn_dim"])?
    };
    let tied = v
        .get("tie_word_embeddings")
        .or_else(|| root.get("tie_word_embeddings"))
        .and_then(Value::as_bool)
        // transformers' PretrainedConfig defaults to tied embeddings.
        .unwrap_or(true);
    // GPT-NeoX, Falcon, Phi-1/2, GPT-2 and GPT-J use a plain GeLU MLP; the
    // Llama, Mistral, Qwen and Gemma families gate theirs.
    let plain = matches!(
        v.get("model_type").and_then(Value::as_str),
        Some(
            "gpt_neox" | "falcon" | "RefinedWebModel" | "phi" | "gpt2" | "gptj" | "stablelm_alpha"
        )
    );
    let arch = Arch {
        layers: required(v, &["num_hidden_layers", "n_layer", "num_layers"])?,
        hidden,
        intermediate,
        heads,
        kv_heads: field(v, &["num_key_value_heads"]).unwrap_or(heads),
        head_dim: field(v, &["head_dim"]).unwrap_or(hidden / heads.max(1)),
        vocab: required(v, &["vocab_size"]).or_else(|_| required(&root, &["vocab_size"]))?,
        tied_embeddings: tied,
        mlp_gated: !plain,
        experts,
        experts_per_token: if experts > 0 {
            field(v, &["num_experts_per_tok", "experts_per_token", "top_k"]).unwrap_or(2)
        } else {
            0
        },
    };
    // A shape of 0 (or an absurd one) would plan a model of nothing, or
    // overflow the worksheet: refuse it with the field's name.
    for (field, value, max) in [
        ("num_hidden_layers", arch.layers, 10_000),
        ("hidden_size", arch.hidden, 1 << 20),
        ("intermediate_size", arch.intermediate, 1 << 22),
        ("num_attention_heads", arch.heads, 1 << 14),
        ("num_key_value_heads", arch.kv_heads, 1 << 14),
        ("head_dim", arch.head_dim, 1 << 14),
        ("vocab_size", arch.vocab, 1 << 24),
    ] {
        if value == 0 || value > max {
            return Err(ConfigError::Impossible { field, value });
        }
    }
    if arch.experts > 4096 || arch.experts_per_token > arch.experts.max(1) {
        return Err(ConfigError::Impossible {
            field: "num_experts_per_tok",
            value: arch.experts_per_token,
        });
    }
    Ok(arch)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::knowledge::Knowledge;

    #[test]
    fn impossible_shapes_are_refused_by_name() {
        let e = parse_config(r#"{"hidden_size": 0, "num_attention_heads": 32, "intermediate_size": 11008, "num_hidden_layers": 32, "vocab_size": 32000}"#).unwrap_err();
        assert_eq!(
            e,
            ConfigError::Impossible {
                field: "hidden_size",
                value: 0
            }
        );
        let e = parse_config(r#"{"hidden_size": 4096, "num_attention_heads": 32, "intermediate_size": 11008, "num_hidden_layers": 18446744073709551615, "vocab_size": 32000}"#).unwrap_err();
        assert!(matches!(
            e,
            ConfigError::Impossible {
                field: "num_hidden_layers",
                ..
            }
        ));
    }

    #[test]
    fn llama_config_gives_the_catalog_shapes() {
        let arch = parse_config(include_str!(
            "../../tests/fixtures/llama-3.1-8b-config.json"
        ))
        .unwrap();
        assert_eq!(
            arch,
            Knowledge::embedded().model("Llama 3.1 8B").unwrap().arch
        );
    }

    #[test]
    fn bad_config_says_what_is_missing() {
        assert!(matches!(parse_config("{"), Err(ConfigError::NotJson(_))));
        assert_eq!(
            parse_config("{\"num_attention_heads\": 8}"),
            Err(ConfigError::Missing("hidden_size"))
        );
    }
}
