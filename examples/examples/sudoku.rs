//! Sudoku: solves puzzles given as 81 characters (`.` or `0` for blanks) in an
//! argument, a file or standard input, and says whether each solution is unique.
//!
//! ```text
//! cargo run --release --example sudoku -- 8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..
//! cargo run --release --example sudoku -- --file examples/data/sudoku.txt --stats
//! cargo run --release --example sudoku -- --file examples/data/sudoku.txt --explore sudoku.html
//! ```
//!
//! `--explore FILE.html` also writes the first puzzle's search as an
//! interactive page (csp-core's explorer with a 9 × 9 painter).

use clap::Parser;
use csp_core::{Config, Pruning, VarOrder};
use csp_examples::cli;
use csp_examples::sudoku::{self, PuzzleEntry, Sudoku};

/// Solve Sudoku puzzles and check that each has a unique solution.
#[derive(Parser)]
#[command(name = "sudoku")]
struct Cli {
    /// The puzzle: 81 characters, 1-9 for a given, `.` or `0` for a blank. Without it,
    /// puzzles are read from --file or standard input.
    puzzle: Option<String>,
    /// Read puzzles from this file (`-` for standard input): 81 cells each, `#` comments.
    #[arg(long, short)]
    file: Option<String>,
    /// Also write the first puzzle's search as an interactive page: step through it
    /// in a browser (one self-contained HTML file).
    #[arg(long, value_name = "FILE.html")]
    explore: Option<std::path::PathBuf>,
    /// With --explore: keep at most this many events of the search.
    #[arg(long, value_name = "K", default_value_t = csp_trace::DEFAULT_LIMIT_EVENTS)]
    limit_events: usize,
    #[command(flatten)]
    strategy: csp_cli::StrategyArgs,
}

fn main() {
    let args: Cli = cli::parse_args();
    let entries: Vec<PuzzleEntry> = match (&args.puzzle, &args.file) {
        (Some(_), Some(_)) => csp_cli::exit_usage("give a puzzle or --file, not both"),
        (Some(text), None) => match text.parse::<Sudoku>() {
            Ok(puzzle) => vec![PuzzleEntry {
                line: 1,
                label: None,
                puzzle,
            }],
            Err(e) => csp_cli::exit_usage(format!("puzzle: {e}")),
        },
        (None, path) => {
            let (text, source) =
                cli::read_input(path.as_deref()).unwrap_or_else(|e| csp_cli::exit_usage(e));
            sudoku::parse_puzzles(&text)
                .unwrap_or_else(|e| csp_cli::exit_usage(e.in_source(&source)))
        }
    };
    let defaults = Config::textbook()
        .with_pruning(Pruning::Propagators)
        .with_var_order(VarOrder::FirstFail);
    let config = cli::config_from(&args.strategy, defaults);
    csp_cli::outln!("strategy: {}", cli::strategy_name(&config));
    if let (Some(path), Some(first)) = (&args.explore, entries.first()) {
        let page =
            match sudoku::explore::explore_page(&first.puzzle, config.clone(), args.limit_events) {
                Ok(page) => page,
                Err(e) if csp_trace::page_stopped(&e) => {
                    // Ctrl-C, or the time limit passed while the page was built.
                    match config
                        .limits
                        .cancel
                        .as_ref()
                        .is_some_and(|c| c.is_cancelled())
                    {
                        true => csp_cli::errln!("cancelled by Ctrl-C: no page written"),
                        false => csp_cli::errln!(
                            "stopped by the time limit while the page was written: no page written"
                        ),
                    }
                    std::process::exit(1);
                }
                Err(e) => csp_cli::exit_usage(e),
            };
        if let Err(e) = std::fs::write(path, page.html.as_bytes()) {
            csp_cli::errln!("error: cannot write {}: {e}", path.display());
            std::process::exit(1);
        }
        let more = if entries.len() > 1 {
            " (the first puzzle)"
        } else {
            ""
        };
        csp_cli::errln!("explorer page written to {}{more}", path.display());
        if page.truncated {
            csp_cli::errln!(
                "note: the recording stopped at {} events ({} values tried); raise --limit-events to see more",
                args.limit_events,
                page.tried
            );
        }
    }
    for (i, entry) in entries.iter().enumerate() {
        let label = entry
            .label
            .as_deref()
            .map(|l| format!(": {l}"))
            .unwrap_or_default();
        csp_cli::outln!(
            "\npuzzle {} ({} givens){label}",
            i + 1,
            entry.puzzle.givens()
        );
        csp_cli::out!("{}", entry.puzzle);
        let report = match sudoku::solve(&entry.puzzle, config.clone()) {
            Ok(r) => r,
            Err(e) => csp_cli::exit_usage(e),
        };
        if let Some(solution) = &report.solution {
            csp_cli::outln!("solution:");
            csp_cli::out!("{solution}");
        }
        csp_cli::outln!("{}", report.uniqueness);
        cli::report_stats(
            &args.strategy,
            &config,
            &report.stats,
            report.status,
            &[("puzzle", (i + 1).to_string())],
        );
    }
}
