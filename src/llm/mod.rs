//! Optional phrasing by a local model. The deterministic Reply is always
//! built first and always stands on its own. A model only ever sees the
//! reply's prose as templates, its figures, verdicts and decisions lifted
//! out as placeholders; headroom renders everything else itself, and the
//! guard refuses any phrasing that adds meaning of its own.

pub mod client;
pub mod endpoint;
pub mod guard;
pub mod phrase;
pub mod prompt;
pub mod redact;
pub mod secrets;
pub mod stream;
pub mod template;
