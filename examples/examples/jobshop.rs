//! Job-shop scheduling with one `disjunctive` per machine: finds a schedule of
//! least makespan by branch and bound and proves it optimal (55 for ft06).
//!
//! ```text
//! cargo run --release --example jobshop            # ft06
//! cargo run --release --example jobshop -- small --stats
//! cargo run --release --example jobshop -- --pruning mac --order-vars
//! ```

use clap::Parser;
use csp_core::{Config, Pruning, Solver, VarOrder};
use csp_examples::cli;
use csp_examples::jobshop::{JobShop, JobShopModel};

/// Minimise the makespan of a built-in job-shop instance.
#[derive(Parser)]
#[command(name = "jobshop")]
struct Cli {
    /// The instance: ft06 (Fisher and Thompson's 6 x 6) or small (3 x 3).
    #[arg(default_value = "ft06")]
    instance: String,
    /// Add a 0/1 order variable per pair of operations on a machine and branch
    /// on those first (fast under --pruning fc or mac, where `disjunctive` does
    /// no edge finding).
    #[arg(long)]
    order_vars: bool,
    #[command(flatten)]
    strategy: csp_cli::StrategyArgs,
}

fn main() {
    let args: Cli = cli::parse_args();
    let Some(shop) = JobShop::by_name(&args.instance) else {
        csp_cli::exit_usage(format!(
            "unknown instance `{}` (expected ft06 or small)",
            args.instance
        ));
    };
    let defaults = Config::textbook()
        .with_pruning(Pruning::Propagators)
        .with_var_order(VarOrder::FirstFail);
    let config = cli::config_from(&args.strategy, defaults);
    let build = if args.order_vars {
        JobShopModel::with_order_vars
    } else {
        JobShopModel::new
    };
    let m = build(&shop, shop.total_duration()).unwrap_or_else(|e| csp_cli::exit_usage(e));
    csp_cli::outln!(
        "{}: {} jobs on {} machines; strategy {}",
        shop.name,
        shop.jobs.len(),
        shop.machines(),
        cli::strategy_name(&config)
    );
    let best = Solver::new(&m.model, config.clone())
        .and_then(|mut s| s.minimize(m.makespan))
        .unwrap_or_else(|e| csp_cli::exit_usage(e));
    match (&best.best, best.objective) {
        (Some(s), Some(makespan)) => {
            let proof = if best.status.is_complete() {
                "optimal"
            } else {
                "best found (search stopped)"
            };
            csp_cli::outln!(
                "makespan {makespan} ({proof}); improvements {:?}",
                best.improvements
            );
            csp_cli::outln!("{}", m.show(&shop, s.values()));
        }
        _ => csp_cli::outln!("{}", cli::none_found("schedule", best.status)),
    }
    cli::report_stats(&args.strategy, &config, &best.stats, best.status, &[]);
}
