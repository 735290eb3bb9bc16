//! Reading the owner's files and stdin with a limit: a device, a directory
//! or an endless stream gets a clear error in bounded time and memory,
//! never a hang.

use std::fs::File;
use std::io::Read;
use std::os::unix::fs::FileTypeExt;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

/// Upper bounds per kind of input, in bytes.
pub const MEMORY_PASTE: u64 = 1024 * 1024;
pub const CONFIG_JSON: u64 = 4 * 1024 * 1024;
pub const PROCESS_LISTING: u64 = 16 * 1024 * 1024;
pub const THERMAL_CSV: u64 = 8 * 1024 * 1024 * 1024;
pub const TRAIN_LOG: u64 = 16 * 1024 * 1024 * 1024;

/// A reader that fails once more than `limit` bytes came through.
#[derive(Debug)]
pub struct Limited<R> {
    inner: R,
    left: u64,
    limit: u64,
    progress: Option<Progress>,
}

/// A progress line on stderr for a read that lasts: drawn only once a file
/// has taken more than a second, only on a terminal (indicatif hides it
/// elsewhere), and cleared when the read ends.
#[derive(Debug)]
struct Progress {
    started: std::time::Instant,
    size: u64,
    name: String,
    bar: Option<indicatif::ProgressBar>,
}

impl Progress {
    fn advance(&mut self, done: u64) {
        if self.bar.is_none() && self.started.elapsed() >= std::time::Duration::from_secs(1) {
            let bar = indicatif::ProgressBar::with_draw_target(
                Some(self.size),
                indicatif::ProgressDrawTarget::stderr(),
            );
            if let Ok(style) = indicatif::ProgressStyle::with_template(
                "reading {msg} {bar:30} {bytes}/{total_bytes} ({eta} left)",
            ) {
                bar.set_style(style);
            }
            bar.set_message(self.name.clone());
            self.bar = Some(bar);
        }
        if let Some(bar) = &self.bar {
            bar.set_position(done);
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl<R: Read> Read for Limited<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n as u64 > self.left {
            return Err(std::io::Error::other(format!(
                "it is larger than {}, more than this kind of input ever is",
                human(self.limit)
            )));
        }
        self.left -= n as u64;
        let done = self.limit - self.left;
        if let Some(p) = &mut self.progress {
            p.advance(done);
        }
        Ok(n)
    }
}

fn human(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 30 => format!("{} GiB", b >> 30),
        b if b >= 1 << 20 => format!("{} MiB", b >> 20),
        b => format!("{b} bytes"),
    }
}

pub fn limited<R: Read>(inner: R, limit: u64) -> Limited<R> {
    Limited {
        inner,
        left: limit,
        limit,
        progress: None,
    }
}

/// Open a file to read, refusing at once what is not a regular file by its
/// type: a directory, a device such as /dev/zero, a socket, a FIFO (a read
/// from one would wait for a writer forever). A pipe's data is read with
/// `-` (stdin). The open itself never blocks (O_NONBLOCK), and the type is
/// checked again on the open file, so a swap between the two is caught.
pub fn open(path: &Path, limit: u64) -> Result<Limited<File>, String> {
    let meta = std::fs::metadata(path).map_err(io_reason)?;
    if let Some(why) = not_a_file(meta.file_type()) {
        return Err(why);
    }
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .map_err(io_reason)?;
    let kind = file.metadata().map_err(|e| e.to_string())?.file_type();
    if let Some(why) = not_a_file(kind) {
        return Err(why);
    }
    open_checked(file, kind, path, limit)
}

/// [`open`], or stdin for `-` (a pipe's data: `… | headroom thermal -`).
pub fn open_or_stdin(path: &Path, limit: u64) -> Result<Limited<Box<dyn Read + Send>>, String> {
    if path.as_os_str() == "-" {
        return Ok(limited(Box::new(std::io::stdin()), limit));
    }
    let Limited {
        inner,
        left,
        limit,
        progress,
    } = open(path, limit)?;
    Ok(Limited {
        inner: Box::new(inner),
        left,
        limit,
        progress,
    })
}

/// Write `bytes` to a file headroom makes (a chart, an export), refusing a
/// path that exists and is not a regular file: a write-open of a FIFO waits
/// for a reader forever, and a device or directory is never a chart. The
/// open never blocks (O_NONBLOCK) and the type is checked again after it.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), String> {
    use std::io::Write;
    let refuse = |kind: std::fs::FileType| -> Option<String> {
        if kind.is_fifo() {
            return Some(
                "it is a FIFO (named pipe), not a file: writing to it would wait for a reader; give the name of a file to create".into(),
            );
        }
        not_a_file(kind).map(|why| {
            format!(
                "{}; give the name of a file to create",
                why.split(':').next().unwrap_or(&why)
            )
        })
    };
    if let Ok(meta) = std::fs::symlink_metadata(path)
        && let Some(why) =
            refuse(std::fs::metadata(path).map_or(meta.file_type(), |m| m.file_type()))
    {
        return Err(why);
    }
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .map_err(io_reason)?;
    if let Some(why) = refuse(file.metadata().map_err(|e| e.to_string())?.file_type()) {
        return Err(why);
    }
    file.set_len(0).map_err(|e| e.to_string())?;
    file.write_all(bytes).map_err(|e| e.to_string())
}

/// Why a file type is not a regular file, in the owner's terms.
pub fn not_a_file(kind: std::fs::FileType) -> Option<String> {
    if kind.is_dir() {
        Some("it is a directory, not a file".into())
    } else if kind.is_fifo() {
        Some("it is a FIFO (named pipe), not a file: reading it would wait for a writer; save the output to a file, or pipe it in with `-`".into())
    } else if kind.is_char_device() || kind.is_block_device() {
        Some("it is a device (like /dev/zero), not a file: give the path of a file saved on disk, or pipe the output in with `-`".into())
    } else if kind.is_socket() {
        Some("it is a socket, not a file: save what it serves to a file and give that path, or pipe it in with `-`".into())
    } else if !kind.is_file() {
        Some("it is not a regular file".into())
    } else {
        None
    }
}

fn io_reason(e: std::io::Error) -> String {
    match e.kind() {
        _ if e.raw_os_error() == Some(libc::ELOOP) => {
            "it is a symbolic link that loops back on itself (or links too deep): give the file it should point to".to_string()
        }
        std::io::ErrorKind::NotFound => "no such file".to_string(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        _ => e.to_string(),
    }
}

fn open_checked(
    file: File,
    kind: std::fs::FileType,
    path: &Path,
    limit: u64,
) -> Result<Limited<File>, String> {
    let size = file.metadata().map(|m| m.len()).unwrap_or(0);
    // A file over the limit is refused by its size, before any of it is
    // read (a sparse 9 GiB file reads fast but still takes minutes).
    if kind.is_file() && size > limit {
        return Err(format!(
            "it is {}, over the {} headroom reads: give a shorter excerpt (the hours around the slowdown)",
            human(size),
            human(limit)
        ));
    }
    let mut reader = limited(file, limit);
    // Small files never last a second; only big regular files get a line.
    if kind.is_file() && size >= PROGRESS_FROM {
        reader.progress = Some(Progress {
            started: std::time::Instant::now(),
            size,
            name: crate::render::terminal::sanitize(
                &path
                    .file_name()
                    .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
            ),
            bar: None,
        });
    }
    Ok(reader)
}

/// Files smaller than this read in well under a second.
const PROGRESS_FROM: u64 = 64 * 1024 * 1024;

/// A whole file (or `-` for stdin) as text, bounded; bytes that are not
/// UTF-8 are replaced rather than refused.
pub fn read_text(path: &Path, limit: u64) -> Result<String, String> {
    let mut bytes = Vec::new();
    if path.as_os_str() == "-" {
        limited(std::io::stdin().lock(), limit)
            .read_to_end(&mut bytes)
            .map_err(|e| format!("stdin: {e}"))?;
    } else {
        open(path, limit)?
            .read_to_end(&mut bytes)
            .map_err(|e| e.to_string())?;
    }
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_progress_line_waits_a_second_and_then_follows_the_read() {
        let mut p = Progress {
            started: std::time::Instant::now(),
            size: 100,
            name: "train.log".into(),
            bar: None,
        };
        p.advance(10);
        assert!(p.bar.is_none(), "drawn before a second had passed");
        p.started -= std::time::Duration::from_secs(2);
        p.advance(40);
        assert_eq!(p.bar.as_ref().map(|b| b.position()), Some(40));
    }

    #[test]
    fn devices_and_directories_are_refused_at_once() {
        assert!(
            open(Path::new("/dev/zero"), 10)
                .unwrap_err()
                .contains("device")
        );
        assert!(open(Path::new("/"), 10).unwrap_err().contains("directory"));
    }

    #[test]
    fn a_fifo_is_refused_without_waiting_for_a_writer() {
        let t = tempfile::tempdir().unwrap();
        let fifo = t.path().join("samples.csv");
        let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path; mkfifo only creates a node.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let started = std::time::Instant::now();
        let e = open(&fifo, 10).unwrap_err();
        assert!(e.contains("FIFO"), "{e}");
        assert!(started.elapsed() < std::time::Duration::from_secs(1));
    }

    #[test]
    fn a_file_over_its_limit_is_an_error_not_a_hang() {
        let t = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(t.path(), vec![b'a'; 5000]).unwrap();
        // Refused by its size before a byte is read.
        let e = read_text(t.path(), 1000).unwrap_err();
        assert!(e.contains("over the 1000 bytes headroom reads"), "{e}");
        // A stream has no size: the limit stops it as it reads.
        let mut long = limited(&[b'a'; 5000][..], 1000);
        let e = std::io::Read::read_to_end(&mut long, &mut Vec::new()).unwrap_err();
        assert!(e.to_string().contains("larger than 1000 bytes"), "{e}");
        assert_eq!(read_text(t.path(), 5000).unwrap().len(), 5000);
    }

    #[test]
    fn a_chart_is_never_written_into_a_fifo_device_or_directory() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("chart.svg");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let started = std::time::Instant::now();
        let why = write_file(&fifo, b"<svg/>").unwrap_err();
        assert!(
            why.contains("FIFO") && why.contains("wait for a reader"),
            "{why}"
        );
        assert!(started.elapsed() < std::time::Duration::from_secs(2));
        assert!(
            write_file(dir.path(), b"x")
                .unwrap_err()
                .contains("directory")
        );
        assert!(
            write_file(Path::new("/dev/null"), b"x")
                .unwrap_err()
                .contains("device")
        );
        let plain = dir.path().join("ok.svg");
        std::fs::write(&plain, "old, longer content").unwrap();
        write_file(&plain, b"<svg/>").unwrap();
        assert_eq!(std::fs::read(&plain).unwrap(), b"<svg/>");
    }
}
