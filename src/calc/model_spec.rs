//! Turns what the owner named (a catalog model, a bare size, a config.json)
//! into the shapes the estimator needs.

use crate::calc::arch::Arch;
use crate::calc::setup::{ModelSpec, ShapeBasis};
use crate::knowledge::{CatalogModel, Knowledge};

pub fn from_catalog(m: &CatalogModel) -> ModelSpec {
    ModelSpec {
        display: m.name.clone(),
        arch: m.arch.clone(),
        params: m.arch.total_params(),
        basis: ShapeBasis::Catalog {
            model: m.name.clone(),
            row: m.cite.row,
        },
    }
}

/// The catalog model whose shapes stand in for a bare parameter count.
pub const REFERENCE_SHAPE: &str = "Llama 3.1 8B";

/// A bare parameter count: the weights use the count exactly; activations
/// use the reference model's shapes scaled to the count (see
/// `Arch::scaled_to`), and the answer says so.
pub fn from_params(params: u64, k: &Knowledge) -> ModelSpec {
    let reference = k
        .model(REFERENCE_SHAPE)
        .expect("the catalog has the reference shape");
    ModelSpec {
        display: with_article(&format!("{} model", params_label(params))),
        arch: reference.arch.scaled_to(params),
        params,
        basis: ShapeBasis::Approximated {
            params,
            proxy: reference.name.clone(),
        },
    }
}

pub fn from_config(arch: Arch, path: &str) -> ModelSpec {
    // "Mistral Nemo 12B (your pasted config.json)" already names the model.
    let display = if path.ends_with("(your pasted config.json)") {
        path.to_string()
    } else {
        format!("the model in {path}")
    };
    ModelSpec {
        display,
        params: arch.total_params(),
        arch,
        basis: ShapeBasis::Config {
            path: path.to_string(),
        },
    }
}

/// 70_000_000_000 as "70B", 1_500_000_000 as "1.5B", 500_000_000 as "500M".
/// "an 8B model", "an 11B model", "an 80B model", "a 7B model": the
/// article as the figure is spoken.
fn with_article(noun: &str) -> String {
    let digits: String = noun.chars().take_while(char::is_ascii_digit).collect();
    // "eight…", and "eleven"/"eighteen" where they lead a group of three.
    let spoken_vowel = digits.starts_with('8')
        || digits.len() % 3 == 2 && (digits.starts_with("11") || digits.starts_with("18"));
    format!("{} {noun}", if spoken_vowel { "an" } else { "a" })
}

pub fn params_label(params: u64) -> String {
    if params >= 1_000_000_000 {
        let b = params as f64 / 1e9;
        let s = format!("{b:.3}");
        format!("{}B", s.trim_end_matches('0').trim_end_matches('.'))
    } else {
        format!("{}M", params / 1_000_000)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_article_follows_the_spoken_figure() {
        assert_eq!(with_article("8B model"), "an 8B model");
        assert_eq!(with_article("11B model"), "an 11B model");
        assert_eq!(with_article("80B model"), "an 80B model");
        assert_eq!(with_article("7B model"), "a 7B model");
        assert_eq!(with_article("27B model"), "a 27B model");
        assert_eq!(with_article("1.5B model"), "a 1.5B model");
    }

    #[test]
    fn a_bare_70b_keeps_the_exact_count_and_scaled_shapes_come_close() {
        let spec = from_params(70_000_000_000, Knowledge::embedded());
        assert_eq!(spec.params, 70_000_000_000);
        assert!(matches!(spec.basis, ShapeBasis::Approximated { .. }));
        let scaled = spec.arch.total_params() as f64;
        assert!((scaled / 70e9 - 1.0).abs() < 0.05, "{scaled}");
    }

    #[test]
    fn labels() {
        assert_eq!(params_label(70_000_000_000), "70B");
        assert_eq!(params_label(1_500_000_000), "1.5B");
        assert_eq!(params_label(500_000_000), "500M");
    }
}
