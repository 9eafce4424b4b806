//! Map colouring: colours Australia (the textbook CSP; 18 colourings with 3
//! colours) or the 48 contiguous US states so that neighbours differ.
//!
//! ```text
//! cargo run --release --example map_coloring -- --count
//! cargo run --release --example map_coloring -- --map usa --colors 4
//! ```

use clap::Parser;
use csp_core::{Config, Pruning, Solver, VarOrder};
use csp_examples::cli;
use csp_examples::graph_coloring::ColoringModel;
use csp_examples::map_coloring;

/// Colour a map with k colours so that regions sharing a border differ.
#[derive(Parser)]
#[command(name = "map_coloring")]
struct Cli {
    /// The map: australia or usa.
    #[arg(long, default_value = "australia")]
    map: String,
    /// The number of colours.
    #[arg(long, short = 'k', default_value_t = 3)]
    colors: usize,
    /// Count every colouring instead of stopping at the first.
    #[arg(long)]
    count: bool,
    #[command(flatten)]
    strategy: csp_cli::StrategyArgs,
}

const NAMES: [&str; 6] = ["red", "green", "blue", "yellow", "purple", "orange"];

fn main() {
    let args: Cli = cli::parse_args();
    let Some(map) = map_coloring::by_name(&args.map) else {
        csp_cli::exit_usage(format!(
            "unknown map '{}' (expected australia or usa)",
            args.map
        ))
    };
    if !(1..=1000).contains(&args.colors) {
        csp_cli::exit_usage(format!(
            "--colors {} is not between 1 and 1000",
            args.colors
        ));
    }
    let defaults = Config::textbook()
        .with_pruning(Pruning::ForwardChecking)
        .with_var_order(VarOrder::MrvDegree);
    let config = cli::config_from(&args.strategy, defaults);
    let m = ColoringModel::k_coloring(&map.graph, args.colors, &[])
        .unwrap_or_else(|e| csp_cli::exit_usage(e));
    let mut solver =
        Solver::new(&m.model, config.clone()).unwrap_or_else(|e| csp_cli::exit_usage(e));
    csp_cli::outln!(
        "{}: {} regions, {} borders, {} colours; strategy {}",
        map.name,
        map.regions.len(),
        map.graph.num_edges(),
        args.colors,
        cli::strategy_name(&config)
    );
    match solver.next_solution() {
        Some(s) => {
            for (region, &var) in map.regions.iter().zip(&m.colors) {
                let c = usize::try_from(s[var]).unwrap_or(0);
                let name = NAMES
                    .get(c)
                    .map_or_else(|| format!("colour {}", c + 1), |n| n.to_string());
                csp_cli::outln!("  {region:<4} {name}");
            }
        }
        None => csp_cli::outln!("{}", cli::none_found("colouring", solver.status())),
    }
    if args.count {
        let result = solver.count();
        csp_cli::outln!(
            "{}",
            cli::count_phrase(result.solutions, result.status, "colouring")
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
