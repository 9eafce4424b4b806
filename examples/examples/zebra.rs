//! The zebra puzzle: five houses and fourteen clues as equalities, linear
//! constraints and "next to" as a table or a predicate; who owns the zebra?
//!
//! ```text
//! cargo run --release --example zebra
//! cargo run --release --example zebra -- --next-to predicate --pruning fc --stats
//! ```

use clap::Parser;
use csp_core::{Config, Pruning, Solver};
use csp_examples::cli;
use csp_examples::zebra::{NextTo, Zebra};

/// Solve the zebra puzzle and check that its solution is unique.
#[derive(Parser)]
#[command(name = "zebra")]
struct Cli {
    /// How to post "lives next to": table or predicate.
    #[arg(long, value_enum, default_value_t = NextTo::Table)]
    next_to: NextTo,
    #[command(flatten)]
    strategy: csp_cli::StrategyArgs,
}

fn main() {
    let args: Cli = cli::parse_args();
    let config = cli::config_from(
        &args.strategy,
        Config::textbook().with_pruning(Pruning::ArcConsistency),
    );
    let z = Zebra::new(args.next_to).unwrap_or_else(|e| csp_cli::exit_usage(e));
    csp_cli::outln!("strategy {}", cli::strategy_name(&config));
    let mut solver =
        Solver::new(&z.model, config.clone()).unwrap_or_else(|e| csp_cli::exit_usage(e));
    match solver.next_solution() {
        Some(s) => {
            csp_cli::outln!("{}", z.show(&s));
            let owner = z.owner_of(&s, "zebra").unwrap_or("?");
            let drinker = z.owner_of(&s, "water").unwrap_or("?");
            csp_cli::outln!("The {owner} owns the zebra; the {drinker} drinks water.");
        }
        None => csp_cli::outln!("{}", cli::none_found("solution", solver.status())),
    }
    let result = solver.count();
    csp_cli::outln!(
        "{}",
        cli::count_phrase(result.solutions, result.status, "solution")
    );
    cli::report_stats(&args.strategy, &config, &result.stats, result.status, &[]);
}
