//! `headroom models`: the catalog of models headroom plans by name, with the
//! names it understands for each and the source of its shapes.

use crate::knowledge::Knowledge;
use serde_json::json;

pub fn list(as_json: bool) -> String {
    let k = Knowledge::embedded();
    if as_json {
        let rows: Vec<_> = k
            .models
            .iter()
            .map(|m| {
                json!({
                    "name": m.name,
                    "aliases": m.aliases,
                    "family": m.family,
                    "params": m.arch.total_params(),
                    "mixture_of_experts": m.arch.is_moe(),
                    "source": m.cite.source,
                })
            })
            .collect();
        return serde_json::to_string_pretty(&rows).expect("catalog JSON serializes");
    }
    let mut out = String::from(
        "The models headroom knows by name (knowledge/models.md). Any other model: give its config.json (--config, or paste it) or its parameter count (--params).\n\n",
    );
    for m in &k.models {
        let moe = if m.arch.is_moe() {
            format!(
                ", mixture of experts: {} experts, {} active per token",
                m.arch.experts, m.arch.experts_per_token
            )
        } else {
            String::new()
        };
        out.push_str(&format!(
            "{:<32} {:>7.2} B params{moe}; also: {}\n",
            m.name,
            m.arch.total_params() as f64 / 1e9,
            m.aliases.join(", ")
        ));
    }
    out.trim_end().to_string()
}
