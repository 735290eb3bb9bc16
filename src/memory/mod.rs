//! The edge that keeps memory on disk: data directory, lock, transcript.

pub mod datadir;
pub mod export;
pub mod lock;
pub mod pastes;
pub mod transcript;
