//! Latin squares: counts the n × n squares with every symbol once per row and
//! column (12 for n = 3, 576 for n = 4), or only the reduced ones.
//!
//! ```text
//! cargo run --release --example latin_square -- 4 --stats
//! cargo run --release --example latin_square -- 6 --reduced
//! ```

use clap::Parser;
use csp_core::{Config, Pruning, Solver};
use csp_examples::cli;
use csp_examples::latin_square::LatinSquare;

/// Count the Latin squares of order n.
#[derive(Parser)]
#[command(name = "latin_square")]
struct Cli {
    /// The order n.
    #[arg(default_value_t = 4, value_parser = clap::value_parser!(u16).range(1..=64))]
    n: u16,
    /// Count only reduced squares (first row and column in natural order).
    #[arg(long)]
    reduced: bool,
    #[command(flatten)]
    strategy: csp_cli::StrategyArgs,
}

fn main() {
    let args: Cli = cli::parse_args();
    let n = usize::from(args.n);
    let config = cli::config_from(
        &args.strategy,
        Config::textbook().with_pruning(Pruning::ForwardChecking),
    );
    let sq = LatinSquare::new(n, args.reduced).unwrap_or_else(|e| csp_cli::exit_usage(e));
    let kind = if args.reduced {
        "reduced Latin square"
    } else {
        "Latin square"
    };
    csp_cli::outln!(
        "order {n}, {kind}s; strategy {}",
        cli::strategy_name(&config)
    );
    let mut solver =
        Solver::new(&sq.model, config.clone()).unwrap_or_else(|e| csp_cli::exit_usage(e));
    if let Some(first) = solver.next_solution() {
        csp_cli::outln!("first:\n{}", sq.show(first.values()));
    }
    let result = solver.count();
    csp_cli::outln!(
        "{}",
        cli::count_phrase(result.solutions, result.status, kind)
    );
    cli::report_stats(&args.strategy, &config, &result.stats, result.status, &[]);
}
