//! Opening checkpoints and share files safely: regular files only, symbolic links followed to their target, stale temporary files removed.
//!
//! A checkpoint or a file of share lines is data the program trusts only
//! after checking it, so it must be an ordinary file: a FIFO would block
//! the reader forever, a device (`/dev/zero`) never ends, a folder is a
//! mistake. [`open_regular`] opens without blocking (with `O_NONBLOCK` on
//! Unix, so a FIFO without a writer does not hang the open) and then asks
//! the opened file what it is, so nothing can be swapped in between.
//!
//! ```
//! use nqueens::files::{open_regular, OpenError};
//!
//! if cfg!(unix) {
//!     let dir = std::env::temp_dir();
//!     assert!(matches!(open_regular(&dir), Err(OpenError::NotRegular { kind: "a directory", .. })));
//! }
//! ```

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

/// Why a file could not be opened as a regular file.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The system refused to open it (missing, no permission, ...).
    #[error("{0}")]
    Io(#[from] io::Error),
    /// It exists but is not a regular file.
    #[error("'{}' is {kind}, not a regular file", path.display())]
    NotRegular {
        /// The path given.
        path: PathBuf,
        /// What it is: `a FIFO`, `a directory`, `a device`, `a socket`.
        kind: &'static str,
    },
}

/// What a file that is not regular is, in words.
fn kind(meta: &std::fs::Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    "not a regular file"
}

/// Opens `path` for reading if it is a regular file (symbolic links are
/// followed); a FIFO, device, socket or folder is refused without blocking.
pub fn open_regular(path: &Path) -> Result<File, OpenError> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(OpenError::NotRegular {
            path: path.to_path_buf(),
            kind: kind(&meta),
        });
    }
    Ok(file)
}

/// The most symbolic links followed in a row (Linux's own limit).
const MAX_LINKS: usize = 40;

/// The file a write to `path` must replace: `path` itself, or, when it is a
/// symbolic link, the file it points to (followed link by link; the target
/// need not exist yet). A loop of links is an error.
pub fn resolve_links(path: &Path) -> io::Result<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let target = std::fs::read_link(&current)?;
                current = match current.parent() {
                    Some(parent) if target.is_relative() => parent.join(target),
                    _ => target,
                };
            }
            _ => return Ok(current),
        }
    }
    Err(io::Error::other(format!(
        "more than {MAX_LINKS} symbolic links in a row (a loop?)"
    )))
}

/// The temporary file a save of `path` by process `pid` writes: `.NAME.tmp-PID` beside it.
pub fn temp_path(path: &Path, pid: u32) -> io::Result<PathBuf> {
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?;
    let mut temp_name = std::ffi::OsString::from(".");
    temp_name.push(name);
    temp_name.push(format!(".tmp-{pid}"));
    Ok(path.with_file_name(temp_name))
}

/// Removes the temporary files `.NAME.tmp-PID` beside `path` left by
/// processes that no longer run on this machine (a `kill -9` during a save),
/// and returns how many. It knows which processes run from `/proc`; where
/// there is no `/proc` it removes nothing. A temporary file of a process on
/// another machine sharing the folder looks stale here, so two counts must
/// not share one checkpoint.
pub fn remove_stale_temps(path: &Path) -> usize {
    let proc = Path::new("/proc");
    if !proc.join("self").exists() {
        return 0;
    }
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return 0;
    };
    let prefix = format!(".{name}.tmp-");
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let Ok(entries) = std::fs::read_dir(folder) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(pid) = file_name
            .to_str()
            .and_then(|n| n.strip_prefix(&prefix))
            .filter(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        if pid == std::process::id() || proc.join(pid.to_string()).exists() {
            continue;
        }
        if std::fs::remove_file(entry.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("nqueens-files-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_without_blocking() {
        let dir = temp_dir("fifo");
        let fifo = dir.join("f");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let started = std::time::Instant::now();
        let e = open_regular(&fifo).unwrap_err();
        assert!(started.elapsed() < std::time::Duration::from_secs(2));
        assert_eq!(
            e.to_string(),
            format!("'{}' is a FIFO, not a regular file", fifo.display())
        );
        let e = open_regular(Path::new("/dev/null")).unwrap_err();
        assert_eq!(e.to_string(), "'/dev/null' is a device, not a regular file");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn links_are_followed_to_a_target_that_may_not_exist_yet() {
        let dir = temp_dir("links");
        let target = dir.join("real.ckpt");
        std::os::unix::fs::symlink("real.ckpt", dir.join("b")).unwrap();
        std::os::unix::fs::symlink(dir.join("b"), dir.join("a")).unwrap();
        assert_eq!(resolve_links(&dir.join("a")).unwrap(), target);
        assert_eq!(resolve_links(&target).unwrap(), target);
        std::os::unix::fs::symlink("loop", dir.join("loop")).unwrap();
        assert!(resolve_links(&dir.join("loop")).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn only_temporary_files_of_dead_processes_are_removed() {
        if !Path::new("/proc/self").exists() {
            return;
        }
        let dir = temp_dir("stale");
        let path = dir.join("q.ckpt");
        // No process has number 4194304 or more on Linux (pid_max's ceiling).
        let dead = temp_path(&path, 4_194_305).unwrap();
        let alive = temp_path(&path, std::process::id()).unwrap();
        let other = dir.join(".other.ckpt.tmp-4194305");
        for f in [&dead, &alive, &other] {
            std::fs::write(f, "x").unwrap();
        }
        assert_eq!(remove_stale_temps(&path), 1);
        assert!(!dead.exists() && alive.exists() && other.exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
