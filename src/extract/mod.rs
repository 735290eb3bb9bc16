//! Pure readers: plain language to slots, pasted output to typed readings.

pub mod approval;
pub mod config_json;
pub mod free;
pub mod oom;
pub mod ps;
pub mod slots;
