//! `nqueens merge FILES...`: sum the partial-count lines of `count --part I/K`, checking every share is there once.

use std::io::Read;
use std::path::PathBuf;

use nqueens::files::{OpenError, open_regular};
use nqueens::share_key::{self, ShareKey};
use nqueens::split::{self, PartialCount};

use super::{Done, Failure, Outcome};

/// The most read from one file or standard input: a partial-count line is
/// under 300 bytes, so this holds hundreds of thousands of shares, and
/// standard input that never ends (`< /dev/zero`) is refused instead of
/// filling the memory. Files must be regular files.
const MAX_BYTES: u64 = 64 << 20;

/// Sum partial-count lines (`nqueens-partial n=16 part=3/8 method=bitboard count=123456 format=2 program=V`).
///
/// Prints the total as a bare number (for symmetry shares, `T solutions, U
/// unique up to rotation and reflection`), after checking that all K shares
/// of the same N, method and program version are present exactly once and
/// that their counts are possible.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Files of partial-count lines; `-` reads standard input. Blank lines are
    /// skipped. Only regular files are read (a FIFO, device or folder is refused).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Check every line's `mac=` (written by `count --share-key`) with the key
    /// in SOURCE: a file holding the key, or `env:NAME` for the environment
    /// variable NAME. A line without a right `mac=` is refused.
    #[arg(long, value_name = "SOURCE")]
    share_key: Option<String>,
}

/// Runs `nqueens merge`.
pub fn run(a: Args) -> Outcome {
    let key = match &a.share_key {
        Some(source) => Some(ShareKey::load(source).map_err(Failure::Usage)?),
        None => None,
    };
    let mut shares = Vec::new();
    let mut read_stdin = false;
    for path in &a.files {
        let (name, text) = if path.as_os_str() == "-" {
            if std::mem::replace(&mut read_stdin, true) {
                return Err(Failure::Usage(
                    "standard input (-) given more than once".into(),
                ));
            }
            let name = "standard input".to_string();
            let text = read_capped(std::io::stdin().lock(), &name)?;
            (name, text)
        } else {
            let name = format!("'{}'", path.display());
            let file = open_regular(path).map_err(|e| match e {
                OpenError::Io(e) => Failure::Other(format!("cannot read {name}: {e}")),
                e => Failure::Usage(format!(
                    "{e}: merge reads files of partial-count lines (use - for a pipe)"
                )),
            })?;
            let text = read_capped(file, &name)?;
            (name, text)
        };
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let at = |e: String| Failure::Usage(format!("{name} line {}: {e}", i + 1));
            let line = match &key {
                Some(key) => key.verify(line).map_err(at)?,
                None if share_key::is_signed(line) => {
                    return Err(at(
                        "the line is signed (mac=); give --share-key to check it".into(),
                    ));
                }
                None => line,
            };
            let share: PartialCount = line.parse().map_err(|e| at(format!("{e}")))?;
            shares.push(share);
        }
    }
    let merged = split::merge(&shares).map_err(|e| Failure::Usage(e.to_string()))?;
    match merged.unique {
        Some(unique) => csp_cli::try_outln!(
            "{} solutions, {unique} unique up to rotation and reflection",
            merged.total
        )?,
        None => csp_cli::try_outln!("{}", merged.total)?,
    }
    Ok(Done::Complete)
}

/// Reads at most [`MAX_BYTES`] of text: an I/O error is status 1, too much
/// or a file that is not text is bad input (status 2).
fn read_capped(source: impl Read, name: &str) -> Result<String, Failure> {
    let mut bytes = Vec::new();
    source
        .take(MAX_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Failure::Other(format!("cannot read {name}: {e}")))?;
    if bytes.len() as u64 > MAX_BYTES {
        return Err(Failure::Usage(format!(
            "{name} is larger than 64 MB: not a file of partial-count lines"
        )));
    }
    String::from_utf8(bytes).map_err(|_| {
        Failure::Usage(format!(
            "{name} is not text: not a file of partial-count lines"
        ))
    })
}
