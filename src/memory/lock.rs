//! One headroom per data directory: a second one is refused, not allowed to
//! interleave its writes with the first one's transcript. The lock is held
//! on the directory itself, which cannot be deleted out from under a
//! session the way a lock file can; the `lock` file only names the pid.

use crate::memory::datadir::open_private_append;
use std::fs::File;
use std::io::Write;
use std::path::Path;

/// Held for the life of the session; the OS releases it on exit or crash.
#[derive(Debug)]
pub struct DataDirLock {
    _dir: File,
}

#[derive(Debug, thiserror::Error)]
pub enum LockError {
    #[error(
        "another headroom session is using {dir} (its pid is in {dir}/lock). Finish that session first, or give this one its own directory with --data-dir DIR."
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
    let io = |at: &Path, source| LockError::Io {
        path: at.display().to_string(),
        source,
    };
    let handle = File::open(dir).map_err(|e| io(dir, e))?;
    match handle.try_lock() {
        Ok(()) => {
            // The pid is for a person reading the file; nothing relies on
            // it, and a full disk must not stop a read-only start. A link
            // in its place still stops the start: it is never written
            // through.
            // Something other than a file in its place (a FIFO would block
            // the open) is left alone: the lock is the directory's.
            let odd = std::fs::symlink_metadata(&path)
                .is_ok_and(|m| !m.file_type().is_file() && !m.file_type().is_symlink());
            match (!odd).then(|| open_private_append(&path)) {
                None => {}
                Some(Ok(mut file)) => {
                    let _ = file
                        .set_len(0)
                        .and_then(|()| writeln!(file, "pid {}", std::process::id()));
                }
                Some(Err(e))
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::StorageFull
                            | std::io::ErrorKind::ReadOnlyFilesystem
                            | std::io::ErrorKind::QuotaExceeded
                    ) => {}
                Some(Err(e)) => return Err(io(&path, e)),
            }
            Ok(DataDirLock { _dir: handle })
        }
        Err(std::fs::TryLockError::WouldBlock) => Err(LockError::Busy {
            dir: dir.display().to_string(),
        }),
        Err(std::fs::TryLockError::Error(e)) => Err(io(dir, e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deleting_the_lock_file_does_not_let_a_second_session_in() {
        let t = tempfile::tempdir().unwrap();
        let first = acquire(t.path()).unwrap();
        std::fs::remove_file(t.path().join("lock")).unwrap();
        assert!(matches!(acquire(t.path()), Err(LockError::Busy { .. })));
        drop(first);
        assert!(acquire(t.path()).is_ok());
    }
}
