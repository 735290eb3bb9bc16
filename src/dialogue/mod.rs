//! The dialogue engine: turns in, replies out, with no I/O of its own.

pub mod commands;
pub mod engine;
pub mod facts;
pub mod greeting;
pub mod plan_turn;
pub mod session;
