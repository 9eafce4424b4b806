//! `nqueens merge FILES...`: sum the partial-count lines of `count --part I/K`, checking every share is there once.

use std::io::Read;
use std::path::PathBuf;

use nqueens::split::{self, PartialCount};

use super::{Done, Failure, Outcome};

/// The most read from one file or standard input: a partial-count line is
/// under 200 bytes, so this holds hundreds of thousands of shares, and a
/// wrong path such as `/dev/zero` is refused instead of filling the memory.
const MAX_BYTES: u64 = 64 << 20;

/// Sum partial-count lines (`nqueens-partial n=16 part=3/8 method=bitboard count=123456`).
///
/// Prints the total as a bare number (for symmetry shares, `T solutions, U
/// unique up to rotation and reflection`), after checking that all K shares
/// of the same N and method are present exactly once.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Files of partial-count lines; `-` reads standard input. Blank lines are skipped.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
}

/// Runs `nqueens merge`.
pub fn run(a: Args) -> Outcome {
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
            let file = std::fs::File::open(path)
                .map_err(|e| Failure::Other(format!("cannot read {name}: {e}")))?;
            let text = read_capped(file, &name)?;
            (name, text)
        };
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let share: PartialCount = line
                .parse()
                .map_err(|e| Failure::Usage(format!("{name} line {}: {e}", i + 1)))?;
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
