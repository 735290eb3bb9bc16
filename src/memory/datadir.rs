//! Where headroom keeps its files, created private to the owner.

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

/// Create the directory (0700) or tighten an existing one to 0700.
pub fn ensure_private_dir(dir: &Path) -> std::io::Result<()> {
    DirBuilder::new().recursive(true).mode(0o700).create(dir)?;
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
}

/// Open a file for appending, created 0600.
pub fn open_private_append(path: &Path) -> std::io::Result<File> {
    OpenOptions::new()
        .create(true)
        .append(true)
        .mode(0o600)
        .open(path)
}

/// Create or truncate a file for writing, 0600.
pub fn create_private(path: &Path) -> std::io::Result<File> {
    OpenOptions::new()
        .create(true)
        .write(true)
        .truncate(true)
        .mode(0o600)
        .open(path)
}
