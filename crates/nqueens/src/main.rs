//! `nqueens`: count, list and trace the solutions of the N-Queens puzzle.
//!
//! A thin front end: it parses the command line, calls the `nqueens` library
//! and prints. See `docs/nqueens-cli.md` for every command.

mod cli;

fn main() -> std::process::ExitCode {
    cli::run()
}
