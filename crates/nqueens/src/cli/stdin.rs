//! No command: read N from standard input and print the count, as the BOJ 9663 judge expects.

use std::io::IsTerminal;

use super::{Done, Failure, Outcome, args, count};

/// Reads one whole number from standard input and prints its count.
pub fn run() -> Outcome {
    if std::io::stdin().is_terminal() {
        csp_cli::errln!("nqueens: reading N from standard input (see nqueens --help for commands)");
    }
    // At most 64 MB (csp_cli::input), so `nqueens < /dev/zero` ends in one line.
    let input = csp_cli::input::read_stdin("standard input")
        .map_err(|e| Failure::Usage(format!("cannot read N: {e}")))?;
    let word = input.trim();
    if word.is_empty() {
        return Err(Failure::Usage(
            "expected N on standard input (a whole number such as 8), got nothing".into(),
        ));
    }
    let n = args::parse_n(word).map_err(|e| {
        Failure::Usage(format!(
            "invalid N '{}' on standard input: {e}",
            csp_cli::input::quote(word)
        ))
    })?;
    let total = count::bitboard(n, None)?;
    csp_cli::try_outln!("{total}")?;
    Ok(Done::Complete)
}
