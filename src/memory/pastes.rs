//! Large pastes kept once, by content, beside the transcript: the
//! transcript names them, so it stays small and every start stays fast.

use crate::memory::datadir::{
    create_new_private, ensure_private_dir, open_read_no_follow, sync_dir,
};
use std::io::{Read, Write};
use std::path::Path;

/// Pastes above this are kept in `pastes/` rather than inline.
pub const BY_REFERENCE_ABOVE: usize = 64 * 1024;
/// The largest paste file read back.
pub const MAX_PASTE_BYTES: u64 = 64 * 1024 * 1024;

/// FNV-1a, 64 bits: a stable content name (Rust's own hasher may change
/// between releases, and these names outlive the binary).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Keep `text` in `dir/pastes/` and return its name; the same paste twice
/// is stored once. It is written under a temporary name, synced, then
/// renamed, so a full disk never leaves a short file under the real name;
/// a kept file whose size is not the paste's (the name carries it) is
/// written again.
pub fn store(dir: &Path, text: &str) -> std::io::Result<String> {
    let name = format!("{:016x}-{}.txt", fnv1a(text.as_bytes()), text.len());
    let pastes = dir.join("pastes");
    ensure_private_dir(&pastes)?;
    let path = pastes.join(&name);
    if std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_file() && m.len() == text.len() as u64) {
        return Ok(name);
    }
    let temporary = pastes.join(format!(".{name}.{}.tmp", std::process::id()));
    let _ = std::fs::remove_file(&temporary);
    let written = create_new_private(&temporary).and_then(|mut f| {
        f.write_all(text.as_bytes())?;
        f.sync_all()
    });
    if let Err(e) = written.and_then(|()| std::fs::rename(&temporary, &path)) {
        let _ = std::fs::remove_file(&temporary);
        return Err(e);
    }
    sync_dir(&pastes)?;
    Ok(name)
}

/// Read a kept paste back (bounded; the name must be one `store` made).
pub fn read(dir: &Path, name: &str) -> std::io::Result<String> {
    if name.contains(['/', '\\']) || name.starts_with('.') {
        return Err(std::io::Error::other("not a paste name"));
    }
    let mut bytes = Vec::new();
    open_read_no_follow(&dir.join("pastes").join(name))?
        .take(MAX_PASTE_BYTES)
        .read_to_end(&mut bytes)?;
    // The name ends in the paste's length: a file of another size is not
    // the paste (cut short by a full disk, or edited) and is not used.
    let want = name
        .trim_end_matches(".txt")
        .rsplit('-')
        .next()
        .and_then(|n| n.parse::<usize>().ok());
    if want.is_some_and(|n| n != bytes.len()) {
        return Err(std::io::Error::other(format!(
            "its kept copy (pastes/{name}) is {} bytes, not the {} it was: cut short or edited",
            bytes.len(),
            want.unwrap_or(0)
        )));
    }
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_paste_is_stored_once_and_read_back() {
        let t = tempfile::tempdir().unwrap();
        let text = "x".repeat(100_000);
        let a = store(t.path(), &text).unwrap();
        let b = store(t.path(), &text).unwrap();
        assert_eq!(a, b);
        assert_eq!(read(t.path(), &a).unwrap(), text);
        assert!(read(t.path(), "../transcript.jsonl").is_err());
    }

    #[test]
    fn a_fifo_in_place_of_a_kept_paste_is_refused_without_waiting() {
        let t = tempfile::tempdir().unwrap();
        let text = "z".repeat(70_000);
        let name = store(t.path(), &text).unwrap();
        let path = t.path().join("pastes").join(&name);
        std::fs::remove_file(&path).unwrap();
        let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path; mkfifo only creates a node.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        // No writer ever opens it: a blocking open would never return.
        let why = read(t.path(), &name).unwrap_err().to_string();
        assert!(why.contains("not a regular file"), "{why}");
    }

    #[test]
    fn a_short_kept_paste_is_refused_on_read_and_rewritten_on_store() {
        let t = tempfile::tempdir().unwrap();
        let text = "y".repeat(70_000);
        let name = store(t.path(), &text).unwrap();
        let path = t.path().join("pastes").join(&name);
        std::fs::write(&path, &text[..1000]).unwrap();
        assert!(
            read(t.path(), &name)
                .unwrap_err()
                .to_string()
                .contains("not the 70000")
        );
        assert_eq!(store(t.path(), &text).unwrap(), name);
        assert_eq!(read(t.path(), &name).unwrap(), text);
    }
}
