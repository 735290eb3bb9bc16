//! Turning replies into text: markdown for plans, terminal styling at the edge.

pub mod plan_json;
pub mod plan_md;
pub mod procs;
pub mod terminal;
