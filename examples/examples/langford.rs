//! Langford pairings: counts the arrangements of 1,1,2,2,...,n,n with k numbers
//! between the two k's (52 for n = 7, 300 for n = 8, mirror images included).
//!
//! ```text
//! cargo run --release --example langford -- 7
//! cargo run --release --example langford -- 8 --mirror-free --stats
//! ```

use clap::Parser;
use csp_core::{Config, Pruning, Solver, VarOrder};
use csp_examples::cli;
use csp_examples::langford::Langford;

/// Count the Langford sequences of n pairs.
#[derive(Parser)]
#[command(name = "langford")]
struct Cli {
    /// The number of pairs n.
    #[arg(default_value_t = 7, value_parser = clap::value_parser!(u16).range(2..=1000))]
    n: u16,
    /// Count one sequence of each mirror pair.
    #[arg(long)]
    mirror_free: bool,
    /// How many sequences to print.
    #[arg(long, default_value_t = 3)]
    show: u64,
    #[command(flatten)]
    strategy: csp_cli::StrategyArgs,
}

fn main() {
    let args: Cli = cli::parse_args();
    let defaults = Config::textbook()
        .with_pruning(Pruning::ForwardChecking)
        .with_var_order(VarOrder::FirstFail);
    let config = cli::config_from(&args.strategy, defaults);
    let l = Langford::new(usize::from(args.n), args.mirror_free)
        .unwrap_or_else(|e| csp_cli::exit_usage(e));
    csp_cli::outln!("L(2, {}); strategy {}", args.n, cli::strategy_name(&config));
    let mut solver =
        Solver::new(&l.model, config.clone()).unwrap_or_else(|e| csp_cli::exit_usage(e));
    let mut shown = 0;
    while shown < args.show {
        let Some(s) = solver.next_solution() else {
            break;
        };
        csp_cli::outln!("  {}", l.show(s.values()));
        shown += 1;
    }
    let result = solver.count();
    let count = cli::count_phrase(result.solutions, result.status, "sequence");
    csp_cli::outln!(
        "{count}{}",
        if args.mirror_free {
            " up to mirror image"
        } else {
            ""
        }
    );
    cli::report_stats(&args.strategy, &config, &result.stats, result.status, &[]);
}
