//! The command line: the subcommand list, dispatch, and how results become exit statuses.
//!
//! Adding a subcommand takes three lines here: `mod name;`, a variant of
//! [`Command`], and its arm in [`run`]. The module provides `Args` (clap) and
//! `run(Args) -> Outcome`.

mod args;
mod compare;
mod count;
mod diff;
mod explore;
mod merge;
mod progress;
mod runner;
mod shares;
mod solve;
mod stdin;
mod trace;
mod tree;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Count, list and trace the solutions of the N-Queens puzzle.
#[derive(Parser, Debug)]
#[command(
    name = "nqueens",
    version,
    about = "Count, list and trace the solutions of the N-Queens puzzle.",
    long_about = "Count, list and trace the solutions of the N-Queens puzzle: place N queens on an \
N x N board so that none attacks another.\n\n\
Without a command, reads N from standard input and prints the number of solutions, the input \
and output of BOJ 9663 (`echo 8 | nqueens` prints 92).\n\n\
N = 0 is the empty board: it has one solution, the empty placement (OEIS A000170, a(0) = 1).",
    after_help = "Exit status: 0 done (also when the reader of the output goes away); 1 stopped \
early by --node-limit, --time-limit, Ctrl-C or SIGTERM (the output is partial and says so), a \
comparison whose strategies disagree (compare's self-check), a diff that cannot tell past a cut \
trace, or an I/O error; 2 bad input.\n\n\
Examples:\n  echo 8 | nqueens\n  nqueens count 12\n  nqueens solve 8 --format board\n  \
nqueens solve 6 --all --format positions\n  nqueens trace 4 --pruning fc"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print the number of solutions (fast bitboard counter by default).
    Count(count::Args),
    /// Print solutions: the first one, the first K, or all.
    Solve(solve::Args),
    /// Print the search trace: every value tried, pruned, accepted or rejected.
    Trace(trace::Args),
    /// Sum the partial-count lines written by `count --part I/K`.
    Merge(merge::Args),
    /// Compare strategies on several sizes (verified table or SVG chart).
    Compare(compare::Args),
    /// Draw the state-space tree: SVG with miniature boards, DOT or JSON Lines.
    Tree(tree::Args),
    /// Where two strategies' searches part ways, and the nodes each explores below.
    Diff(diff::Args),
    /// Write a page that replays the searches step by step in a browser.
    Explore(explore::Args),
}

/// How a command ended, when it did not fail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Done {
    /// Everything asked for was printed.
    Complete,
    /// A limit or Ctrl-C stopped the search; the output says it is partial.
    Incomplete,
}

/// Why a command failed.
#[derive(Debug)]
pub enum Failure {
    /// Bad input: one line on standard error, exit status 2.
    Usage(String),
    /// Anything else (I/O, an internal error): one line, exit status 1.
    Other(String),
    /// The reader of standard output went away (`| head`): no message,
    /// exit status 0 ([`csp_cli::output`]).
    ReaderGone,
}

/// What every subcommand's `run` returns.
pub type Outcome = Result<Done, Failure>;

/// A failed write to standard output: quiet when the reader went away, one
/// line otherwise ([`csp_cli::output::classify`]).
impl From<std::io::Error> for Failure {
    fn from(e: std::io::Error) -> Self {
        match csp_cli::output::classify(&e) {
            csp_cli::output::WriteFailure::ReaderGone => Failure::ReaderGone,
            csp_cli::output::WriteFailure::Failed(message) => Failure::Other(message),
        }
    }
}

/// Parses the command line, runs the command, and turns the result into the
/// exit status.
pub fn run() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return clap_error(e),
    };
    let outcome = match cli.command {
        None => stdin::run(),
        Some(Command::Count(a)) => count::run(a),
        Some(Command::Solve(a)) => solve::run(a),
        Some(Command::Trace(a)) => trace::run(a),
        Some(Command::Merge(a)) => merge::run(a),
        Some(Command::Compare(a)) => compare::run(a),
        Some(Command::Tree(a)) => tree::run(a),
        Some(Command::Diff(a)) => diff::run(a),
        Some(Command::Explore(a)) => explore::run(a),
    };
    match outcome {
        Ok(Done::Complete) => ExitCode::SUCCESS,
        Ok(Done::Incomplete) => ExitCode::from(1),
        Err(Failure::Usage(message)) => csp_cli::exit_usage(message),
        Err(Failure::Other(message)) => {
            csp_cli::errln!("error: {}", csp_cli::input::shorten_quoted(&message));
            ExitCode::from(1)
        }
        Err(Failure::ReaderGone) => ExitCode::from(csp_cli::output::READER_GONE_STATUS as u8),
    }
}

/// Help and version go to standard output with status 0; every other clap
/// error becomes one line on standard error with status 2.
fn clap_error(e: clap::Error) -> ExitCode {
    match csp_cli::clap_error_line(&e) {
        Some(line) => csp_cli::exit_usage(format!("{line} (see --help)")),
        None => {
            let _ = e.print();
            ExitCode::SUCCESS
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn clap_messages_are_folded_into_one_line() {
        let e = Cli::try_parse_from(["nqueens", "count"]).unwrap_err();
        assert_eq!(
            csp_cli::clap_error_line(&e).unwrap(),
            "the following required arguments were not provided: <N>"
        );
    }
}
