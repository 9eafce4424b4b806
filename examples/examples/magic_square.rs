//! Magic squares: places 1..n² so that rows, columns and diagonals have equal
//! sums; counts them (8 for n = 3, one in Frénicle's standard form).
//!
//! ```text
//! cargo run --release --example magic_square -- 3 --count
//! cargo run --release --example magic_square -- 4 --stats
//! ```

use clap::Parser;
use csp_core::{Config, Pruning, Solver, VarOrder};
use csp_examples::cli;
use csp_examples::magic_square::MagicSquare;

/// Find (or count) the magic squares of order n.
#[derive(Parser)]
#[command(name = "magic_square")]
struct Cli {
    /// The order n.
    #[arg(default_value_t = 3, value_parser = clap::value_parser!(u16).range(1..=30))]
    n: u16,
    /// Keep only squares in Frénicle's standard form (one per rotation and reflection class).
    #[arg(long)]
    frenicle: bool,
    /// Count every square instead of stopping at the first.
    #[arg(long)]
    count: bool,
    #[command(flatten)]
    strategy: csp_cli::StrategyArgs,
}

fn main() {
    let args: Cli = cli::parse_args();
    let n = usize::from(args.n);
    let defaults = Config::textbook()
        .with_pruning(Pruning::Propagators)
        .with_var_order(VarOrder::FirstFail);
    let config = cli::config_from(&args.strategy, defaults);
    let sq = MagicSquare::new(n, args.frenicle).unwrap_or_else(|e| csp_cli::exit_usage(e));
    csp_cli::outln!(
        "order {n}, magic constant {}; strategy {}",
        sq.magic,
        cli::strategy_name(&config)
    );
    let mut solver =
        Solver::new(&sq.model, config.clone()).unwrap_or_else(|e| csp_cli::exit_usage(e));
    match solver.next_solution() {
        Some(first) => csp_cli::outln!("{}", sq.show(first.values())),
        None => csp_cli::outln!("{}", cli::none_found("magic square", solver.status())),
    }
    if args.count {
        let result = solver.count();
        csp_cli::outln!(
            "{}",
            cli::count_phrase(result.solutions, result.status, "magic square")
        );
    }
    cli::report_stats(
        &args.strategy,
        &config,
        solver.stats(),
        solver.status(),
        &[],
    );
}
