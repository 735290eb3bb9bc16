//! headroom: a terminal assistant that plans memory headroom for ML training
//! on an NVIDIA DGX Spark. It reads, computes and writes its own files; it
//! never runs a command.
//!
//! Data flows one way: terminal → repl/piped → conversation → dialogue →
//! extract → calc (with knowledge) → Reply → render. Only `repl`, `piped`,
//! `conversation`, `memory` and `cli` touch the outside world.

// serde_json::json! for the plan object nests deeper than the default limit.
#![recursion_limit = "256"]

pub mod calc;
pub mod cli;
pub mod conversation;
pub mod dialogue;
pub mod extract;
pub mod input;
pub mod knowledge;
pub mod llm;
pub mod memory;
pub mod piped;
pub mod readings;
pub mod render;
pub mod repl;
pub mod reply;
pub mod spark_validation;
pub mod text;
pub mod validation;
