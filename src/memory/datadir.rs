//! Where headroom keeps its files, private to the owner, and opened so that
//! the directory cannot be turned against them: a directory the owner made
//! keeps its mode, a shared-writable one is refused, and no file in it is
//! opened through a symlink.

use std::fs::{DirBuilder, File, OpenOptions};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

pub const ENV_DATA_DIR: &str = "HEADROOM_DATA_DIR";

/// `--data-dir`, then `HEADROOM_DATA_DIR`, then the platform data directory
/// (`$XDG_DATA_HOME/headroom` on Linux).
pub fn resolve(flag: Option<&Path>) -> Result<PathBuf, String> {
    if let Some(p) = flag {
        return Ok(p.to_path_buf());
    }
    if let Some(p) = std::env::var_os(ENV_DATA_DIR).filter(|v| !v.is_empty()) {
        return Ok(PathBuf::from(p));
    }
    directories::ProjectDirs::from("", "", "headroom")
        .map(|d| d.data_dir().to_path_buf())
        .ok_or_else(|| {
            format!("no home directory to keep headroom's data in; give one with --data-dir DIR or {ENV_DATA_DIR}")
        })
}

/// Create the directory 0700, or use an existing one as its owner made it.
/// One that others can write to is refused: they could swap the transcript
/// or plant a link where headroom writes.
pub fn ensure_private_dir(dir: &Path) -> std::io::Result<()> {
    match std::fs::symlink_metadata(dir) {
        Ok(meta) => {
            if !meta.is_dir() {
                return Err(std::io::Error::other(
                    "it is not a directory (a file or a symlink is there)",
                ));
            }
            let mode = meta.permissions().mode();
            if mode & 0o022 != 0 {
                return Err(std::io::Error::other(format!(
                    "it is writable by {} (mode {:o}), so someone else could replace headroom's files; use a directory only you can write to (chmod go-w), or another --data-dir",
                    if mode & 0o002 != 0 {
                        "everyone"
                    } else {
                        "its group"
                    },
                    mode & 0o7777
                )));
            }
            Ok(())
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            DirBuilder::new().recursive(true).mode(0o700).create(dir)?;
            sync_dir(dir.parent().unwrap_or(Path::new(".")))
        }
        Err(e) => Err(e),
    }
}

/// Make a new entry in a directory durable (the file's own fsync does not
/// cover its name).
pub fn sync_dir(dir: &Path) -> std::io::Result<()> {
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    File::open(dir)?.sync_all()
}

/// Never through a link, and never blocking: a FIFO put where one of
/// headroom's files was would otherwise hold the session until something
/// reads it (the opened file is then refused by `regular`).
fn no_follow(options: &mut OpenOptions) -> &mut OpenOptions {
    options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
}

/// Only a regular file is headroom's to read or write.
fn regular(file: File, path: &Path) -> std::io::Result<File> {
    if file.metadata()?.is_file() {
        Ok(file)
    } else {
        Err(std::io::Error::other(format!(
            "{} is not a regular file (a FIFO, socket or device sits there); headroom reads and writes only its own files in its data directory",
            path.display()
        )))
    }
}

/// A clearer error than ELOOP when a symlink sits where a file should be.
fn explain(path: &Path, e: std::io::Error) -> std::io::Error {
    if e.raw_os_error() == Some(libc::ELOOP) {
        std::io::Error::other(format!(
            "{} is a symlink; headroom does not write through links in its data directory. Remove it.",
            path.display()
        ))
    } else {
        e
    }
}

/// Open a file for appending, created 0600, never through a symlink; the
/// directory is synced when the file is new.
pub fn open_private_append(path: &Path) -> std::io::Result<File> {
    let existed = std::fs::symlink_metadata(path).is_ok();
    let file = no_follow(OpenOptions::new().create(true).append(true).mode(0o600))
        .open(path)
        .map_err(|e| explain(path, e))?;
    let file = regular(file, path)?;
    // A file of ours someone opened to the group or the world (a copy, a
    // `chmod`) is made private again before anything more goes in it.
    if existed && file.metadata()?.permissions().mode() & 0o077 != 0 {
        file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
    }
    if !existed && let Some(dir) = path.parent() {
        sync_dir(dir)?;
    }
    Ok(file)
}

/// Create or truncate a file for writing, 0600, never through a symlink.
pub fn create_private(path: &Path) -> std::io::Result<File> {
    no_follow(
        OpenOptions::new()
            .create(true)
            .write(true)
            .truncate(true)
            .mode(0o600),
    )
    .open(path)
    .map_err(|e| explain(path, e))
    .and_then(|f| regular(f, path))
}

/// Open a file of the data directory for reading, never through a link.
pub fn open_read_no_follow(path: &Path) -> std::io::Result<File> {
    // Never blocks: a FIFO put where a kept file was would otherwise hold
    // the start until something writes to it. Only a regular file is read.
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .map_err(|e| explain(path, e))?;
    regular(file, path)
}

/// Create a new file, 0600, refusing one that exists (or a link).
pub fn create_new_private(path: &Path) -> std::io::Result<File> {
    no_follow(OpenOptions::new().create_new(true).write(true).mode(0o600))
        .open(path)
        .and_then(|f| regular(f, path))
}

/// Open an existing file of the data directory for writing in place (to
/// cut it back), never through a link or into a FIFO.
pub fn open_write_in_place(path: &Path) -> std::io::Result<File> {
    no_follow(OpenOptions::new().write(true))
        .open(path)
        .map_err(|e| explain(path, e))
        .and_then(|f| regular(f, path))
}

/// Is a symlink sitting at `path`?
pub fn is_symlink(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_file_opened_to_others_is_made_private_again() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("transcript.jsonl");
        std::fs::write(&path, "{}\n").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        drop(open_private_append(&path).unwrap());
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }

    #[test]
    fn an_owner_made_directory_keeps_its_mode() {
        let t = tempfile::tempdir().unwrap();
        let dir = t.path().join("d");
        std::fs::create_dir(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o750)).unwrap();
        ensure_private_dir(&dir).unwrap();
        let mode = std::fs::metadata(&dir).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o750);
    }

    #[test]
    fn a_shared_writable_directory_is_refused_with_why() {
        let t = tempfile::tempdir().unwrap();
        let dir = t.path().join("shared");
        std::fs::create_dir(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o1777)).unwrap();
        let e = ensure_private_dir(&dir).unwrap_err().to_string();
        assert!(e.contains("writable by everyone"), "{e}");
        let mode = std::fs::metadata(&dir).unwrap().permissions().mode() & 0o7777;
        assert_eq!(mode, 0o1777, "the owner's mode was changed");
    }

    #[test]
    fn a_new_directory_is_private() {
        let t = tempfile::tempdir().unwrap();
        let dir = t.path().join("new/nested");
        ensure_private_dir(&dir).unwrap();
        let mode = std::fs::metadata(&dir).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o700);
    }

    #[test]
    fn symlinks_are_never_followed() {
        let t = tempfile::tempdir().unwrap();
        let target = t.path().join("precious");
        std::fs::write(&target, "keep me").unwrap();
        let link = t.path().join("lock");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let e = open_private_append(&link).unwrap_err().to_string();
        assert!(e.contains("is a symlink"), "{e}");
        assert!(create_private(&link).is_err());
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep me");
    }
}
