//! A nurse roster: five nurses, a week, four shifts, daily demands, two days
//! off each, no night before an early shift, and wishes that cost a penalty
//! when unmet; minimise the penalty. Written with expressions and solved with
//! `Config::default()`, the strongest general-purpose search.
//!
//! ```text
//! cargo run --release --example nurse_roster
//! cargo run --release --example nurse_roster -- --pruning check --time-limit 5s --stats
//! ```

use clap::Parser;
use csp_core::{Config, Solver};
use csp_examples::cli;
use csp_examples::nurse_roster::Roster;

/// Roster five nurses over a week at the least penalty for unmet wishes.
#[derive(Parser)]
#[command(name = "nurse_roster")]
struct Cli {
    /// Print every improving roster's penalty as it is found.
    #[arg(long)]
    all: bool,
    #[command(flatten)]
    strategy: csp_cli::StrategyArgs,
}

fn main() {
    let args: Cli = cli::parse_args();
    let config = cli::config_from(&args.strategy, Config::default());
    let roster = Roster::sample();
    let built = roster.build().unwrap_or_else(|e| csp_cli::exit_usage(e));
    csp_cli::outln!(
        "{} nurses, {} days, {} wishes; strategy {}",
        roster.nurses.len(),
        roster.days,
        roster.wishes.len(),
        cli::strategy_name(&config)
    );
    let mut solver =
        Solver::new(&built.model, config.clone()).unwrap_or_else(|e| csp_cli::exit_usage(e));
    let best = solver
        .optimize_with(built.cost.clone(), csp_core::Goal::Minimize, |s| {
            if args.all
                && let Some(c) = built.cost.eval(s.values())
            {
                csp_cli::outln!("penalty {c}");
            }
        })
        .unwrap_or_else(|e| csp_cli::exit_usage(e));
    match (&best.best, best.objective) {
        (Some(plan), Some(cost)) => {
            let shifts = built.shifts_of(plan.values());
            let proved = if best.status.is_complete() {
                "optimal"
            } else {
                "best found, not proved optimal"
            };
            csp_cli::outln!("penalty {cost} ({proved})");
            for line in roster.show(&shifts) {
                csp_cli::outln!("  {line}");
            }
        }
        _ => csp_cli::outln!("{}", cli::none_found("roster", best.status)),
    }
    cli::report_stats(&args.strategy, &config, &best.stats, best.status, &[]);
    csp_cli::output::finish();
}
