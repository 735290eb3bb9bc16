//! Pure, deterministic calculators: no I/O, no clocks.

pub mod anchors;
pub mod arch;
pub mod budget;
pub mod defaults;
pub mod estimate;
pub mod model_spec;
pub mod objective;
pub mod plan;
pub mod pool;
pub mod runtime;
pub mod setup;
pub mod solve;
pub mod thermal;
pub mod units;
pub mod verdict;
pub mod vllm_share;
