//! One headroom per data directory: a second one is refused, not allowed to
//! interleave its writes with the first one's transcript.

use crate::memory::datadir::open_private_append;
use std::fs::File;
use std::io::Write;
use std::path::Path;

/// Held for the life of the session; the OS releases it on exit or crash.
#[derive(Debug)]
pub struct DataDirLock {
    _file: File,
}

#[derive(Debug, thiserror::Error)]
pub enum LockError {
    #[error(
        "another headroom session is using {dir} (it holds {dir}/lock). Finish that session first, or give this one its own directory with --data-dir DIR."
    )]
    Busy { dir: String },
    #[error("could not open {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
}

pub fn acquire(dir: &Path) -> Result<DataDirLock, LockError> {
    let path = dir.join("lock");
    let io = |source| LockError::Io {
        path: path.display().to_string(),
        source,
    };
    let mut file = open_private_append(&path).map_err(io)?;
    match file.try_lock() {
        Ok(()) => {
            // The pid is for a person reading the file; nothing relies on it.
            file.set_len(0).map_err(io)?;
            writeln!(file, "pid {}", std::process::id()).map_err(io)?;
            Ok(DataDirLock { _file: file })
        }
        Err(std::fs::TryLockError::WouldBlock) => Err(LockError::Busy {
            dir: dir.display().to_string(),
        }),
        Err(std::fs::TryLockError::Error(e)) => Err(io(e)),
    }
}
