//! The dialogue engine: turns in, replies out, with no I/O of its own.

pub mod absorb;
pub mod after_ladder;
pub mod bare_setting;
pub mod command_line;
pub mod commands;
pub mod engine;
pub mod evidence;
pub mod facts;
pub mod greeting;
pub mod ladder;
pub mod oom_figures_note;
pub mod oom_turn;
pub mod plan_turn;
pub mod pool_turn;
pub mod questions;
pub mod session;
pub mod share_turn;
pub mod slot_table;
pub mod slowdown_words;
pub mod smi_query_note;
pub mod thermal_turn;
pub mod trainer;
pub mod trainer_memory_note;
pub mod vllm_turn;
pub mod whatif;
pub mod words;
