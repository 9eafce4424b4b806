//! The travelling salesman with `circuit`: the shortest tour through `n`
//! pseudo-random cities, found by branch and bound and proved optimal.
//!
//! ```text
//! cargo run --release --example tsp               # 10 cities, seed 1
//! cargo run --release --example tsp -- 12 --seed 7 --stats
//! ```

use clap::Parser;
use csp_core::{Config, Pruning, Solver, VarOrder};
use csp_examples::cli;
use csp_examples::tsp::{Tsp, TspModel};

/// The shortest round trip through n cities.
#[derive(Parser)]
#[command(name = "tsp")]
struct Cli {
    /// The number of cities.
    #[arg(default_value_t = 10, value_parser = clap::value_parser!(u16).range(2..=200))]
    n: u16,
    /// The seed that places the cities.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    strategy: csp_cli::StrategyArgs,
}

fn main() {
    let args: Cli = cli::parse_args();
    let tsp = Tsp::random(usize::from(args.n), args.seed);
    let defaults = Config::textbook()
        .with_pruning(Pruning::Propagators)
        .with_var_order(VarOrder::FirstFail);
    let config = cli::config_from(&args.strategy, defaults);
    let m = TspModel::new(&tsp, None).unwrap_or_else(|e| csp_cli::exit_usage(e));
    csp_cli::outln!(
        "{} cities (seed {}); strategy {}",
        args.n,
        args.seed,
        cli::strategy_name(&config)
    );
    let best = Solver::new(&m.model, config.clone())
        .and_then(|mut s| s.minimize(m.length))
        .unwrap_or_else(|e| csp_cli::exit_usage(e));
    match (&best.best, best.objective) {
        (Some(s), Some(length)) => {
            let proof = if best.status.is_complete() {
                "optimal"
            } else {
                "best found (search stopped)"
            };
            let tour: Vec<String> = m.tour(s.values()).iter().map(usize::to_string).collect();
            csp_cli::outln!("length {length} ({proof}): {} 0", tour.join(" "));
        }
        _ => csp_cli::outln!("{}", cli::none_found("tour", best.status)),
    }
    cli::report_stats(&args.strategy, &config, &best.stats, best.status, &[]);
}
