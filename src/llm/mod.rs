//! Optional phrasing by a local model. The deterministic Reply is always
//! built first and always stands on its own; a model may only rephrase it,
//! and the guard rejects any phrasing that changes a figure, adds a command
//! or drops the verdict.

pub mod client;
pub mod endpoint;
pub mod guard;
pub mod meaning;
pub mod phrase;
pub mod prompt;
pub mod redact;
pub mod secrets;
pub mod stream;
