//! The facts headroom reasons from, parsed once from `knowledge/*.md`.
//!
//! The markdown files are compiled into the binary so the tool answers the
//! same wherever it is run from; each fact keeps the file and row it came
//! from so an answer can cite it.

pub mod table;

use crate::calc::arch::Arch;
use std::collections::BTreeMap;
use std::sync::LazyLock;
use table::{Row, parse_tables};

const MODELS_MD: &str = include_str!("../../knowledge/models.md");
const DTYPES_MD: &str = include_str!("../../knowledge/dtypes.md");
const ANCHORS_MD: &str = include_str!("../../knowledge/anchors.md");
const SPARK_MD: &str = include_str!("../../knowledge/spark.md");
const COMMANDS_MD: &str = include_str!("../../knowledge/commands.md");
const WORKSHEET_MD: &str = include_str!("../../knowledge/worksheet.md");
const THERMAL_MD: &str = include_str!("../../knowledge/thermal.md");

pub mod questions;

/// Where a figure came from: a knowledge file's row and its own source text.
#[derive(Debug, Clone, PartialEq)]
pub struct Citation {
    pub file: &'static str,
    pub row: usize,
    pub source: String,
}

impl std::fmt::Display for Citation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "knowledge/{} row {}", self.file, self.row)
    }
}

#[derive(Debug, Clone)]
pub struct CatalogModel {
    pub name: String,
    pub aliases: Vec<String>,
    pub family: String,
    pub params_b: f64,
    pub active_params_b: f64,
    pub arch: Arch,
    pub cite: Citation,
}

#[derive(Debug, Clone)]
pub struct Anchor {
    pub name: String,
    pub rule: String,
    pub model: String,
    pub method: String,
    pub weight_dtype: String,
    pub optimizer: String,
    pub lora_targets: String,
    pub figure_gb: Option<f64>,
    pub pack: u64,
    pub cite: Citation,
}

#[derive(Debug, Clone)]
pub struct SuggestedCommand {
    pub id: String,
    pub command: String,
    pub needs_approval: bool,
    pub purpose: String,
}

/// How much state an optimizer keeps; `bytes_per_state` None means "the
/// dtype the precision set-up gives the state".
#[derive(Debug, Clone)]
pub struct OptimizerFacts {
    pub states_per_param: f64,
    pub bytes_per_state: Option<f64>,
    pub cite: Citation,
}

/// A numeric fact with its unit and citation.
#[derive(Debug, Clone)]
pub struct Figure {
    pub value: f64,
    pub unit: String,
    pub cite: Citation,
}

#[derive(Debug)]
pub struct Knowledge {
    pub models: Vec<CatalogModel>,
    pub dtypes: BTreeMap<String, Figure>,
    pub optimizers: BTreeMap<String, OptimizerFacts>,
    pub anchors: Vec<Anchor>,
    pub spark: BTreeMap<String, Figure>,
    pub worksheet: BTreeMap<String, Figure>,
    pub thermal: BTreeMap<String, Figure>,
    pub commands: Vec<SuggestedCommand>,
    pub answers: Vec<questions::DomainAnswer>,
    pub frameworks: Vec<crate::calc::runtime::Preset>,
}

static EMBEDDED: LazyLock<Knowledge> = LazyLock::new(|| {
    Knowledge::parse().unwrap_or_else(|e| panic!("knowledge/ files are malformed: {e}"))
});

fn cite(file: &'static str, row: &Row<'_>) -> Citation {
    Citation {
        file,
        row: row.number(),
        source: row.get("source").to_string(),
    }
}

fn number(file: &str, row: &Row<'_>, column: &str) -> Result<f64, String> {
    let raw = row.get(column);
    raw.parse::<f64>().map_err(|_| {
        format!(
            "{file} row {}: {column} = {raw:?} is not a number",
            row.number()
        )
    })
}

fn count(file: &str, row: &Row<'_>, column: &str) -> Result<u64, String> {
    let raw = row.get(column);
    raw.parse::<u64>().map_err(|_| {
        format!(
            "{file} row {}: {column} = {raw:?} is not a whole number",
            row.number()
        )
    })
}

impl Knowledge {
    /// The knowledge compiled into this binary.
    pub fn embedded() -> &'static Knowledge {
        &EMBEDDED
    }

    fn parse() -> Result<Knowledge, String> {
        Ok(Knowledge {
            models: parse_models()?,
            dtypes: parse_figures("dtypes.md", DTYPES_MD, 0, "dtype", "bytes_per_param", "B")?,
            optimizers: parse_optimizers()?,
            anchors: parse_anchors()?,
            spark: parse_keyed("spark.md", SPARK_MD, "fact")?,
            worksheet: parse_keyed("worksheet.md", WORKSHEET_MD, "constant")?,
            thermal: parse_keyed("thermal.md", THERMAL_MD, "rule")?,
            commands: parse_commands()?,
            answers: questions::parse_answers()?,
            frameworks: parse_frameworks()?,
        })
    }

    /// A Spark figure by its `fact` name; the names are fixed in code and
    /// covered by tests, so a missing one is a build defect.
    pub fn spark(&self, fact: &str) -> &Figure {
        self.spark
            .get(fact)
            .unwrap_or_else(|| panic!("knowledge/spark.md has no row {fact:?}"))
    }

    /// A worksheet constant by name; names are fixed in code and tested.
    pub fn constant(&self, name: &str) -> &Figure {
        self.worksheet
            .get(name)
            .unwrap_or_else(|| panic!("knowledge/worksheet.md has no row {name:?}"))
    }

    /// A thermal-analysis rule by name; names are fixed in code and tested.
    pub fn rule(&self, name: &str) -> &Figure {
        self.thermal
            .get(name)
            .unwrap_or_else(|| panic!("knowledge/thermal.md has no row {name:?}"))
    }

    pub fn dtype(&self, name: &str) -> Option<&Figure> {
        self.dtypes.get(name)
    }

    pub fn optimizer(&self, name: &str) -> Option<&OptimizerFacts> {
        self.optimizers.get(name)
    }

    pub fn model(&self, name: &str) -> Option<&CatalogModel> {
        self.models.iter().find(|m| m.name == name)
    }

    pub fn command(&self, id: &str) -> &SuggestedCommand {
        self.commands
            .iter()
            .find(|c| c.id == id)
            .unwrap_or_else(|| panic!("knowledge/commands.md has no command {id:?}"))
    }
}

fn parse_models() -> Result<Vec<CatalogModel>, String> {
    let tables = parse_tables(MODELS_MD);
    let table = tables.first().ok_or("models.md has no table")?;
    table
        .rows()
        .map(|row| {
            let f = "models.md";
            Ok(CatalogModel {
                name: row.get("model").to_string(),
                aliases: row
                    .get("aliases")
                    .split(',')
                    .map(|a| a.trim().to_string())
                    .filter(|a| !a.is_empty())
                    .collect(),
                family: row.get("family").to_string(),
                params_b: number(f, &row, "params_b")?,
                active_params_b: number(f, &row, "active_params_b")?,
                arch: Arch {
                    layers: count(f, &row, "layers")?,
                    hidden: count(f, &row, "hidden")?,
                    intermediate: count(f, &row, "intermediate")?,
                    heads: count(f, &row, "heads")?,
                    kv_heads: count(f, &row, "kv_heads")?,
                    head_dim: count(f, &row, "head_dim")?,
                    vocab: count(f, &row, "vocab")?,
                    tied_embeddings: row.get("tied") == "yes",
                    mlp_gated: row.get("mlp") != "plain",
                    experts: count(f, &row, "experts")?,
                    experts_per_token: count(f, &row, "experts_per_token")?,
                },
                cite: cite("models.md", &row),
            })
        })
        .collect()
}

fn parse_figures(
    file: &'static str,
    md: &str,
    table_index: usize,
    key: &str,
    value: &str,
    unit: &str,
) -> Result<BTreeMap<String, Figure>, String> {
    let tables = parse_tables(md);
    let table = tables
        .get(table_index)
        .ok_or_else(|| format!("{file} lacks table {table_index}"))?;
    table
        .rows()
        .map(|row| {
            Ok((
                row.get(key).to_string(),
                Figure {
                    value: number(file, &row, value)?,
                    unit: unit.to_string(),
                    cite: cite(file, &row),
                },
            ))
        })
        .collect()
}

fn parse_optimizers() -> Result<BTreeMap<String, OptimizerFacts>, String> {
    let tables = parse_tables(DTYPES_MD);
    let table = tables.get(1).ok_or("dtypes.md lacks its optimizer table")?;
    table
        .rows()
        .map(|row| {
            let per_state = row.get("bytes_per_state");
            Ok((
                row.get("optimizer").to_string(),
                OptimizerFacts {
                    states_per_param: number("dtypes.md", &row, "states_per_param")?,
                    bytes_per_state: if per_state == "param" {
                        None
                    } else {
                        Some(number("dtypes.md", &row, "bytes_per_state")?)
                    },
                    cite: cite("dtypes.md", &row),
                },
            ))
        })
        .collect()
}

fn parse_anchors() -> Result<Vec<Anchor>, String> {
    let tables = parse_tables(ANCHORS_MD);
    let table = tables.first().ok_or("anchors.md has no table")?;
    table
        .rows()
        .map(|row| {
            let figure = row.get("figure_gb");
            Ok(Anchor {
                name: row.get("anchor").to_string(),
                rule: row.get("rule").to_string(),
                model: row.get("model").to_string(),
                method: row.get("method").to_string(),
                weight_dtype: row.get("weight_dtype").to_string(),
                optimizer: row.get("optimizer").to_string(),
                lora_targets: row.get("lora_targets").to_string(),
                figure_gb: if figure == "-" {
                    None
                } else {
                    Some(number("anchors.md", &row, "figure_gb")?)
                },
                pack: count("anchors.md", &row, "pack")?,
                cite: cite("anchors.md", &row),
            })
        })
        .collect()
}

fn parse_keyed(
    file: &'static str,
    md: &str,
    key: &str,
) -> Result<BTreeMap<String, Figure>, String> {
    let tables = parse_tables(md);
    let table = tables
        .first()
        .ok_or_else(|| format!("{file} has no table"))?;
    table
        .rows()
        .map(|row| {
            Ok((
                row.get(key).to_string(),
                Figure {
                    value: number(file, &row, "value")?,
                    unit: row.get("unit").to_string(),
                    cite: cite(file, &row),
                },
            ))
        })
        .collect()
}

const FRAMEWORKS_MD: &str = include_str!("../../knowledge/frameworks.md");

fn parse_frameworks() -> Result<Vec<crate::calc::runtime::Preset>, String> {
    use crate::calc::setup::{Loss, Precision};
    let tables = parse_tables(FRAMEWORKS_MD);
    let table = tables.first().ok_or("frameworks.md has no table")?;
    table
        .rows()
        .map(|row| {
            let bad = |what: &str| format!("frameworks.md row {}: bad {what}", row.number());
            let yes = |col: &str| match row.get(col) {
                "yes" | "on" => Ok(true),
                "no" | "off" => Ok(false),
                _ => Err(bad(col)),
            };
            Ok(crate::calc::runtime::Preset {
                key: row.get("framework").to_string(),
                names: row
                    .get("names")
                    .split(',')
                    .map(|n| n.trim().to_ascii_lowercase())
                    .filter(|n| !n.is_empty())
                    .collect(),
                loss: Loss::parse(row.get("loss")).ok_or_else(|| bad("loss"))?,
                checkpointing: yes("checkpointing")?,
                packed: yes("packed")?,
                precision: Precision::parse(row.get("precision"))
                    .ok_or_else(|| bad("precision"))?,
                eval_batch: count("frameworks.md", &row, "eval_batch")?,
                cite: format!(
                    "knowledge/frameworks.md row {} ({})",
                    row.number(),
                    row.get("framework")
                ),
            })
        })
        .collect()
}

fn parse_commands() -> Result<Vec<SuggestedCommand>, String> {
    let tables = parse_tables(COMMANDS_MD);
    let table = tables.first().ok_or("commands.md has no table")?;
    Ok(table
        .rows()
        .map(|row| SuggestedCommand {
            id: row.get("id").to_string(),
            command: row.get("command").to_string(),
            needs_approval: row.get("approval") == "yes",
            purpose: row.get("purpose").to_string(),
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_knowledge_parses_with_every_fact_the_code_names() {
        let k = Knowledge::embedded();
        assert!(
            k.models.len() >= 25,
            "catalog has {} models",
            k.models.len()
        );
        for fact in [
            "idle available memory",
            "OS and driver reserve",
            "CUDA context and allocator",
            "tight above",
            "fresh free output within",
            "rated power",
        ] {
            k.spark(fact);
        }
        for dtype in [
            "fp32", "bf16", "fp16", "int8", "int4", "nf4", "nf4-dq", "nvfp4",
        ] {
            assert!(k.dtype(dtype).is_some(), "{dtype}");
        }
        for opt in [
            "adamw",
            "adamw_8bit",
            "paged_adamw_8bit",
            "paged_adamw_32bit",
            "adafactor",
            "sgd",
        ] {
            assert!(k.optimizer(opt).is_some(), "{opt}");
        }
        assert_eq!(k.anchors.len(), 4);
        for anchor in &k.anchors {
            assert!(k.model(&anchor.model).is_some(), "{}", anchor.model);
        }
        assert!(k.command("free").command == "free -g");
        assert!(k.command("procs").command.contains("grep -E 'vllm|ollama"));
        assert!(k.command("drop-caches").needs_approval);
    }

    /// The shapes must reproduce the published totals: a typo in a config
    /// value would otherwise silently skew every plan for that model.
    #[test]
    fn catalog_shapes_reproduce_published_parameter_counts() {
        for m in &Knowledge::embedded().models {
            let computed = m.arch.total_params() as f64 / 1e9;
            let err = (computed - m.params_b).abs() / m.params_b;
            // Gemma 3 totals include a ~0.4B vision tower the text shapes omit.
            let tolerance = if m.family == "gemma3" { 0.12 } else { 0.02 };
            assert!(
                err <= tolerance,
                "{}: shapes give {computed:.3}B, card says {}B",
                m.name,
                m.params_b
            );
        }
    }

    #[test]
    fn every_catalog_row_cites_a_config() {
        for m in &Knowledge::embedded().models {
            assert!(m.cite.source.contains("config.json"), "{}", m.name);
            assert!(!m.family.is_empty());
        }
    }
}
