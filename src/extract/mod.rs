//! Pure readers: plain language to slots, pasted output to typed readings.

pub mod config_json;
pub mod free;
pub mod ps;
pub mod slots;
