//! Checkpoints of a long count: which subproblems are finished and their sums, saved atomically so a rerun resumes.
//!
//! A count split into subproblems ([`split::subproblems`](crate::split::subproblems),
//! [`symmetry::subtrees`](crate::symmetry::subtrees), csp-core's
//! `parallel::split`) can record each finished subproblem in a [`Checkpoint`]
//! and [`save`](Checkpoint::save) it now and then. The file is replaced
//! atomically (written to a temporary file in the same folder, flushed to the
//! disk with `fsync`, then renamed over the old one), so a crash or `kill -9`
//! at any moment leaves either the previous checkpoint or the new one, never a
//! mix: a rerun loses at most the subproblems finished since the last save,
//! and never counts one twice.
//!
//! The file is text, one field per line, ending in a checksum of the lines
//! above it:
//!
//! ```text
//! nqueens-checkpoint format=1 program=0.1.0
//! job n=19 part=3/16 method=symmetry
//! subproblems 4012
//! sums 0 17 123456
//! done 0-17,19,22-40
//! checksum 9f0c55e2a4b1d7c3
//! ```
//!
//! `job` names what is counted (the words of a partial-count line before the
//! count); [`Checkpoint::resume`] refuses a file of another job, another
//! format or another program version, whose subproblems might differ, and
//! one that is not a regular file (a FIFO, a device, a folder). It compares
//! the number of subproblems and of sums with the job's before allocating
//! anything for them. A checkpoint path that is a symbolic link is read
//! through the link, and [`Checkpoint::save`] replaces the file it points to.
//!
//! The checksum catches accidents (a file cut short, a damaged disk block, a
//! careless edit); anyone who edits the file on purpose can recompute it.
//! `nqueens count` also checks the sums against what the board can have
//! ([`bounds`](crate::bounds)).
//!
//! ```
//! use nqueens::checkpoint::Checkpoint;
//!
//! let mut c = Checkpoint::new("n=8 part=1/1 method=bitboard", 5, 1);
//! c.record(0, &[40])?;
//! c.record(3, &[12])?;
//! assert_eq!((c.finished(), c.sums()), (2, &[52][..]));
//! let text = c.to_string();
//! assert!(text.contains("\ndone 0,3\n"));
//! assert_eq!(text.parse::<Checkpoint>()?, c);
//! # Ok::<(), nqueens::checkpoint::CheckpointError>(())
//! ```

use std::fmt;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;

use crate::files::OpenError;
use crate::share_key::ShareKey;

mod parse;
use parse::parse;

/// The version of the file layout written by this program.
pub const FORMAT: u32 = 1;

/// The program version recorded in (and required of) a checkpoint.
pub const PROGRAM_VERSION: &str = env!("CARGO_PKG_VERSION");

/// The largest checkpoint file read: far more than any real one (a few
/// bytes per finished subproblem), small enough that a wrong path to a huge
/// file is refused instead of filling the memory (a device such as
/// `/dev/zero` is refused before reading, as not a regular file).
pub const MAX_BYTES: u64 = 64 << 20;

/// The most subproblems a checkpoint read without a job to compare with
/// ([`FromStr`]) may list: its bookkeeping takes a byte per subproblem, so
/// a forged `subproblems 100000000000000` is refused instead of allocated.
/// [`Checkpoint::resume`] compares the number with the job's before
/// allocating anything.
pub const MAX_SUBPROBLEMS: usize = 1 << 28;

/// The first word of a checkpoint file.
const TAG: &str = "nqueens-checkpoint";

/// What went wrong reading, checking or updating a checkpoint.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    /// The file exists but cannot be read.
    #[error("cannot read checkpoint '{path}': {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The file is larger than [`MAX_BYTES`].
    #[error("checkpoint '{path}' is larger than 64 MB: not a checkpoint of this program")]
    TooLarge {
        /// The file.
        path: PathBuf,
    },
    /// The text is not a checkpoint, or was damaged.
    #[error("{}not a valid checkpoint: {reason}", at(path))]
    Malformed {
        /// The file, when read from one.
        path: Option<PathBuf>,
        /// What is wrong.
        reason: String,
    },
    /// A checkpoint of another file layout.
    #[error("checkpoint '{path}' has format {found}; this program reads format {FORMAT}")]
    Format {
        /// The file.
        path: PathBuf,
        /// The format it declares.
        found: String,
    },
    /// A checkpoint written by another version of the program.
    #[error(
        "checkpoint '{path}' was written by nqueens {found}, this is {PROGRAM_VERSION} \
         (finish the count with that version, or delete the file to start over)"
    )]
    Version {
        /// The file.
        path: PathBuf,
        /// The version that wrote it.
        found: String,
    },
    /// A checkpoint of another count.
    #[error(
        "checkpoint '{path}' is for {found}, not {expected} (use another file, or delete it \
         to start over)"
    )]
    Job {
        /// The file.
        path: PathBuf,
        /// The job it records.
        found: String,
        /// The job asked for.
        expected: String,
    },
    /// A checkpoint of the same job with a different number of subproblems.
    #[error("checkpoint '{path}' lists {found} subproblems, this count has {expected}")]
    Subproblems {
        /// The file.
        path: PathBuf,
        /// Subproblems in the file (as written: it may not fit a `usize`).
        found: String,
        /// Subproblems in the count.
        expected: usize,
    },
    /// A checkpoint of the same job keeping another number of sums.
    #[error(
        "checkpoint '{path}' keeps {found} sums per subproblem, this count keeps {expected} \
         (the file was edited)"
    )]
    Width {
        /// The file.
        path: PathBuf,
        /// Sums in the file.
        found: usize,
        /// Sums this count keeps.
        expected: usize,
    },
    /// The file is not a regular file (a FIFO, a device, a folder).
    #[error("checkpoint {0}: a checkpoint must be a file")]
    NotRegular(String),
    /// Sums that cannot be those of the finished subproblems.
    #[error("checkpoint '{path}' cannot be right: {reason} (delete it to start over)")]
    Impossible {
        /// The file.
        path: PathBuf,
        /// What is impossible.
        reason: String,
    },
    /// [`Checkpoint::record`] of a subproblem outside the list, or of the wrong width.
    #[error(
        "subproblem {index} with {values} values does not fit a checkpoint of {subproblems} subproblems and {width} sums"
    )]
    Record {
        /// The subproblem.
        index: usize,
        /// How many values were given.
        values: usize,
        /// Subproblems in the checkpoint.
        subproblems: usize,
        /// Sums per subproblem.
        width: usize,
    },
    /// A sum does not fit in a `u64`.
    #[error("the count overflows u64")]
    Overflow,
}

fn at(path: &Option<PathBuf>) -> String {
    path.as_ref()
        .map(|p| format!("checkpoint '{}' is ", p.display()))
        .unwrap_or_default()
}

/// The finished subproblems of one count and the sums of their results.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checkpoint {
    /// What is counted, such as `n=19 part=3/16 method=symmetry`.
    pub job: String,
    /// The program version that wrote it ([`PROGRAM_VERSION`] for a new one).
    pub version: String,
    done: Vec<bool>,
    finished: usize,
    sums: Vec<u64>,
}

impl Checkpoint {
    /// An empty checkpoint of `subproblems` subproblems whose results are
    /// `width` numbers each (1 for a count; the symmetry counter's classes of
    /// 2, 4 and 8 are 3).
    pub fn new(job: impl Into<String>, subproblems: usize, width: usize) -> Self {
        Checkpoint {
            job: job.into(),
            version: PROGRAM_VERSION.to_string(),
            done: vec![false; subproblems],
            finished: 0,
            sums: vec![0; width],
        }
    }

    /// How many subproblems the count has.
    pub fn subproblems(&self) -> usize {
        self.done.len()
    }

    /// How many are finished.
    pub fn finished(&self) -> usize {
        self.finished
    }

    /// Whether every subproblem is finished.
    pub fn is_complete(&self) -> bool {
        self.finished == self.done.len()
    }

    /// Whether subproblem `index` is finished.
    pub fn is_done(&self, index: usize) -> bool {
        self.done.get(index).copied().unwrap_or(false)
    }

    /// The subproblems not finished yet, in order.
    pub fn pending(&self) -> Vec<usize> {
        (0..self.done.len()).filter(|&i| !self.done[i]).collect()
    }

    /// The sums of the finished subproblems' results.
    pub fn sums(&self) -> &[u64] {
        &self.sums
    }

    /// Records subproblem `index` as finished with `values` (added to the
    /// sums). Recording it again changes nothing.
    pub fn record(&mut self, index: usize, values: &[u64]) -> Result<(), CheckpointError> {
        if index >= self.done.len() || values.len() != self.sums.len() {
            return Err(CheckpointError::Record {
                index,
                values: values.len(),
                subproblems: self.done.len(),
                width: self.sums.len(),
            });
        }
        if self.done[index] {
            return Ok(());
        }
        let mut sums = self.sums.clone();
        for (s, v) in sums.iter_mut().zip(values) {
            *s = s.checked_add(*v).ok_or(CheckpointError::Overflow)?;
        }
        self.sums = sums;
        self.done[index] = true;
        self.finished += 1;
        Ok(())
    }

    /// Reads the checkpoint at `path` if there is one and checks that it
    /// belongs to this program and to `job` with `subproblems` subproblems
    /// and `width` sums (before allocating anything for them); a missing
    /// file gives a new, empty checkpoint. Only a regular file is read (a
    /// symbolic link is followed; a FIFO, device or folder is refused
    /// without blocking), and the temporary files of saves by processes
    /// that no longer run are removed first
    /// ([`files::remove_stale_temps`](crate::files::remove_stale_temps)).
    pub fn resume(
        path: &Path,
        job: &str,
        subproblems: usize,
        width: usize,
    ) -> Result<Checkpoint, CheckpointError> {
        Checkpoint::resume_keyed(path, job, subproblems, width, None)
    }

    /// [`resume`](Checkpoint::resume), and with a `key` the file must end in
    /// the `mac` line of [`save_keyed`](Checkpoint::save_keyed) under that
    /// key; without one, a file with a `mac` line is refused too.
    pub fn resume_keyed(
        path: &Path,
        job: &str,
        subproblems: usize,
        width: usize,
        key: Option<&ShareKey>,
    ) -> Result<Checkpoint, CheckpointError> {
        if let Ok(target) = crate::files::resolve_links(path) {
            crate::files::remove_stale_temps(&target);
        }
        let file = match crate::files::open_regular(path) {
            Ok(file) => file,
            Err(OpenError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Checkpoint::new(job, subproblems, width));
            }
            Err(OpenError::Io(source)) => {
                let path = path.to_path_buf();
                return Err(CheckpointError::Io { path, source });
            }
            Err(e) => return Err(CheckpointError::NotRegular(e.to_string())),
        };
        let io = |source| CheckpointError::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut bytes = Vec::new();
        file.take(MAX_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(io)?;
        if bytes.len() as u64 > MAX_BYTES {
            return Err(CheckpointError::TooLarge {
                path: path.to_path_buf(),
            });
        }
        let malformed = |reason: String| CheckpointError::Malformed {
            path: Some(path.to_path_buf()),
            reason,
        };
        let text = String::from_utf8(bytes).map_err(|_| malformed("not text".into()))?;
        // The header first: a file of another format or version may not parse.
        let header = text.lines().next().unwrap_or("");
        let mut words = header.split_whitespace();
        if words.next() != Some(TAG) {
            return Err(malformed(format!("the first line is not `{TAG} ...`")));
        }
        for word in words {
            let path = path.to_path_buf();
            match word.split_once('=') {
                Some(("format", found)) if found != FORMAT.to_string() => {
                    let found = found.to_string();
                    return Err(CheckpointError::Format { path, found });
                }
                Some(("program", found)) if found != PROGRAM_VERSION => {
                    let found = found.to_string();
                    return Err(CheckpointError::Version { path, found });
                }
                _ => {}
            }
        }
        let mac = text
            .strip_suffix('\n')
            .and_then(|t| t.rfind("\nmac ").map(|i| (&text[..=i], t[i + 5..].trim())));
        let text = match (key, mac) {
            (None, None) => text.as_str(),
            (Some(key), Some((body, hex))) => {
                key.check(body, hex).map_err(|_| {
                    malformed(
                        "the mac line does not match (the file was changed, or saved with another \
                         share key)"
                            .into(),
                    )
                })?;
                body
            }
            (Some(_), None) => {
                return Err(malformed(
                    "no mac line (it was saved without a share key)".into(),
                ));
            }
            (None, Some(_)) => {
                return Err(malformed(
                    "it ends in a mac line (saved with a share key): give that key to resume"
                        .into(),
                ));
            }
        };
        let expect = Expected {
            path,
            job,
            subproblems,
            width,
        };
        parse(text, Some(&expect)).map_err(|e| match e {
            CheckpointError::Malformed { reason, .. } => malformed(reason),
            e => e,
        })
    }

    /// Writes the checkpoint to `path` atomically: to a temporary file in the
    /// same folder, flushed to the disk, then renamed over `path` (and the
    /// folder flushed, where the system allows it).
    ///
    /// When `path` is a symbolic link, the file it points to is replaced (the
    /// temporary file is written beside that file), so the link stays.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        self.save_keyed(path, None)
    }

    /// [`save`](Checkpoint::save), and with a `key` a last line `mac HEX`:
    /// the HMAC-SHA256 of the text above it
    /// ([`ShareKey::tag`](crate::share_key::ShareKey::tag)), which a forger
    /// without the key cannot recompute as they can the checksum.
    pub fn save_keyed(&self, path: &Path, key: Option<&ShareKey>) -> std::io::Result<()> {
        let mut text = self.to_string();
        if let Some(key) = key {
            let tag = key.tag(&text);
            text.push_str(&format!("mac {tag}\n"));
        }
        let path = &crate::files::resolve_links(path)?;
        let temp = crate::files::temp_path(path, std::process::id())?;
        let written = (|| {
            let mut file = std::fs::File::create(&temp)?;
            file.write_all(text.as_bytes())?;
            file.sync_all()?;
            std::fs::rename(&temp, path)
        })();
        if written.is_err() {
            let _ = std::fs::remove_file(&temp);
        }
        written?;
        // The rename is durable once the folder is flushed; not every system
        // lets a folder be opened for that, and the data itself is safe.
        let folder = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        if let Ok(dir) = std::fs::File::open(folder) {
            let _ = dir.sync_all();
        }
        Ok(())
    }
}

/// FNV-1a, 64 bits: enough to notice a damaged or hand-edited file.
fn checksum(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

impl fmt::Display for Checkpoint {
    /// The file's text, checksum line included.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut body = format!(
            "{TAG} format={FORMAT} program={}\njob {}\nsubproblems {}\nsums",
            self.version,
            self.job,
            self.done.len()
        );
        for s in &self.sums {
            body.push_str(&format!(" {s}"));
        }
        body.push_str("\ndone ");
        let mut ranges = Vec::new();
        let mut i = 0;
        while i < self.done.len() {
            if !self.done[i] {
                i += 1;
                continue;
            }
            let start = i;
            while i < self.done.len() && self.done[i] {
                i += 1;
            }
            ranges.push(if i - 1 == start {
                start.to_string()
            } else {
                format!("{start}-{}", i - 1)
            });
        }
        body.push_str(&ranges.join(","));
        body.push('\n');
        writeln!(f, "{body}checksum {:016x}", checksum(&body))
    }
}

impl FromStr for Checkpoint {
    type Err = CheckpointError;

    /// Parses the text of [`Display`](fmt::Display), checksum first. More
    /// than [`MAX_SUBPROBLEMS`] subproblems, or sums with no subproblem
    /// finished, are refused.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        parse(text, None)
    }
}

/// What [`Checkpoint::resume`] expects of the file it reads.
struct Expected<'a> {
    path: &'a Path,
    job: &'a str,
    subproblems: usize,
    width: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("nqueens-ckpt-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn text_round_trips_with_ranges_of_finished_subproblems() {
        let mut c = Checkpoint::new("n=9 part=2/4 method=symmetry", 10, 3);
        for i in [0, 1, 2, 5, 7, 8, 9] {
            c.record(i, &[1, 2, 3]).unwrap();
        }
        c.record(5, &[100, 100, 100]).unwrap(); // again: no change
        let text = c.to_string();
        assert!(text.starts_with(&format!(
            "nqueens-checkpoint format=1 program={PROGRAM_VERSION}\njob n=9 part=2/4 method=symmetry\nsubproblems 10\nsums 7 14 21\ndone 0-2,5,7-9\nchecksum "
        )));
        let back: Checkpoint = text.parse().unwrap();
        assert_eq!(back, c);
        assert_eq!(back.pending(), [3, 4, 6]);
        assert!(!back.is_complete());
    }

    #[test]
    fn damaged_or_cut_text_is_refused() {
        let mut c = Checkpoint::new("n=8 part=1/1 method=bitboard", 4, 1);
        c.record(2, &[10]).unwrap();
        let text = c.to_string();
        let edited = text.replace("sums 10", "sums 11");
        let cut = &text[..text.len() / 2];
        for (bad, why) in [
            (
                edited.as_str(),
                "the checksum does not match (the file was damaged or edited)",
            ),
            (cut, "no checksum line (the file was cut short)"),
            ("", "no checksum line (the file was cut short)"),
        ] {
            match bad.parse::<Checkpoint>() {
                Err(CheckpointError::Malformed { reason, .. }) => assert_eq!(reason, why),
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn records_outside_the_list_or_overflowing_are_errors() {
        let mut c = Checkpoint::new("j", 2, 1);
        assert!(matches!(
            c.record(2, &[1]),
            Err(CheckpointError::Record { .. })
        ));
        assert!(matches!(
            c.record(0, &[1, 2]),
            Err(CheckpointError::Record { .. })
        ));
        c.record(0, &[u64::MAX]).unwrap();
        assert!(matches!(c.record(1, &[1]), Err(CheckpointError::Overflow)));
        assert_eq!(c.finished(), 1);
    }

    #[test]
    fn save_replaces_the_file_and_resume_checks_the_job() {
        let dir = temp_dir("resume");
        let path = dir.join("c.txt");
        let job = "n=10 part=1/1 method=bitboard";
        let mut c = Checkpoint::resume(&path, job, 3, 1).unwrap();
        assert_eq!(c.finished(), 0);
        c.record(1, &[5]).unwrap();
        c.save(&path).unwrap();
        c.record(2, &[6]).unwrap();
        c.save(&path).unwrap();
        assert_eq!(Checkpoint::resume(&path, job, 3, 1).unwrap(), c);
        // Nothing but the checkpoint is left in the folder.
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        let other = "n=11 part=1/1 method=bitboard";
        assert_eq!(
            Checkpoint::resume(&path, other, 3, 1)
                .unwrap_err()
                .to_string(),
            format!(
                "checkpoint '{}' is for {job}, not {other} (use another file, or delete it to start over)",
                path.display()
            )
        );
        assert!(matches!(
            Checkpoint::resume(&path, job, 4, 1),
            Err(CheckpointError::Subproblems { expected: 4, .. })
        ));
        c.version = "0.0.1".into();
        c.save(&path).unwrap();
        assert!(matches!(
            Checkpoint::resume(&path, job, 3, 1),
            Err(CheckpointError::Version { .. })
        ));
        std::fs::write(&path, "nqueens-checkpoint format=2 program=9\n").unwrap();
        assert_eq!(
            Checkpoint::resume(&path, job, 3, 1)
                .unwrap_err()
                .to_string(),
            format!(
                "checkpoint '{}' has format 2; this program reads format 1",
                path.display()
            )
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
