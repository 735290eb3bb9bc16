//! Typed readings: the values readers produce and calculators consume.
//! They live here, not in `extract/`, so `calc/` never depends on a parser.

pub mod bounded;
pub mod memory;
pub mod process;
pub mod samples;
pub mod undated;
