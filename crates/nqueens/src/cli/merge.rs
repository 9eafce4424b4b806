//! `nqueens merge FILES...`: sum the partial-count lines of `count --part I/K`, checking every share is there once.

use std::io::Read;
use std::path::PathBuf;

use nqueens::split::{self, PartialCount};

use super::{Done, Failure, Outcome};

/// Sum partial-count lines (`nqueens-partial n=16 part=3/8 count=123456`).
///
/// Prints the total as a bare number, after checking that all K shares of
/// the same N are present exactly once.
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
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .map_err(|e| Failure::Usage(format!("cannot read standard input: {e}")))?;
            ("standard input".to_string(), text)
        } else {
            let text = std::fs::read_to_string(path)
                .map_err(|e| Failure::Usage(format!("cannot read '{}': {e}", path.display())))?;
            (format!("'{}'", path.display()), text)
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
    let total = split::merge(&shares).map_err(|e| Failure::Usage(e.to_string()))?;
    csp_cli::try_outln!("{total}")?;
    Ok(Done::Complete)
}
