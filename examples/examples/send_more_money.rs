//! Cryptarithms: SEND + MORE = MONEY (or any `WORD + ... = WORD` given as an
//! argument) as one linear equation plus all-different; lists every solution.
//!
//! ```text
//! cargo run --release --example send_more_money -- --stats
//! cargo run --release --example send_more_money -- "TWO + TWO = FOUR"
//! ```

use clap::Parser;
use csp_core::{Config, Pruning, Solver};
use csp_examples::cli;
use csp_examples::send_more_money::{Cryptarithm, CryptarithmModel};

/// Solve an addition puzzle in which letters stand for distinct digits.
#[derive(Parser)]
#[command(name = "send_more_money")]
struct Cli {
    /// The puzzle, such as "SEND + MORE = MONEY".
    #[arg(default_value = "SEND + MORE = MONEY")]
    puzzle: String,
    #[command(flatten)]
    strategy: csp_cli::StrategyArgs,
}

fn main() {
    let args: Cli = cli::parse_args();
    let puzzle: Cryptarithm = args
        .puzzle
        .parse()
        .unwrap_or_else(|e| csp_cli::exit_usage(format!("puzzle: {e}")));
    let config = cli::config_from(
        &args.strategy,
        Config::textbook().with_pruning(Pruning::Propagators),
    );
    let m = CryptarithmModel::new(&puzzle).unwrap_or_else(|e| csp_cli::exit_usage(e));
    csp_cli::outln!("{puzzle}; strategy {}", cli::strategy_name(&config));
    let mut solver =
        Solver::new(&m.model, config.clone()).unwrap_or_else(|e| csp_cli::exit_usage(e));
    let mut found = 0;
    while let Some(s) = solver.next_solution() {
        found += 1;
        let digits = s.values_of(&m.digits);
        let letters: Vec<String> = puzzle
            .letters()
            .iter()
            .zip(&digits)
            .map(|(l, d)| format!("{l}={d}"))
            .collect();
        csp_cli::outln!("  {}   ({})", puzzle.show(&digits), letters.join(" "));
    }
    csp_cli::outln!("{}", cli::count_phrase(found, solver.status(), "solution"));
    cli::report_stats(
        &args.strategy,
        &config,
        solver.stats(),
        solver.status(),
        &[],
    );
}
