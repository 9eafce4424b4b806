//! The all-interval series: permutations of 0..n whose successive intervals are
//! all different (40 at n = 8, 296 at n = 10).
//!
//! The model declares every note before every interval (the natural order) and
//! branches on `x0 x1 d0 x2 d1 ...` through `Config::with_decision_vars`;
//! `--x-first` branches in declaration order instead, and `--interleaved`
//! declares the variables in the branching order (the same tree as the default).
//!
//! ```text
//! cargo run --release --example all_interval -- 10 --stats
//! cargo run --release --example all_interval -- 10 --x-first --pruning check --stats
//! ```

use clap::Parser;
use csp_core::{Config, Pruning, Solver};
use csp_examples::all_interval::AllInterval;
use csp_examples::cli;

/// Count the all-interval series of length n.
#[derive(Parser)]
#[command(name = "all_interval")]
struct Cli {
    /// The length n.
    #[arg(default_value_t = 8, value_parser = clap::value_parser!(u16).range(2..=1000))]
    n: u16,
    /// Branch in declaration order, every note before every interval (a much
    /// larger tree in input order).
    #[arg(long, conflicts_with = "interleaved")]
    x_first: bool,
    /// Declare the variables interleaved and branch in declaration order.
    #[arg(long)]
    interleaved: bool,
    /// How many series to print.
    #[arg(long, default_value_t = 3)]
    show: u64,
    #[command(flatten)]
    strategy: csp_cli::StrategyArgs,
}

fn main() {
    let args: Cli = cli::parse_args();
    let defaults = Config::textbook().with_pruning(Pruning::ForwardChecking);
    let mut config = cli::config_from(&args.strategy, defaults);
    let n = usize::from(args.n);
    let a = if args.interleaved {
        AllInterval::new(n)
    } else {
        AllInterval::x_first(n)
    }
    .unwrap_or_else(|e| csp_cli::exit_usage(e));
    if !args.x_first && !args.interleaved {
        config = config.with_decision_vars(&a.interleaved_order());
    }
    csp_cli::outln!(
        "all-interval series of length {n}; strategy {}",
        cli::strategy_name(&config)
    );
    let mut solver =
        Solver::new(&a.model, config.clone()).unwrap_or_else(|e| csp_cli::exit_usage(e));
    let mut shown = 0;
    while shown < args.show {
        let Some(s) = solver.next_solution() else {
            break;
        };
        let series: Vec<String> = a.series(s.values()).iter().map(|v| v.to_string()).collect();
        csp_cli::outln!("  {}", series.join(" "));
        shown += 1;
    }
    let result = solver.count();
    csp_cli::outln!(
        "{}",
        cli::count_phrase(result.solutions, result.status, "solution")
    );
    cli::report_stats(&args.strategy, &config, &result.stats, result.status, &[]);
}
