//! Turning replies into text: typed reply blocks to markdown, terminal styling at the edge.

pub mod chart;
pub mod layout;
pub mod plan_brief;
pub mod plan_json;
pub mod plan_md;
pub mod procs;
pub mod reply;
pub mod svg_chart;
pub mod table;
pub mod terminal;
pub mod thermal_md;
