//! No command: read N from standard input and print the count, as the BOJ 9663 judge expects.

use std::io::{IsTerminal, Read};

use super::{Done, Failure, Outcome, args, count};

/// Reads one whole number from standard input and prints its count.
pub fn run() -> Outcome {
    let mut input = String::new();
    let mut stdin = std::io::stdin();
    if stdin.is_terminal() {
        eprintln!("nqueens: reading N from standard input (see nqueens --help for commands)");
    }
    stdin
        .read_to_string(&mut input)
        .map_err(|e| Failure::Usage(format!("cannot read N from standard input: {e}")))?;
    let word = input.trim();
    if word.is_empty() {
        return Err(Failure::Usage(
            "expected N on standard input (a whole number such as 8), got nothing".into(),
        ));
    }
    let n = args::parse_n(word)
        .map_err(|e| Failure::Usage(format!("invalid N '{word}' on standard input: {e}")))?;
    let total = count::bitboard(n, None)?;
    println!("{total}");
    Ok(Done::Complete)
}
