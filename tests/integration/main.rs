//! One integration-test binary (fast links on a 2-core machine), one module
//! per behaviour a user sees.

mod support;
mod transcripts;
