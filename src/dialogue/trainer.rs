//! A pasted trainer config (LLaMA-Factory, axolotl, torchtune, TRL) as the
//! plan's slots: every setting it holds, at once, each quoted back with the
//! key it came from.

use crate::calc::setup::{Dtype, LoraTargets, Method, Optimizer};
use crate::extract::slots::{Found, Slot, find_model, unknown_model};
use crate::extract::trainer_config::TrainerConfig;
use crate::knowledge::Knowledge;

fn found(slot: Slot, words: String) -> Found {
    Found { slot, words }
}

pub fn slots_of(cfg: &TrainerConfig, k: &Knowledge) -> Vec<Found> {
    let mut out = Vec::new();
    let src = cfg.framework.unwrap_or("trainer");
    if let Some(id) = &cfg.model_id {
        match find_model(id, k) {
            Some((name, alias)) => {
                let near = crate::extract::slots::near_match_words(&name, &alias)
                    .map_or(String::new(), |n| format!("; {n}"));
                out.push(found(
                    Slot::Model(name),
                    format!("{id} ({src} config{near})"),
                ))
            }
            None => out.push(found(
                Slot::UnknownModel(unknown_model(id).unwrap_or_else(|| id.clone())),
                id.clone(),
            )),
        }
    }
    if cfg.framework == Some("Unsloth") {
        out.push(found(
            Slot::Framework("unsloth".into()),
            "Unsloth (its import in the script)".into(),
        ));
    }
    let method = match (cfg.method, cfg.load_bits) {
        (Some("qlora"), _) | (Some("lora"), Some(4)) => Some(Method::Qlora),
        (Some("lora"), _) => Some(Method::Lora),
        (Some("full"), _) => Some(Method::Full),
        _ => None,
    };
    if let Some(m) = method {
        let bits = cfg
            .load_bits
            .map(|b| format!(", {b}-bit base"))
            .unwrap_or_default();
        let words = match cfg.method_default {
            Some(why) => format!("{} method ({why})", cfg.method.unwrap_or("")),
            None => format!("{} method{bits} ({src} config)", cfg.method.unwrap_or("")),
        };
        out.push(found(Slot::Method(m), words));
    }
    // `load_in_8bit: true` on a LoRA: the base is stored in int8 and the
    // compute stays 16-bit, so the storage is the dtype to plan with.
    if cfg.load_bits == Some(8) && method == Some(Method::Lora) {
        out.push(found(
            Slot::Dtype(Dtype::Int8),
            format!("int8 base weights (load_in_8bit, {src} config)"),
        ));
    } else if let Some(d) = cfg.dtype.and_then(Dtype::parse) {
        out.push(found(Slot::Dtype(d), format!("{} ({src} config)", d.key())));
    }
    if let Some(b) = cfg.batch.filter(|b| *b > 0) {
        out.push(found(Slot::Batch(b), format!("batch {b} ({src} config)")));
    }
    // A config that evaluates during training: its eval batch (named, or
    // the framework's default) plans the evaluation peak.
    if let Some(e) = cfg.eval_batch.filter(|e| *e > 0) {
        out.push(found(
            Slot::EvalBatch(e),
            format!("eval batch {e} ({src} config evaluates during training)"),
        ));
    }
    if let Some(p) = cfg.pack.filter(|p| *p > 0) {
        out.push(found(
            Slot::Pack(p),
            format!("sequence length {p} ({src} config)"),
        ));
    }
    if let Some(o) = cfg.optimizer.as_deref().and_then(Optimizer::parse) {
        out.push(found(
            Slot::Optimizer(o),
            format!("{} ({src} config)", o.key()),
        ));
    }
    if let Some(on) = cfg.gradient_checkpointing {
        out.push(found(
            Slot::GradCheckpointing(on),
            format!(
                "gradient checkpointing {} ({src} config)",
                if on { "on" } else { "off" }
            ),
        ));
    }
    if let Some(spec) = &cfg.objective {
        out.push(found(
            Slot::Objective(spec.clone()),
            format!("{} ({src} config)", spec.show()),
        ));
    }
    if let Some(r) = cfg.lora_rank.filter(|r| *r > 0) {
        out.push(found(Slot::LoraRank(r), format!("rank {r} ({src} config)")));
    }
    if let Some(on) = cfg.lora_dropout {
        out.push(found(
            Slot::LoraDropout(on),
            format!(
                "LoRA dropout {} ({src} config)",
                if on { "above 0" } else { "0" }
            ),
        ));
    }
    if let Some((loss, words)) = &cfg.loss {
        out.push(found(Slot::Loss(*loss), format!("{words} ({src} config)")));
    }
    // packing / sample_packing / torchtune's `packed`: batches of one
    // fixed length, or padded to each batch's longest sample.
    if let Some((k, v)) = cfg.keys.iter().find(|(k, _)| {
        let k = k.rsplit('.').next().unwrap_or(k);
        matches!(k, "packing" | "sample_packing" | "packed")
    }) {
        let on = matches!(v.to_ascii_lowercase().as_str(), "true" | "yes" | "1");
        out.push(found(Slot::Packed(on), format!("{k}: {v} ({src} config)")));
    }
    if let Some(t) = cfg.lora_targets.as_deref().and_then(LoraTargets::parse) {
        out.push(found(
            Slot::LoraTargets(t.clone()),
            format!("targets {} ({src} config)", t.label()),
        ));
    }
    out
}
